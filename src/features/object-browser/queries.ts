import type { QsClient } from '../../api/client.ts';
import { listObjectsInfiniteQuery } from '../../api/objects/list-queries.ts';

/**
 * ref §9.5 / §12: the real service clamps `limit` (100 or 1000); asking for the larger and following
 * has_more is correct either way.
 */
export const PAGE_LIMIT = 1000;

/** One folder level: delimiter '/' turns deeper keys into common prefixes (folders); or all keys below it. */
export function folderListingQuery(client: QsClient, zone: string, bucket: string, prefix: string, flat = false) {
  // Flat: no delimiter, so every key below the prefix is listed and there are no folders.
  return listObjectsInfiniteQuery(client, { zone, bucket, prefix, delimiter: flat ? '' : '/', limit: PAGE_LIMIT });
}
