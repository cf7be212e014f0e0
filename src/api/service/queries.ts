import { queryOptions } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { connectionId } from '../connection.ts';
import { listAllBuckets } from './operations.ts';

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

/** Every bucket of the account (all ListBuckets pages), under ['qs', cid, 'buckets', 'all']. */
export function allBucketsQuery(client: QsClient) {
  return queryOptions({
    queryKey: [...bucketsKey(client), 'all'] as const,
    queryFn: ({ signal }) => listAllBuckets(client, { signal }),
  });
}
