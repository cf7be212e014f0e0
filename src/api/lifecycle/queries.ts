import { queryOptions } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
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
