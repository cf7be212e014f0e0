import type { BucketRef, QsClient } from '../client.ts';
import { listObjects } from './operations.ts';

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
  if (input.prefix === '') throw new RangeError('scanPrefix needs a non-empty prefix');
  const scan: PrefixScan = { keys: [], size: 0 };
  let marker = '';
  for (;;) {
    const page = await listObjects(client, { zone: input.zone, bucket: input.bucket, prefix: input.prefix, marker, limit: 1000 }, { signal: options.signal });
    for (const entry of page.keys) {
      scan.keys.push(entry.key);
      scan.size += entry.size;
    }
    options.onPage?.(scan);
    if (!page.has_more || page.next_marker === '' || page.next_marker === marker) return scan;
    marker = page.next_marker;
  }
}

export interface PrefixCount {
  /** Keys counted so far (every key under the prefix, the folder marker objects included). */
  count: number;
  /** Sum of their sizes in bytes. */
  size: number;
  /** ListObjects pages read so far. */
  pages: number;
}

/**
 * Counts every key under `prefix` (the empty prefix: the whole bucket) and adds up their sizes, page after
 * page without a delimiter (ref §9.5), keeping no keys: a bucket of millions costs one page of memory.
 * `onPage` gets the running figures; the signal stops it between pages or during one.
 */
export async function countPrefix(
  client: QsClient,
  input: BucketRef & { prefix: string },
  options: { signal?: AbortSignal | undefined; onPage?: (counted: PrefixCount) => void } = {},
): Promise<PrefixCount> {
  const counted: PrefixCount = { count: 0, size: 0, pages: 0 };
  let marker = '';
  for (;;) {
    const page = await listObjects(client, { zone: input.zone, bucket: input.bucket, prefix: input.prefix, marker, limit: 1000 }, { signal: options.signal });
    counted.pages += 1;
    for (const entry of page.keys) {
      counted.count += 1;
      counted.size += entry.size;
    }
    options.onPage?.({ ...counted });
    if (!page.has_more || page.next_marker === '' || page.next_marker === marker) return counted;
    marker = page.next_marker;
  }
}
