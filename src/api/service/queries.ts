import { queryOptions } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { connectionId } from '../connection.ts';
import { getLocations, listBuckets, type ListBucketsInput } from './operations.ts';

/**
 * Query keys form one hierarchy per connection:
 *   ['qs', connectionId]                                   everything of a connection
 *   ['qs', connectionId, 'buckets', {zone, location}]      ListBuckets
 *   ['qs', connectionId, 'bucket', bucket, ...]            one bucket (see buckets/queries.ts)
 * so invalidating a prefix refreshes exactly the views below it.
 */
export function qsRootKey(client: QsClient) {
  return ['qs', connectionId(client.connection)] as const;
}

export function bucketsKey(client: QsClient) {
  return [...qsRootKey(client), 'buckets'] as const;
}

export function listBucketsQuery(client: QsClient, input: ListBucketsInput = {}) {
  const params = { zone: input.zone ?? null, location: input.location ?? null, offset: input.offset ?? 0, limit: input.limit ?? null };
  return queryOptions({
    queryKey: [...bucketsKey(client), params] as const,
    queryFn: ({ signal }) => listBuckets(client, input, { signal }),
  });
}

export function locationsQuery(client: QsClient, lang: 'en-us' | 'zh-cn' = 'en-us') {
  return queryOptions({
    queryKey: [...qsRootKey(client), 'locations', lang] as const,
    queryFn: ({ signal }) => getLocations(client, { lang }, { signal }),
    // Zones change about never.
    staleTime: 60 * 60 * 1000,
  });
}
