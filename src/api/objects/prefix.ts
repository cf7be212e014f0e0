import type { BucketRef, QsClient } from '../client.ts';
import { pages } from '../protocol/paging.ts';
import { listObjects, nextObjectsMarker } from './operations.ts';

/**
 * The pages of every key under `prefix` (no delimiter: subfolders included), through the shared pager. An
 * empty prefix is refused: the walks below cover one folder, never a whole bucket.
 */
export function prefixPages(client: QsClient, input: BucketRef & { prefix: string }, signal?: AbortSignal) {
  if (input.prefix === '') throw new RangeError('a prefix walk needs a non-empty prefix');
  return pages({
    fetchPage: (marker: string | undefined) =>
      listObjects(client, { zone: input.zone, bucket: input.bucket, prefix: input.prefix, marker: marker ?? '', limit: 1000 }, { signal }),
    nextMarker: nextObjectsMarker,
    signal,
  });
}

export interface PrefixScan {
  /** Every key under the prefix (the folder's own marker object included), in the server's order. */
  keys: string[];
  /** Sum of their sizes in bytes. */
  size: number;
}

/**
 * Lists every key under `prefix` without a delimiter (ref §9.5), page after page, reporting the running
 * count after each page. An empty prefix is refused: this walks one folder, never a whole bucket.
 */
export async function scanPrefix(
  client: QsClient,
  input: BucketRef & { prefix: string },
  options: { signal?: AbortSignal | undefined; onPage?: (scanned: PrefixScan) => void } = {},
): Promise<PrefixScan> {
  const scan: PrefixScan = { keys: [], size: 0 };
  const listing = prefixPages(client, input, options.signal);
  for await (const page of listing) {
    for (const entry of page.keys) {
      scan.keys.push(entry.key);
      scan.size += entry.size;
    }
    options.onPage?.(scan);
  }
  return scan;
}
