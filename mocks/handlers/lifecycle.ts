/**
 * Bucket lifecycle get/put/delete (ref §9.10, owner only; 200/200/204). PUT replaces every rule; each rule
 * names a prefix filter and exactly one action, and no two rules share a prefix and an action. The rules are
 * applied on the store's clock by `applyLifecycle` (mocks/store/lifecycle.ts).
 */
import { z } from 'zod';
import { QsError } from '../errors.ts';
import { emptyResponse, jsonResponse } from '../http/response.ts';
import type { LifecycleRule } from '../store/index.ts';
import { MAX_LIFECYCLE_RULES } from '../../src/api/protocol/limits.ts';
import { optionalField, readJson, requireBucket, type RequestContext } from './context.ts';

const ACTIONS = ['expiration', 'abort_incomplete_multipart_upload', 'transition'] as const;

const days = z.number().int().min(1).max(36_500);

const ruleSchema = z.object({
  id: z.string().min(1).max(255),
  status: z.enum(['enabled', 'disabled']),
  filter: z.object({ prefix: optionalField(z.string().max(1024)) }),
  expiration: optionalField(z.object({ days })),
  abort_incomplete_multipart_upload: optionalField(z.object({ days_after_initiation: days })),
  transition: optionalField(z.object({ days: optionalField(z.number().int().min(0).max(36_500)), storage_class: z.enum(['STANDARD', 'STANDARD_IA']) })),
});

export const putLifecycleSchema = z.object({ rule: z.array(ruleSchema).max(MAX_LIFECYCLE_RULES) });

export function getBucketLifecycle(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'get_bucket_lifecycle');
  // ref §9.10 (inferred, as for CORS and policy): no rules ⇒ an empty list, not an error.
  return jsonResponse(200, { rule: bucket.lifecycle?.rule ?? [] });
}

export async function putBucketLifecycle(ctx: RequestContext, name: string): Promise<Response> {
  requireBucket(ctx, name, 'put_bucket_lifecycle');
  const input = await readJson(ctx.request, putLifecycleSchema);
  const ids = new Set<string>();
  const targets = new Set<string>();
  const rules: LifecycleRule[] = [];
  for (const [index, r] of input.rule.entries()) {
    const actions = ACTIONS.filter((action) => r[action] !== undefined);
    if (actions.length !== 1) {
      throw new QsError('invalid_request', `Rule ${index} (${r.id}) must have exactly one of ${ACTIONS.join(', ')}.`);
    }
    if (ids.has(r.id)) throw new QsError('invalid_request', `Rule ids must be unique; "${r.id}" is repeated.`);
    ids.add(r.id);
    const prefix = r.filter.prefix ?? '';
    const target = `${actions[0]}\u0000${prefix}`;
    if (targets.has(target)) throw new QsError('invalid_request', `Two rules apply ${actions[0]} to the prefix "${prefix}".`);
    targets.add(target);
    rules.push({
      id: r.id,
      status: r.status,
      filter: r.filter.prefix !== undefined ? { prefix: r.filter.prefix } : {},
      ...(r.expiration ? { expiration: { days: r.expiration.days } } : {}),
      ...(r.abort_incomplete_multipart_upload ? { abort_incomplete_multipart_upload: { days_after_initiation: r.abort_incomplete_multipart_upload.days_after_initiation } } : {}),
      ...(r.transition ? { transition: { storage_class: r.transition.storage_class, ...(r.transition.days !== undefined ? { days: r.transition.days } : {}) } } : {}),
    });
  }
  ctx.store.putBucketLifecycle(name, rules);
  return emptyResponse(200);
}

export function deleteBucketLifecycle(ctx: RequestContext, name: string): Response {
  requireBucket(ctx, name, 'delete_bucket_lifecycle');
  ctx.store.deleteBucketLifecycle(name);
  return emptyResponse(204);
}
