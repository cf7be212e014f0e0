import { z } from 'zod';

/** Wire schemas of bucket-level resources (ref §9), snake_case as on the wire. */

export const ownerSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
});
export type Owner = z.infer<typeof ownerSchema>;

/** Bucket names (ref §1.3): 6–63 chars of [a-z0-9-], starting and ending with a letter or digit, not an IP. */
export const bucketNameSchema = z
  .string()
  .min(6, 'Bucket names have at least 6 characters')
  .max(63, 'Bucket names have at most 63 characters')
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, 'Use lower-case letters, digits and "-"; start and end with a letter or digit')
  .refine((name) => !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(name), 'A bucket name must not be an IP address');

/** Per storage class usage (ref §9.6; DOCS only, not in SPEC). */
export const storageClassUsageSchema = z.object({
  count: z.int().nonnegative(),
  size: z.int().nonnegative(),
  billing_size: z.int().nonnegative().optional(),
});

/** GET /?stats (ref §9.6). `status` is `active` or `suspended` (SPEC enum); kept open for display. */
export const bucketStatisticsSchema = z.object({
  count: z.int().nonnegative(),
  size: z.int().nonnegative(),
  location: z.string().optional(),
  name: z.string().optional(),
  url: z.string().optional(),
  status: z.string().optional(),
  created: z.string().optional(),
  storage_classes: z.record(z.string(), storageClassUsageSchema).optional(),
});
export type BucketStatistics = z.infer<typeof bucketStatisticsSchema>;
