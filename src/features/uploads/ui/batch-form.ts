import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  STANDARD_METADATA_HEADERS,
  customMetadataEntriesSchema,
  customMetadataFromEntries,
  metadataRuleOfIssue,
  standardMetadataSchema,
  type CustomMetadataEntry,
  type MetadataRule,
  type ObjectMetadata,
  type StandardHeader,
} from '../../../api/metadata/model.ts';

/**
 * The upload panel's batch form: target prefix, the five storable standard headers and custom metadata
 * rows, validated by the shared metadata schemas (ref §6) so the console and the emulator agree.
 * Empty header fields mean "not set"; a row with neither key nor value is ignored.
 */
export interface BatchFormValues {
  prefix: string;
  standard: Record<StandardHeader, string>;
  custom: CustomMetadataEntry[];
}

export function emptyBatchForm(prefix: string): BatchFormValues {
  return {
    prefix,
    standard: { 'cache-control': '', 'content-disposition': '', 'content-encoding': '', 'content-type': '', expires: '' },
    custom: [],
  };
}

function standardField(header: StandardHeader) {
  return z
    .string()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(standardMetadataSchema.shape[header]);
}

export const batchFormSchema = z.object({
  // ref §7/§1.3: a key must not start with '/', so neither may the prefix in front of it.
  prefix: z.string().refine((prefix) => !prefix.startsWith('/'), { params: { rule: 'prefix_leading_slash' } }),
  standard: z.object({
    'cache-control': standardField('cache-control'),
    'content-disposition': standardField('content-disposition'),
    'content-encoding': standardField('content-encoding'),
    'content-type': standardField('content-type'),
    expires: standardField('expires'),
  }),
  custom: z.array(z.object({ key: z.string(), value: z.string() })).transform((rows) => rows.filter((row) => row.key !== '' || row.value !== '')).pipe(customMetadataEntriesSchema),
});

export type BatchRule = MetadataRule | 'prefix_leading_slash';

export function batchMetadata(values: z.output<typeof batchFormSchema>): ObjectMetadata {
  const standard: ObjectMetadata['standard'] = {};
  for (const header of STANDARD_METADATA_HEADERS) {
    const value = values.standard[header];
    if (value !== undefined) standard[header] = value;
  }
  return { standard, custom: customMetadataFromEntries(values.custom) };
}

function isStandardHeader(value: unknown): value is StandardHeader {
  return typeof value === 'string' && (STANDARD_METADATA_HEADERS as readonly string[]).includes(value);
}

/**
 * A resolver that keeps the metadata rule id as the error `type`, so the panel shows the rule in the
 * user's language (zodResolver would only keep zod's generic issue code). Blank custom rows are dropped
 * before the rules run, so issue indexes are mapped back to the rows the user sees.
 */
export const batchFormResolver: Resolver<BatchFormValues> = async (values) => {
  const rows = values.custom.flatMap((row, index) => (row.key !== '' || row.value !== '' ? [index] : []));
  const parsed = batchFormSchema.safeParse(values);
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<BatchFormValues> = {};
  for (const issue of parsed.error.issues) {
    const [area, field, part] = issue.path;
    const rule = metadataRuleOfIssue(issue) ?? (area === 'prefix' ? 'prefix_leading_slash' : issue.code);
    const error = { type: rule, message: issue.message };
    if (area === 'prefix') errors.prefix ??= error;
    else if (area === 'standard' && isStandardHeader(field)) {
      errors.standard ??= {};
      errors.standard[field] ??= error;
    } else if (area === 'custom' && typeof field === 'number' && (part === 'key' || part === 'value')) {
      const index = rows[field] ?? field;
      const custom = (errors.custom ??= []);
      const rowErrors = (custom[index] ??= {});
      rowErrors[part] ??= error;
    } else if (area === 'custom') {
      errors.custom ??= [];
      errors.custom.root ??= error;
    }
  }
  return { values: {}, errors };
};
