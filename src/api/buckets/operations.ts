import { requestIdOf, type BucketRef, type CallOptions, type QsClient, type WriteResult } from '../client.ts';
import { bucketStatisticsSchema, type BucketStatistics } from './schemas.ts';

/** HeadBucket — HEAD bucket (ref §9.4): resolves when the bucket exists and is accessible. */
export async function headBucket(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({ operation: 'HeadBucket', method: 'HEAD', zone: ref.zone, bucket: ref.bucket, signal: options.signal });
  return { requestId: requestIdOf(response) };
}

/** PutBucket — PUT bucket (ref §9.2) → 201; the bucket is created in the zone of the host. */
export async function putBucket(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({ operation: 'PutBucket', method: 'PUT', zone: ref.zone, bucket: ref.bucket, signal: options.signal });
  return { requestId: requestIdOf(response) };
}

/** DeleteBucket — DELETE bucket (ref §9.3) → 204; must be empty (`bucket_not_empty`). */
export async function deleteBucket(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({ operation: 'DeleteBucket', method: 'DELETE', zone: ref.zone, bucket: ref.bucket, signal: options.signal });
  return { requestId: requestIdOf(response) };
}

/** GetBucketStatistics — GET /?stats (ref §9.6), owner only. */
export function getBucketStatistics(client: QsClient, ref: BucketRef, options: CallOptions = {}): Promise<BucketStatistics> {
  return client.json(bucketStatisticsSchema, {
    operation: 'GetBucketStatistics',
    method: 'GET',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { stats: null },
    signal: options.signal,
  });
}
