import { getBucketSubresource } from '../bucket-subresource.ts';
import type { BucketRef, CallOptions, QsClient } from '../client.ts';
import { bucketPolicySchema, type BucketPolicy } from './schemas.ts';

const POLICY = { name: 'policy', get: 'GetBucketPolicy' } as const;

/** GetBucketPolicy — GET /?policy (ref §9.8), owner only; a bucket without a policy has no statements. */
export function getBucketPolicy(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketPolicy> {
  return getBucketSubresource(client, ref, POLICY, bucketPolicySchema, options);
}
