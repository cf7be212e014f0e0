/**
 * Validation of persisted emulator records, shared by the on-disk (disk.ts) and the IndexedDB (idb.ts)
 * persistence. Stored data is a boundary: an older version may have written it, so every record read back
 * is checked before the store sees it. Dates are epoch milliseconds in both encodings.
 */
import { z } from 'zod';
import { setEntry } from '../../src/api/metadata/header-mapping.ts';
import type { BucketInfo, BucketPolicy, ObjectBody, StandardHeaderName, StoredObject } from './types.ts';
import { STANDARD_METADATA_HEADERS } from '../../src/api/protocol/headers.ts';
// ------------------------------------------------------------------------------------------------
// Record encoding: JSON with dates as epoch milliseconds and segments as [file name, offset, length].

/** A body file name, or `m` + name for bytes kept in the inline_bodies table. */
export const segmentSchema = z.tuple([z.string().regex(/^m?[0-9a-f]{32}$/), z.number().int().min(0), z.number().int().min(1)]);
/**
 * Metadata is checked by hand, not with a zod record: zod builds its output with plain assignments, which
 * drop a `__proto__` key, and metadata keys (and policy documents) are user data that may be exactly that.
 */
export const metadataSchema = z.custom<{ standard: Record<string, string>; custom: Record<string, string> }>((value) => {
  if (typeof value !== 'object' || value === null || !('standard' in value) || !('custom' in value)) return false;
  const isStringMap = (map: unknown): boolean =>
    typeof map === 'object' && map !== null && !Array.isArray(map) && Object.values(map).every((v) => typeof v === 'string');
  return isStringMap(value.standard) && isStringMap(value.custom);
}, 'metadata must hold string maps standard and custom');
export const storageClassSchema = z.enum(['STANDARD', 'STANDARD_IA']);
const jsonValueSchema: z.ZodType<BucketPolicy[string]> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

export const bucketRecordSchema = z.object({
  name: z.string(),
  zone: z.string(),
  ownerId: z.string(),
  created: z.number(),
  status: z.enum(['active', 'suspended']),
  acl: z.array(
    z.object({
      grantee: z.union([z.object({ type: z.literal('user'), id: z.string() }), z.object({ type: z.literal('group'), name: z.literal('QS_ALL_USERS') })]),
      permission: z.enum(['READ', 'WRITE', 'FULL_CONTROL']),
    }),
  ),
  cors: z
    .object({
      cors_rules: z.array(
        z.object({
          allowed_origin: z.string(),
          allowed_methods: z.array(z.string()),
          allowed_headers: z.array(z.string()).optional(),
          expose_headers: z.array(z.string()).optional(),
          max_age_seconds: z.number().optional(),
        }),
      ),
      resp_vary: z.string().optional(),
    })
    .nullable(),
  policy: z.record(z.string(), jsonValueSchema).nullable(),
  // Absent in data written before lifecycle rules existed.
  lifecycle: z
    .object({
      rule: z.array(
        z.object({
          id: z.string(),
          status: z.enum(['enabled', 'disabled']),
          filter: z.object({ prefix: z.string().optional() }),
          expiration: z.object({ days: z.number() }).optional(),
          abort_incomplete_multipart_upload: z.object({ days_after_initiation: z.number() }).optional(),
          transition: z.object({ days: z.number().optional(), storage_class: z.enum(['STANDARD', 'STANDARD_IA']) }).optional(),
        }),
      ),
      updated: z.number(),
    })
    .nullable()
    .optional(),
});

export const objectRecordSchema = z.object({
  key: z.string(),
  segments: z.array(segmentSchema),
  size: z.number().int().min(0),
  etag: z.string().nullable(),
  created: z.number(),
  lastModified: z.number(),
  metadata: metadataSchema,
  storageClass: storageClassSchema,
  appendable: z.boolean(),
});

export const uploadRecordSchema = z.object({
  key: z.string(),
  uploadId: z.string(),
  created: z.number(),
  metadata: metadataSchema,
  storageClass: storageClassSchema,
});

export const partRecordSchema = z.object({
  partNumber: z.number().int().min(0),
  segments: z.array(segmentSchema),
  size: z.number().int().min(0),
  etag: z.string(),
  created: z.number(),
});

export function metadataOf(m: z.infer<typeof metadataSchema>): StoredMetadata {
  const custom: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.custom)) setEntry(custom, k, v);
  const standard: Partial<Record<StandardHeaderName, string>> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = m.standard[name];
    if (typeof value === 'string') standard[name] = value;
  }
  return { standard: { ...standard, 'content-type': m.standard['content-type'] ?? 'application/octet-stream' }, custom };
}

export function isPolicy(value: unknown): value is BucketPolicy {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type StoredMetadata = StoredObject['metadata'];

/** A persisted bucket record as the store's BucketInfo. The policy is the stored JSON itself (ref §9.8), not zod's copy of it. */
export function bucketInfoOf(raw: unknown): BucketInfo {
  const b = bucketRecordSchema.parse(raw);
  const rawPolicy = typeof raw === 'object' && raw !== null && 'policy' in raw ? raw.policy : null;
  return { ...b, created: new Date(b.created), policy: isPolicy(rawPolicy) ? rawPolicy : null, lifecycle: b.lifecycle ?? null };
}

/** A persisted object record (either journal's: they differ only in how the body is kept) with its body. */
export function storedObjectOf(o: Omit<z.infer<typeof objectRecordSchema>, 'segments'>, body: ObjectBody): StoredObject {
  const metadata = metadataOf(o.metadata);
  return {
    key: o.key,
    body,
    size: o.size,
    etag: o.etag,
    created: new Date(o.created),
    lastModified: new Date(o.lastModified),
    contentType: metadata.standard['content-type'],
    metadata,
    storageClass: o.storageClass,
    appendable: o.appendable,
  };
}
