import { deleteBucketSubresource, getBucketSubresource, putBucketSubresource } from '../bucket-subresource.ts';
import type { BucketRef, CallOptions, QsClient, WriteResult } from '../client.ts';
import { bucketLifecycleSchema, type BucketLifecycle, type LifecycleRule } from './schemas.ts';

const LIFECYCLE = { name: 'lifecycle', get: 'GetBucketLifecycle', put: 'PutBucketLifecycle', delete: 'DeleteBucketLifecycle' } as const;

/** GetBucketLifecycle — GET /?lifecycle (ref §9.10), owner only; no rules ⇒ an empty list. */
export function getBucketLifecycle(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketLifecycle> {
  return getBucketSubresource(client, ref, LIFECYCLE, bucketLifecycleSchema, options);
}

/** PutBucketLifecycle — PUT /?lifecycle (ref §9.10) → 200; replaces every rule. */
export async function putBucketLifecycle(client: QsClient, ref: BucketRef, rules: readonly LifecycleRule[], options: CallOptions = {}): Promise<WriteResult> {
  return putBucketSubresource(client, ref, LIFECYCLE, { rule: rules }, options);
}

/** DeleteBucketLifecycle — DELETE /?lifecycle (ref §9.10) → 204. */
export async function deleteBucketLifecycle(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  return deleteBucketSubresource(client, ref, LIFECYCLE, options);
}
