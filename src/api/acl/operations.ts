import { requestIdOf, type BucketRef, type CallOptions, type QsClient, type WriteResult } from '../client.ts';
import { bucketAclSchema, putBucketAclBodySchema, type AclEntry, type BucketAcl, type PutBucketAclBody } from './schemas.ts';

/** GetBucketACL — GET /?acl (ref §9.7), owner only. */
export function getBucketAcl(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketAcl> {
  return client.json(bucketAclSchema, {
    operation: 'GetBucketACL',
    method: 'GET',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { acl: null },
    signal: options.signal,
  });
}

/** The exact PUT /?acl body for `acl` (validated; the list replaces all grants, ref §9.7). */
export function putBucketAclBody(acl: readonly AclEntry[]): PutBucketAclBody {
  return putBucketAclBodySchema.parse({ acl });
}

/** PutBucketACL — PUT /?acl (ref §9.7) → 200. */
export async function putBucketAcl(client: QsClient, ref: BucketRef, acl: readonly AclEntry[], options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'PutBucketACL',
    method: 'PUT',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { acl: null },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(putBucketAclBody(acl)),
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}
