import { z } from 'zod';

/**
 * GET /?policy (ref §9.8): `{ statement: [...] }`. The console only shows a policy, so statements are
 * kept as they came (any JSON), not reshaped.
 */
export const bucketPolicySchema = z.looseObject({
  statement: z.array(z.unknown()).default([]),
});
export type BucketPolicy = z.infer<typeof bucketPolicySchema>;
