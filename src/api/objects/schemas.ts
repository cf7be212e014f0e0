import { z } from 'zod';
import { ownerSchema } from '../buckets/schemas.ts';
import { MAX_DELETE_OBJECTS } from '../protocol/limits.ts';

/** Wire schemas of object listing and object headers (ref §5, §9.5), snake_case as on the wire. */

export const STORAGE_CLASSES = ['STANDARD', 'STANDARD_IA'] as const;
export const storageClassSchema = z.enum(STORAGE_CLASSES);
export type StorageClass = z.infer<typeof storageClassSchema>;

/**
 * One entry of ListObjects `keys` (SPEC definitions.key). `etag` keeps its double quotes inside the
 * JSON string (ref §9.5) and is absent for multipart objects completed without an ETag header
 * (ref §8.5). `modified` is Unix seconds, `created` ISO 8601.
 */
export const objectEntrySchema = z.object({
  key: z.string(),
  size: z.int().nonnegative(),
  etag: z.string().optional(),
  mime_type: z.string().optional(),
  created: z.string().optional(),
  modified: z.int().optional(),
  encrypted: z.boolean().optional(),
  storage_class: z.string().optional(),
});

/**
 * GET bucket (ref §9.5). Keys and common prefixes share `limit`; `next_marker` is the last item of the
 * page; keep paging while `has_more`.
 */
export const listObjectsSchema = z.object({
  name: z.string(),
  owner: ownerSchema.optional(),
  prefix: z.string().default(''),
  delimiter: z.string().default(''),
  limit: z.int().nonnegative().optional(),
  marker: z.string().default(''),
  next_marker: z.string().default(''),
  has_more: z.boolean().default(false),
  keys: z.array(objectEntrySchema).default([]),
  common_prefixes: z.array(z.string()).default([]),
});
export type ListObjectsResult = z.infer<typeof listObjectsSchema>;

/** POST /?delete body (ref §5.9): plain UTF-8 keys, at most MAX_DELETE_OBJECTS. */
export { MAX_DELETE_OBJECTS };
export const deleteMultipleObjectsBodySchema = z.object({
  quiet: z.boolean().optional(),
  objects: z.array(z.object({ key: z.string().min(1) })).min(1).max(MAX_DELETE_OBJECTS),
});
export type DeleteMultipleObjectsBody = z.infer<typeof deleteMultipleObjectsBodySchema>;

export const deleteErrorSchema = z.object({
  key: z.string(),
  code: z.string(),
  message: z.string().optional(),
});
export type DeleteError = z.infer<typeof deleteErrorSchema>;

/** POST /?delete response; `quiet: true` ⇒ `deleted` omitted (ref §5.9). */
export const deleteMultipleObjectsResultSchema = z.object({
  deleted: z.array(objectEntrySchema.partial({ size: true })).default([]),
  errors: z.array(deleteErrorSchema).default([]),
});
export type DeleteMultipleObjectsResult = z.infer<typeof deleteMultipleObjectsResultSchema>;

const digits = z.string().regex(/^\d+$/, 'expected a non-negative integer').transform(Number);
const httpDateString = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'expected an HTTP date');

/**
 * HeadObject/GetObject response headers (ref §5.4, §5.5; SPEC object.json head 200), keyed by the
 * lower-case header names fetch exposes. Metadata headers (`x-qs-meta-*` and the five storable
 * standard headers) are read separately by metadataFromHeaders; they are listed here only to type the
 * raw values. Unknown headers are ignored.
 */
export const objectHeadersSchema = z.object({
  'content-length': digits.optional(),
  'content-type': z.string().optional(),
  'content-range': z.string().optional(),
  'content-language': z.string().optional(),
  'content-encoding': z.string().optional(),
  'content-disposition': z.string().optional(),
  'cache-control': z.string().optional(),
  expires: z.string().optional(),
  etag: z.string().optional(),
  'last-modified': httpDateString.optional(),
  'x-qs-storage-class': z.string().optional(),
  'x-qs-object-type': z.string().optional(),
  'x-qs-next-append-position': digits.optional(),
  'x-qs-encryption-customer-algorithm': z.string().optional(),
  'x-qs-version-id': z.string().optional(),
  'x-qs-delete-marker': z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  'x-qs-request-id': z.string().optional(),
});
