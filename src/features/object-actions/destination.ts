/**
 * What stands at a copy's or move's destination, asked before the write: QingStor overwrites an existing
 * destination without a word and offers no destination condition, so the console asks first. Copies
 * and moves stay within one zone (ref §5.2), so a destination bucket the bucket list places in another
 * zone is refused with that reason instead of the service's "bucket does not exist".
 */
import type { QueryClient } from '@tanstack/react-query';
import type { QsClient } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { headObject, type ObjectHead } from '../../api/objects/read.ts';
import { allBucketsQuery } from '../../api/service/queries.ts';

export type DestinationState =
  | { kind: 'free' }
  | { kind: 'exists'; head: ObjectHead }
  | { kind: 'other-zone'; bucketZone: string }
  /** The HEAD failed with something other than 404 (no permission to read, network): asked like "exists". */
  | { kind: 'unknown'; error: unknown };

/** The zone the account's bucket list gives `bucket`, or undefined when the list cannot be read. */
async function zoneOfBucket(client: QsClient, queryClient: QueryClient, bucket: string): Promise<string | undefined> {
  if (client.connection.credentials === undefined) return undefined;
  try {
    const buckets = await queryClient.fetchQuery({ ...allBucketsQuery(client), staleTime: 60_000 });
    return buckets.find((b) => b.name === bucket)?.location;
  } catch {
    // No bucket list (blocked, or not allowed): the write itself will say what is wrong.
    return undefined;
  }
}

export async function checkDestination(
  client: QsClient,
  queryClient: QueryClient,
  input: { zone: string; bucket: string; key: string },
): Promise<DestinationState> {
  const bucketZone = await zoneOfBucket(client, queryClient, input.bucket);
  if (bucketZone !== undefined && bucketZone !== input.zone) return { kind: 'other-zone', bucketZone };
  try {
    return { kind: 'exists', head: await headObject(client, input) };
  } catch (error) {
    // 404: nothing there. Anything else leaves the destination unknown: the user is asked, never overwritten silently.
    if (error instanceof ApiError && error.status === 404) return { kind: 'free' };
    return { kind: 'unknown', error };
  }
}
