/**
 * What the journal reads back is checked, not trusted: another version of the console, or a damaged
 * database, may have written it. A job record that does not parse is left out of the list; an item that
 * does not parse counts as never settled (the object is looked at again).
 */
import { z } from 'zod';
import { STANDARD_METADATA_HEADERS } from '../../../api/protocol/headers.ts';
import type { ItemRecord, JobRecord } from './types.ts';

const standardSchema = z.partialRecord(z.enum(STANDARD_METADATA_HEADERS), z.string());

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

// Checked and passed through as read, not rebuilt by zod's record (which drops a `__proto__` key): custom
// keys such as `__proto__` and `constructor` are entries like any other (ref §6 allows them).
const customSchema = z.custom<Record<string, string>>(isStringRecord);
const metadataSchema = z.object({ standard: standardSchema, custom: customSchema });

const customEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('set'), key: z.string(), value: z.string() }),
  z.object({ op: z.literal('remove'), key: z.string() }),
  z.object({ op: z.literal('rename'), from: z.string(), to: z.string() }),
]);

const editsSchema = z.object({
  standard: z.partialRecord(z.enum(STANDARD_METADATA_HEADERS), z.string().nullable()).optional(),
  custom: z.array(customEditSchema).optional(),
});

const scopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('keys'), base: z.string(), keys: z.array(z.string().min(1)) }),
  z.object({ kind: z.literal('prefix'), prefix: z.string().min(1) }),
  z.object({ kind: z.literal('bucket') }),
]);

const operationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('edit'), edits: editsSchema }),
  z.object({ kind: z.literal('delete') }),
  z.object({
    kind: z.enum(['copy', 'move']),
    destination: z.object({ bucket: z.string().min(1), prefix: z.string() }),
    overwrite: z.enum(['skip', 'replace']),
  }),
  z.object({ kind: z.literal('undo'), of: z.string().min(1) }),
]);

const countsSchema = z.object({ changed: z.int().nonnegative(), unchanged: z.int().nonnegative(), skipped: z.int().nonnegative(), failed: z.int().nonnegative() });

export const jobRecordSchema = z.object({
  id: z.string().min(1),
  connection: z.string(),
  zone: z.string(),
  bucket: z.string().min(1),
  scope: scopeSchema,
  operation: operationSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  status: z.enum(['running', 'paused', 'cancelled', 'finished', 'failed']),
  pass: z.enum(['main', 'retry']),
  cursor: z.string().nullable(),
  total: z.int().nonnegative().nullable(),
  retryTotal: z.int().nonnegative().nullable(),
  counts: countsSchema,
  fatal: z.object({ code: z.string(), message: z.string() }).nullable(),
});

const versionSchema = z.object({ etag: z.string().optional(), lastModified: z.string().optional(), size: z.number(), metadata: metadataSchema });

export const itemRecordSchema = z.object({
  job: z.string(),
  key: z.string(),
  state: z.enum(['intent', 'changed', 'unchanged', 'skipped', 'failed']),
  before: versionSchema.optional(),
  after: z.object({ etag: z.string().optional(), lastModified: z.string().optional() }).optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  requestId: z.string().optional(),
  uncertain: z.boolean().optional(),
  rule: z.object({ rule: z.string(), bytes: z.number().optional(), limit: z.number().optional() }).optional(),
});

/** zod leaves out optional keys that were absent, and the result is structurally an ItemRecord. */
export function parseItem(value: unknown): ItemRecord | undefined {
  const parsed = itemRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function parseJob(value: unknown): JobRecord | undefined {
  const parsed = jobRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
