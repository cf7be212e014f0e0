import { queryOptions } from '@tanstack/react-query';
import type { BucketRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { getBucketAcl } from './operations.ts';

export function bucketAclKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'acl'] as const;
}

export function bucketAclQuery(client: QsClient, ref: BucketRef) {
  return queryOptions({
    queryKey: bucketAclKey(client, ref.bucket),
    queryFn: ({ signal }) => getBucketAcl(client, ref, { signal }),
  });
}
