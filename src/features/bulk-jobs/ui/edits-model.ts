/**
 * The bulk-edit form: per standard header keep / set / remove, and a list of custom key operations.
 * Validation uses the shared rules (ref §6) on what would actually be sent; the per-object total can only
 * be checked per object, at run time (replaceRequestHeaders refuses it with a rule id).
 */
import { z } from 'zod';
import type { CustomMetadataEdit, MetadataEdits } from '../../../api/metadata/edit.ts';
import { isValidMetadataKeyCharset, metadataKeyBytes } from '../../../api/metadata/rules.ts';
import { customMetadataEntriesSchema, metadataRuleOfIssue, standardMetadataSchema } from '../../../api/metadata/schemas.ts';
import type { MetadataRule } from '../../../api/metadata/types.ts';
import { STANDARD_METADATA_HEADERS, type StandardHeader } from '../../../api/protocol/headers.ts';
import { METADATA_KEY_MAX_BYTES } from '../../../api/protocol/limits.ts';
import { effectiveEncoding, encodeAs, type RowEncoding } from '../../../components/metadata-form/form-model.ts';

export type StandardChoice = 'keep' | 'set' | 'remove';

export interface BulkStandardField {
  choice: StandardChoice;
  value: string;
}

export interface BulkCustomOp {
  op: 'set' | 'remove';
  key: string;
  text: string;
  encoding: RowEncoding;
  /** As in the editor: the suggested encoding until the user picks one. */
  autoEncoding: boolean;
}

export interface BulkValues {
  standard: Record<StandardHeader, BulkStandardField>;
  custom: BulkCustomOp[];
}

export function emptyBulkValues(): BulkValues {
  const keep = (): BulkStandardField => ({ choice: 'keep', value: '' });
  return {
    standard: { 'cache-control': keep(), 'content-disposition': keep(), 'content-encoding': keep(), 'content-type': keep(), expires: keep() },
    custom: [],
  };
}

/** What a set operation stores: the same verdict as the editor gives the same text. */
export function bulkStoredValue(op: BulkCustomOp): string {
  return encodeAs(op.text, effectiveEncoding(op.text, op.encoding, op.autoEncoding));
}

export interface BulkIssue {
  path: string;
  rule: MetadataRule;
}

export function bulkIssues(values: BulkValues): BulkIssue[] {
  const issues: BulkIssue[] = [];
  const standard: Partial<Record<StandardHeader, string>> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    if (values.standard[name].choice === 'set') standard[name] = values.standard[name].value;
  }
  const std = standardMetadataSchema.safeParse(standard);
  if (!std.success) {
    for (const issue of std.error.issues) {
      const rule = metadataRuleOfIssue(issue);
      if (rule && typeof issue.path[0] === 'string') issues.push({ path: `standard.${issue.path[0]}.value`, rule });
    }
  }
  // Set operations are validated as rows of a form (charset, length, printable, duplicates); the total is
  // per object and checked when each object is merged.
  const sets = values.custom.map((op, index) => ({ op, index })).filter(({ op }) => op.op === 'set');
  const parsed = customMetadataEntriesSchema.safeParse(sets.map(({ op }) => ({ key: op.key, value: bulkStoredValue(op) })));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const rule = metadataRuleOfIssue(issue);
      const [position, field] = issue.path;
      const index = typeof position === 'number' ? sets[position]?.index : undefined;
      if (rule && rule !== 'total_too_large' && index !== undefined) {
        issues.push({ path: `custom.${index}.${field === 'value' ? 'text' : 'key'}`, rule });
      }
    }
  }
  values.custom.forEach((op, index) => {
    if (op.op !== 'remove') return;
    if (op.key === '') issues.push({ path: `custom.${index}.key`, rule: 'key_empty' });
    else if (!isValidMetadataKeyCharset(op.key)) issues.push({ path: `custom.${index}.key`, rule: 'key_charset' });
    else if (metadataKeyBytes(op.key) > METADATA_KEY_MAX_BYTES) issues.push({ path: `custom.${index}.key`, rule: 'key_too_long' });
  });
  return issues;
}

const encodingSchema = z.enum(['percent', 'rfc2047-b', 'rfc2047-q', 'plain']);
const standardFieldSchema = z.object({ choice: z.enum(['keep', 'set', 'remove']), value: z.string() });

export const bulkSchema = z
  .object({
    standard: z.object({
      'cache-control': standardFieldSchema,
      'content-disposition': standardFieldSchema,
      'content-encoding': standardFieldSchema,
      'content-type': standardFieldSchema,
      expires: standardFieldSchema,
    }),
    custom: z.array(z.object({ op: z.enum(['set', 'remove']), key: z.string(), text: z.string(), encoding: encodingSchema, autoEncoding: z.boolean() })),
  })
  .superRefine((values, ctx) => {
    for (const issue of bulkIssues(values)) {
      ctx.addIssue({ code: 'custom', message: issue.rule, path: issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
    }
  });

export function bulkEditsFromValues(values: BulkValues): MetadataEdits {
  const standard: NonNullable<MetadataEdits['standard']> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const field = values.standard[name];
    if (field.choice === 'set') standard[name] = field.value;
    else if (field.choice === 'remove') standard[name] = null;
  }
  const custom: CustomMetadataEdit[] = values.custom.map((op) =>
    op.op === 'set' ? { op: 'set', key: op.key, value: bulkStoredValue(op) } : { op: 'remove', key: op.key },
  );
  return { standard, custom };
}
