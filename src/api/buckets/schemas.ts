import { z } from 'zod';

/** Wire schemas of bucket-level resources (ref §9), snake_case as on the wire. */

export const ownerSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
});

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
