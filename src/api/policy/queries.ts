import { queryOptions } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { getBucketPolicy } from './operations.ts';

export function bucketPolicyKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'policy'] as const;
}

export function bucketPolicyQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketPolicyKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketPolicy(client, ref, { signal }),
  });
}
