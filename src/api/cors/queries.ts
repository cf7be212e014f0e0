import { queryOptions } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { getBucketCors } from './operations.ts';

export function bucketCorsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'cors'] as const;
}

export function bucketCorsQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketCorsKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketCors(client, ref, { signal }),
  });
}
