import { deleteBucketSubresource, getBucketSubresource, putBucketSubresource } from '../bucket-subresource.ts';
import type { BucketRef, CallOptions, QsClient, WriteResult } from '../client.ts';
import { bucketCorsSchema, putBucketCorsBodySchema, type BucketCors, type PutBucketCorsBody } from './schemas.ts';

const CORS = { name: 'cors', get: 'GetBucketCORS', put: 'PutBucketCORS', delete: 'DeleteBucketCORS' } as const;

/** GetBucketCORS — GET /?cors (ref §9.9), owner only; no configuration ⇒ empty rule list. */
export function getBucketCors(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketCors> {
  return getBucketSubresource(client, ref, CORS, bucketCorsSchema, options);
}

/** PutBucketCORS — PUT /?cors (ref §9.9) → 200; replaces the whole configuration. */
export async function putBucketCors(client: QsClient, ref: BucketRef, config: PutBucketCorsBody, options: CallOptions = {}): Promise<WriteResult> {
  return putBucketSubresource(client, ref, CORS, putBucketCorsBodySchema.parse(config), options);
}

/** DeleteBucketCORS — DELETE /?cors (ref §9.9) → 204. */
export async function deleteBucketCors(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  return deleteBucketSubresource(client, ref, CORS, options);
}
