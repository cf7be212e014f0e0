import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { deleteBucketCors, getBucketCors, putBucketCors } from './operations.ts';
import type { PutBucketCorsBody } from './schemas.ts';

export function bucketCorsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'cors'] as const;
}

export function bucketCorsQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketCorsKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketCors(client, ref, { signal }),
  });
}

export function putBucketCorsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putBucketCors'],
    mutationFn: (input: BucketRef & { config: PutBucketCorsBody }) => putBucketCors(client, input, input.config),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: bucketCorsKey(client, input.bucket) }),
  });
}

export function deleteBucketCorsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteBucketCors'],
    mutationFn: (ref: BucketRef) => deleteBucketCors(client, ref),
    onSuccess: (_data, ref) => queryClient.invalidateQueries({ queryKey: bucketCorsKey(client, ref.bucket) }),
  });
}
