import type { BucketRef, CallOptions, QsClient } from '../client.ts';
import { bucketPolicySchema, type BucketPolicy } from './schemas.ts';

/** GetBucketPolicy — GET /?policy (ref §9.8), owner only; a bucket without a policy has no statements. */
export function getBucketPolicy(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketPolicy> {
  return client.json(bucketPolicySchema, {
    operation: 'GetBucketPolicy',
    method: 'GET',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { policy: null },
    signal: options.signal,
  });
}
