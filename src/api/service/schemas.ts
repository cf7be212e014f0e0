import { z } from 'zod';

/** Wire schemas of the service level (ref §1.1, §9.1), snake_case as on the wire. */

/** One bucket of ListBuckets (SPEC definitions.bucket). */
export const bucketSchema = z.object({
  name: z.string(),
  location: z.string(),
  url: z.string().optional(),
  /** ISO 8601 (ref §3: ListBuckets prints seconds without milliseconds). */
  created: z.string().optional(),
});
export type Bucket = z.infer<typeof bucketSchema>;

/** GET / (ref §9.1). `count` is the total number of matching buckets (inferred), buckets one page. */
export const listBucketsSchema = z.object({
  count: z.int().nonnegative(),
  buckets: z.array(bucketSchema).default([]),
});
export type ListBucketsResult = z.infer<typeof listBucketsSchema>;

/** GET /?location on the global host (ref §1.1; not in SPEC). */
export const locationSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  endpoint: z.string().optional(),
});
export const locationsSchema = z.object({
  locations: z.array(locationSchema).default([]),
});
export type LocationsResult = z.infer<typeof locationsSchema>;
