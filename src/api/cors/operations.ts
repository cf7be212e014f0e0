import { requestIdOf, type BucketRef, type CallOptions, type QsClient, type WriteResult } from '../client.ts';
import { bucketCorsSchema, putBucketCorsBodySchema, type BucketCors, type PutBucketCorsBody } from './schemas.ts';

/** GetBucketCORS — GET /?cors (ref §9.9), owner only; no configuration ⇒ empty rule list. */
export function getBucketCors(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketCors> {
  return client.json(bucketCorsSchema, {
    operation: 'GetBucketCORS',
    method: 'GET',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { cors: null },
    signal: options.signal,
  });
}

/** PutBucketCORS — PUT /?cors (ref §9.9) → 200; replaces the whole configuration. */
export async function putBucketCors(client: QsClient, ref: BucketRef, config: PutBucketCorsBody, options: CallOptions = {}): Promise<WriteResult> {
  const body = putBucketCorsBodySchema.parse(config);
  const response = await client.send({
    operation: 'PutBucketCORS',
    method: 'PUT',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { cors: null },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}

/** DeleteBucketCORS — DELETE /?cors (ref §9.9) → 204. */
export async function deleteBucketCors(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'DeleteBucketCORS',
    method: 'DELETE',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { cors: null },
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}
