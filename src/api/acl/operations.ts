import { getBucketSubresource, putBucketSubresource } from '../bucket-subresource.ts';
import type { BucketRef, CallOptions, QsClient, WriteResult } from '../client.ts';
import { bucketAclSchema, putBucketAclBodySchema, type AclEntry, type BucketAcl, type PutBucketAclBody } from './schemas.ts';

const ACL = { name: 'acl', get: 'GetBucketACL', put: 'PutBucketACL' } as const;

/** GetBucketACL — GET /?acl (ref §9.7), owner only. */
export function getBucketAcl(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketAcl> {
  return getBucketSubresource(client, ref, ACL, bucketAclSchema, options);
}

/** The exact PUT /?acl body for `acl` (validated; the list replaces all grants, ref §9.7). */
export function putBucketAclBody(acl: readonly AclEntry[]): PutBucketAclBody {
  return putBucketAclBodySchema.parse({ acl });
}

/** PutBucketACL — PUT /?acl (ref §9.7) → 200. */
export async function putBucketAcl(client: QsClient, ref: BucketRef, acl: readonly AclEntry[], options: CallOptions = {}): Promise<WriteResult> {
  return putBucketSubresource(client, ref, ACL, putBucketAclBody(acl), options);
}
