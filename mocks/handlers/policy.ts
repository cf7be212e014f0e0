/**
 * Bucket policy get/put/delete (ref §9.8, owner only; 200/200/204). The document is validated for shape
 * (statement ids unique and ≤ 100 chars, effect allow/deny, user/action/resource string or list) and stored
 * and returned verbatim.
 */
import { z } from 'zod';
import { QsError } from '../errors.ts';
import { emptyResponse, jsonResponse } from '../http/response.ts';
import type { BucketPolicy, JsonValue } from '../store/index.ts';
import { parseJsonValue, readJsonBody, requireBucket, type RequestContext } from './context.ts';

const stringOrList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const statementSchema = z.looseObject({
  id: z.string().min(1).max(100),
  user: stringOrList,
  action: stringOrList,
  effect: z.string().refine((e) => ['allow', 'deny'].includes(e.toLowerCase()), 'effect must be allow or deny'),
  resource: stringOrList.optional(),
  condition: z.record(z.string(), z.unknown()).optional(),
});

export const putPolicySchema = z.looseObject({ statement: z.array(statementSchema) });

function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getBucketPolicy(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'get_bucket_policy');
  return jsonResponse(200, bucket.policy ?? { statement: [] });
}

export async function putBucketPolicy(ctx: RequestContext, name: string): Promise<Response> {
  requireBucket(ctx, name, 'put_bucket_policy');
  const text = new TextDecoder().decode(await readJsonBody(ctx.request));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new QsError('invalid_json');
  }
  const parsed = parseJsonValue(json, putPolicySchema);
  const ids = parsed.statement.map((s) => s.id);
  if (new Set(ids).size !== ids.length) throw new QsError('invalid_request', 'Statement ids must be unique.');
  // Stored verbatim (ref §9.8): the validated JSON text itself, not the zod output.
  if (!isJsonObject(json)) throw new QsError('invalid_request');
  const policy: BucketPolicy = json;
  ctx.store.putBucketPolicy(name, policy);
  return emptyResponse(200);
}

export function deleteBucketPolicy(ctx: RequestContext, name: string): Response {
  requireBucket(ctx, name, 'delete_bucket_policy');
  ctx.store.deleteBucketPolicy(name);
  return emptyResponse(204);
}
