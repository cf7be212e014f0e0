import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { connectionId } from '../connection.ts';
import type { CheckTarget, Verdict } from './check.ts';
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

/**
 * Checks a connection before it is used (check.ts): the verdict, beside the session it was asked for and
 * whatever the caller passed with it. Nothing is cached yet, so nothing is invalidated; the check's calls
 * load on first use, not with the form. `onResult` runs once a verdict is in, good or bad.
 */
export function connectionCheckMutation<T extends { session: CheckTarget }>(onResult?: (result: T & { verdict: Verdict }) => void) {
  return mutationOptions({
    mutationKey: ['connection', 'check'],
    mutationFn: async (input: T): Promise<T & { verdict: Verdict }> => {
      const { checkConnection } = await import('./check.ts');
      return { ...input, verdict: await checkConnection(input.session) };
    },
    ...(onResult ? { onSuccess: onResult } : {}),
  });
}
