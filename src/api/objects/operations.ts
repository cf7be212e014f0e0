/**
 * The object area's calls, one function per QingStor call: listing here, reading in `read.ts`, writing in
 * `write.ts`. Callers import each from its module.
 */
import type { BucketRef, CallOptions, ObjectRef, QsClient } from '../client.ts';
import { listObjectsSchema, type ListObjectsResult } from './schemas.ts';

// ---------------------------------------------------------------------------------------------------
// Listing

export interface ListObjectsInput extends BucketRef {
  prefix?: string;
  delimiter?: string;
  /** Start after this key: the previous page's `next_marker` (ref §9.5). */
  marker?: string;
  /** The server clamps it (ref §12: max 100 on the real service); always page with `has_more`. */
  limit?: number;
}

/** Next ListObjects marker, or undefined when the listing is complete (ref §9.5). */
export function nextObjectsMarker(page: ListObjectsResult): string | undefined {
  return page.has_more && page.next_marker !== '' ? page.next_marker : undefined;
}

/** ListObjects — GET bucket (ref §9.5). */
export function listObjects(client: QsClient, input: ListObjectsInput, options: CallOptions = {}): Promise<ListObjectsResult> {
  return client.json(listObjectsSchema, {
    operation: 'ListObjects',
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    query: {
      prefix: input.prefix || undefined,
      delimiter: input.delimiter || undefined,
      marker: input.marker || undefined,
      limit: input.limit,
    },
    signal: options.signal,
  });
}

/**
 * Whether an object is stored under exactly `key`, asked as a listing (prefix `key`, limit 1) instead of a HEAD.
 * Keys list in byte order and a key sorts before every longer key it is a prefix of, so the first key listed is
 * `key` itself when it exists. The listing answers 200 either way, where the HEAD of a free key answers 404,
 * which the browser reports in its console for every file of an upload. Other failures (no right to list, the
 * network) are thrown, as a HEAD's would be: an unknown key is never taken for a free one.
 */
export async function objectExists(client: QsClient, ref: ObjectRef, options: CallOptions = {}): Promise<boolean> {
  const page = await listObjects(client, { ...(ref.zone === undefined ? {} : { zone: ref.zone }), bucket: ref.bucket, prefix: ref.key, limit: 1 }, options);
  return page.keys[0]?.key === ref.key;
}
