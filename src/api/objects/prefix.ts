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
