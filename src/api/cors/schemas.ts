import { z } from 'zod';

/** Bucket CORS (ref §9.9), snake_case as on the wire. */

/** SPEC enumerates the five methods; DOCS also allow `*` (ref §9.9). */
export const CORS_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', '*'] as const;

export const corsRuleSchema = z.object({
  allowed_origin: z.string().min(1),
  allowed_methods: z.array(z.enum(CORS_METHODS)).min(1),
  allowed_headers: z.array(z.string()).optional(),
  expose_headers: z.array(z.string()).optional(),
  max_age_seconds: z.int().nonnegative().optional(),
});
export type CorsRule = z.infer<typeof corsRuleSchema>;

/** `enabled`/`disabled`, case-insensitive; DOCS examples write `enable` (ref §9.9). Kept verbatim. */
export const respVarySchema = z.string();

/** GET /?cors: no configuration ⇒ `{"cors_rules": []}` (ref §9.9, inferred). */
export const bucketCorsSchema = z.object({
  cors_rules: z.array(corsRuleSchema).default([]),
  resp_vary: respVarySchema.optional(),
});
export type BucketCors = z.infer<typeof bucketCorsSchema>;

/** PUT /?cors body (SPEC: `cors_rules` required). */
export const putBucketCorsBodySchema = z.object({
  cors_rules: z.array(corsRuleSchema),
  resp_vary: respVarySchema.optional(),
});
export type PutBucketCorsBody = z.infer<typeof putBucketCorsBodySchema>;
