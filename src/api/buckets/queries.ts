import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketsKey, qsRootKey } from '../service/queries.ts';
import { deleteBucket, getBucketStatistics, putBucket } from './operations.ts';

/**
 * ['qs', connectionId, 'bucket', bucket] — root of everything inside one bucket. Bucket names are
 * global (ref §1.3) and a bucket lives in exactly one zone, so the zone is not part of the key.
 */
export function bucketKey(client: QsClient, bucket: string) {
  return [...qsRootKey(client), 'bucket', bucket] as const;
}

export function bucketStatisticsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'stats'] as const;
}

export function bucketStatisticsQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketStatisticsKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketStatistics(client, ref, { signal }),
  });
}

export function putBucketMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putBucket'],
    mutationFn: (ref: BucketRef) => putBucket(client, ref),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bucketsKey(client) }),
  });
}

export function deleteBucketMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteBucket'],
    mutationFn: (ref: BucketRef) => deleteBucket(client, ref),
    onSuccess: (_data, ref) => {
      queryClient.removeQueries({ queryKey: bucketKey(client, ref.bucket) });
      return queryClient.invalidateQueries({ queryKey: bucketsKey(client) });
    },
  });
}
