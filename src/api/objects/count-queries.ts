import { queryOptions } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { listObjects } from './operations.ts';
import { objectListsKey } from './queries.ts';

// "Count all" of the object table: its own module, so the object browser's first screen does not carry it.

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

/**
 * "Count all": the number and total size of every key under a prefix (subfolders included), read page by page.
 * Counted afresh each time it is asked for, never retried; cancel it with `queryClient.cancelQueries` on its
 * key. `onPage` reports the running figures.
 */
export function prefixCountQuery(client: QsClient, input: BucketRef & { prefix: string }, onPage?: (counted: PrefixCount) => void) {
  return queryOptions({
    queryKey: [...objectListsKey(client, input.bucket), 'count', input.prefix] as const,
    queryFn: ({ signal }) => countPrefix(client, input, { signal, onPage }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
