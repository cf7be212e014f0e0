import { requestIdOf, type BucketRef, type CallOptions, type QsClient, type WriteResult } from '../client.ts';
import { bucketLifecycleSchema, type BucketLifecycle, type LifecycleRule } from './schemas.ts';

/** GetBucketLifecycle — GET /?lifecycle (ref §9.10), owner only; no rules ⇒ an empty list. */
export function getBucketLifecycle(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketLifecycle> {
  return client.json(bucketLifecycleSchema, {
    operation: 'GetBucketLifecycle',
    method: 'GET',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { lifecycle: null },
    signal: options.signal,
  });
}

/** PutBucketLifecycle — PUT /?lifecycle (ref §9.10) → 200; replaces every rule. */
export async function putBucketLifecycle(client: QsClient, ref: BucketRef, rules: readonly LifecycleRule[], options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'PutBucketLifecycle',
    method: 'PUT',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { lifecycle: null },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rule: rules }),
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}

/** DeleteBucketLifecycle — DELETE /?lifecycle (ref §9.10) → 204. */
export async function deleteBucketLifecycle(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'DeleteBucketLifecycle',
    method: 'DELETE',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { lifecycle: null },
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}
