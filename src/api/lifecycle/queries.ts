import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { setWholeBucketAbort } from './auto-abort.ts';
import { getBucketLifecycle } from './operations.ts';

export function bucketLifecycleKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'lifecycle'] as const;
}

export function bucketLifecycleQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketLifecycleKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketLifecycle(client, ref, { signal }),
  });
}

/**
 * Sets (`days`) or removes (null) the bucket's rule that aborts in-progress uploads after that many days,
 * keeping its other lifecycle rules (setWholeBucketAbort), then rereads the bucket's lifecycle.
 */
export function setWholeBucketAbortMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'setWholeBucketAbort'],
    mutationFn: ({ days, ...ref }: BucketRef & { days: number | null }) => setWholeBucketAbort(client, ref, days),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: bucketLifecycleKey(client, input.bucket) }),
  });
}
