import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { getBucketAcl, putBucketAcl } from './operations.ts';
import { isPublicRead } from './public-read.ts';
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

/**
 * Whether anyone may read the bucket (the Public badge of the bucket list and the sidebar): the same request
 * and cache entry as the ACL itself, so the settings page and the badge never disagree. A bucket whose ACL
 * cannot be read (no right, CORS) shows no badge rather than an error, and is not asked again at once.
 */
export function bucketPublicReadQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    ...bucketAclQuery(client, ref),
    select: (data) => isPublicRead(data.acl),
    retry: false,
    staleTime: 60_000,
  });
}

export function putBucketAclMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putBucketAcl'],
    mutationFn: (input: BucketRef & { acl: readonly AclEntry[] }) => putBucketAcl(client, input, input.acl),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: bucketAclKey(client, input.bucket) }),
  });
}
