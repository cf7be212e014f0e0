import { z } from 'zod';

/**
 * GET /?lifecycle (ref §9.10): `{ rule: [...] }`. Rules are kept loose: a write sends back every rule the
 * console did not mean to change exactly as it came, including fields this console does not know.
 */
export const lifecycleRuleSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  filter: z.looseObject({ prefix: z.string().optional() }).optional(),
  abort_incomplete_multipart_upload: z.looseObject({ days_after_initiation: z.number() }).optional(),
  expiration: z.looseObject({ days: z.number().optional() }).optional(),
});
export type LifecycleRule = z.infer<typeof lifecycleRuleSchema>;

export const bucketLifecycleSchema = z.looseObject({
  rule: z.array(lifecycleRuleSchema).default([]),
});
export type BucketLifecycle = z.infer<typeof bucketLifecycleSchema>;

export { MAX_LIFECYCLE_RULES } from '../protocol/limits.ts';
