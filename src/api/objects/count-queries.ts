import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import type { BucketRef, QsClient } from '../client.ts';
import { countKeys, type CountLister, type PrefixCount } from './count.ts';
import { objectListsKey } from './queries.ts';

// "Count all" of the object table: its own module, so the object browser's first screen does not carry it.

export type { PrefixCount } from './count.ts';

/**
 * What a count reads of a ListObjects page (ref §9.5): names, sizes and the paging fields. The other
 * fields of each entry (ETag, dates, type, class) are neither needed nor checked; a count reads many
 * thousands of pages.
 */
const countPageSchema = z.object({
  next_marker: z.string().default(''),
  has_more: z.boolean().default(false),
  keys: z.array(z.object({ key: z.string(), size: z.int().nonnegative() })).default([]),
  common_prefixes: z.array(z.string()).default([]),
});

function lister(client: QsClient, ref: BucketRef): CountLister {
  return (input, signal) =>
    client.json(countPageSchema, {
      operation: 'ListObjects',
      method: 'GET',
      zone: ref.zone,
      bucket: ref.bucket,
      query: { prefix: input.prefix || undefined, delimiter: input.delimiter, marker: input.marker || undefined, limit: 1000 },
      signal,
    });
}

/**
 * Counts every key under `prefix` (the empty prefix: the whole bucket) and adds up their sizes, without a
 * delimiter (ref §9.5) and with several listings in flight (count.ts), keeping no keys: a bucket of
 * millions costs a few pages of memory. `onPage` gets the running figures; the signal stops it.
 */
export function countPrefix(
  client: QsClient,
  input: BucketRef & { prefix: string },
  options: { signal?: AbortSignal | undefined; onPage?: (counted: PrefixCount) => void; concurrency?: number } = {},
): Promise<PrefixCount> {
  return countKeys(lister(client, input), input.prefix, options);
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
