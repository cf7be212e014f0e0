import { z } from 'zod';
import { MAX_LIST_PARTS_LIMIT, MAX_LIST_UPLOADS_LIMIT, MAX_PART_NUMBER } from '../protocol/limits.ts';

/** Multipart upload wire schemas (ref §8), snake_case as on the wire. */

export { MAX_LIST_PARTS_LIMIT, MAX_LIST_UPLOADS_LIMIT, MAX_PART_NUMBER };

/** Part numbers are integers 0..MAX_PART_NUMBER (ref §8). */
export const partNumberSchema = z.int().min(0).max(MAX_PART_NUMBER);

/** POST /<key>?uploads (ref §8.1). */
export const initiateMultipartUploadSchema = z.object({
  upload_id: z.string().min(1),
  bucket: z.string().optional(),
  key: z.string().optional(),
});
export type InitiateMultipartUploadResult = z.infer<typeof initiateMultipartUploadSchema>;

/** One part (SPEC definitions.object_part). DOCS show part ETags unquoted (ref §8.4). */
export const objectPartSchema = z.object({
  part_number: z.int().nonnegative(),
  size: z.int().nonnegative().optional(),
  etag: z.string().optional(),
  created: z.string().optional(),
});
export type ObjectPart = z.infer<typeof objectPartSchema>;

/**
 * GET /<key>?upload_id (ref §8.4). No `has_more`/marker in the response: page with the last
 * part_number as `part_number_marker` until fewer than `limit` parts return. `count` = parts of the
 * whole upload (inferred).
 */
export const listMultipartSchema = z.object({
  count: z.int().nonnegative().optional(),
  object_parts: z.array(objectPartSchema).default([]),
});
export type ListMultipartResult = z.infer<typeof listMultipartSchema>;

/** POST /<key>?upload_id body (ref §8.5): ascending part numbers, etag per part optional. */
export const completeMultipartUploadBodySchema = z.object({
  object_parts: z.array(z.object({ part_number: partNumberSchema, etag: z.string().optional() })),
});
export type CompleteMultipartUploadBody = z.infer<typeof completeMultipartUploadBodySchema>;

export const uploadEntrySchema = z.object({
  key: z.string(),
  upload_id: z.string(),
  created: z.string().optional(),
});
export type UploadEntry = z.infer<typeof uploadEntrySchema>;

/**
 * GET /?uploads (ref §8.7). SPEC/GO name the key marker echo `marker`, the DOCS example
 * `key_marker` + `upload_id_marker`; the emulator returns all three (ref §12).
 */
export const listMultipartUploadsSchema = z.object({
  name: z.string().optional(),
  prefix: z.string().default(''),
  delimiter: z.string().default(''),
  limit: z.int().nonnegative().optional(),
  marker: z.string().optional(),
  key_marker: z.string().optional(),
  upload_id_marker: z.string().optional(),
  next_key_marker: z.string().default(''),
  next_upload_id_marker: z.string().default(''),
  /** SPEC only; absent in the DOCS example, hence optional (see uploadsHaveMore). */
  has_more: z.boolean().optional(),
  uploads: z.array(uploadEntrySchema).default([]),
  common_prefixes: z.array(z.string()).default([]),
});
export type ListMultipartUploadsResult = z.infer<typeof listMultipartUploadsSchema>;
