import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { getBucketAcl, putBucketAcl } from './operations.ts';
import type { AclEntry } from './schemas.ts';

export function bucketAclKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'acl'] as const;
}

export function bucketAclQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketAclKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketAcl(client, ref, { signal }),
  });
}

export function putBucketAclMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putBucketAcl'],
    mutationFn: (input: BucketRef & { acl: readonly AclEntry[] }) => putBucketAcl(client, input, input.acl),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: bucketAclKey(client, input.bucket) }),
  });
}
