import type { z } from 'zod';
import { requestIdOf, type BucketRef, type CallOptions, type QsClient, type WriteResult } from './client.ts';

/**
 * A bucket configuration kept as a sub-resource, `/<bucket>?<name>` (ACL ref §9.7, policy §9.8, CORS §9.9,
 * lifecycle §9.10): read with GET, replaced whole with a JSON PUT, removed with DELETE. The operations of
 * each area (acl/, policy/, cors/, lifecycle/) name theirs and send through these three.
 */
export interface BucketSubresource {
  /** The query parameter naming it: `acl`, `policy`, `cors`, `lifecycle`. */
  name: string;
  /** QingStor's operation names, for errors (GetBucketCORS, PutBucketCORS…); a policy is only read here. */
  get: string;
  put?: string;
  delete?: string;
}

export function getBucketSubresource<S extends z.ZodType>(client: QsClient, ref: BucketRef, resource: BucketSubresource, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
  return client.json(schema, { operation: resource.get, method: 'GET', zone: ref.zone, bucket: ref.bucket, query: { [resource.name]: null }, signal: options.signal });
}

/** Replaces the whole configuration with `body` (sent as JSON) → 200. */
export async function putBucketSubresource(client: QsClient, ref: BucketRef, resource: BucketSubresource & { put: string }, body: unknown, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: resource.put,
    method: 'PUT',
    zone: ref.zone,
    bucket: ref.bucket,
    query: { [resource.name]: null },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}

/** Removes the configuration → 204. */
export async function deleteBucketSubresource(client: QsClient, ref: BucketRef, resource: BucketSubresource & { delete: string }, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({ operation: resource.delete, method: 'DELETE', zone: ref.zone, bucket: ref.bucket, query: { [resource.name]: null }, signal: options.signal });
  return { requestId: requestIdOf(response) };
}
