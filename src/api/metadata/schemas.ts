/** The metadata model as zod schemas (forms and request validation), built on the rules of rules.ts. */
import { z } from 'zod';
import { cacheControlProblem, contentDispositionProblem, contentEncodingProblem, contentTypeProblem } from './header-grammar.ts';
import type { StandardHeader } from '../protocol/headers.ts';
import { parseHttpDate } from '../protocol/http-date.ts';
import type { MetadataRule, MetadataViolation } from './types.ts';
import {
  customValueSendViolation,
  entryViolations,
  hasSurroundingWhitespace,
  isPrintableAscii,
  listCustomMetadataViolations,
  metadataEntryBytes,
  surroundingWhitespaceViolation,
  totalViolation,
} from './rules.ts';
import { normalizeCustomMetadata } from './header-mapping.ts';

// ---------------------------------------------------------------------------------------------------
// zod 4 schemas — built on the same functions as checkCustomMetadata, so they can never disagree.
// Each issue carries `params: { rule, code, key?, bytes?, limit? }`.

type IssueSink = {
  addIssue(issue: { code: 'custom'; message: string; path?: PropertyKey[]; params?: Record<string, unknown> }): void;
};

function violationParams(v: MetadataViolation): Record<string, unknown> {
  const params: Record<string, unknown> = { rule: v.rule, code: v.code };
  if (v.key !== undefined) params['key'] = v.key;
  if (v.bytes !== undefined) params['bytes'] = v.bytes;
  if (v.limit !== undefined) params['limit'] = v.limit;
  return params;
}

function reportViolation(ctx: IssueSink, v: MetadataViolation, path: PropertyKey[]): void {
  ctx.addIssue({ code: 'custom', message: v.message, path, params: violationParams(v) });
}

/** Record<key without prefix, value> with the rules of ref §6. Issue path: [key], or [] for the total. */
export const customMetadataSchema = z.record(z.string(), z.string()).superRefine((custom, ctx) => {
  for (const v of listCustomMetadataViolations(custom)) {
    reportViolation(ctx, v, v.rule === 'total_too_large' || v.key === undefined ? [] : [v.key]);
  }
});

/** One editable row of a metadata form (key without prefix). */
export interface CustomMetadataEntry {
  key: string;
  value: string;
}

/**
 * Rows of a metadata form (react-hook-form field array). Same rules as `customMetadataSchema`, plus
 * 'key_duplicate' for a key repeated case-insensitively (they would be one header) and
 * 'value_surrounding_whitespace'. Issue paths point
 * at the field: [index, 'key'] for key rules, [index, 'value'] for the value rule, [] for the total.
 */
export const customMetadataEntriesSchema = z
  .array(z.object({ key: z.string(), value: z.string() }))
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    let total = 0;
    rows.forEach((row, index) => {
      for (const v of entryViolations(row.key, row.value)) {
        reportViolation(ctx, v, [index, v.rule === 'value_not_printable' ? 'value' : 'key']);
      }
      const whitespace = customValueSendViolation(row.key, row.value);
      if (whitespace) reportViolation(ctx, whitespace, [index, 'value']);
      const folded = row.key.toLowerCase();
      if (row.key !== '' && seen.has(folded)) {
        reportViolation(
          ctx,
          {
            code: 'invalid_argument',
            rule: 'key_duplicate',
            key: row.key,
            message: `Metadata key "${row.key}" appears more than once (keys are case-insensitive).`,
          },
          [index, 'key'],
        );
      }
      seen.add(folded);
      total += metadataEntryBytes(row.key, row.value);
    });
    const overTotal = totalViolation(total);
    if (overTotal) reportViolation(ctx, overTotal, []);
  });

/** Form rows → the model's record (keys lower-cased). */
export function customMetadataFromEntries(rows: readonly CustomMetadataEntry[]): Record<string, string> {
  return normalizeCustomMetadata(Object.fromEntries(rows.map((row) => [row.key, row.value])));
}

/** The model's record → form rows, sorted by key for a stable display. */
export function customMetadataToEntries(custom: Record<string, string>): CustomMetadataEntry[] {
  return Object.entries(custom)
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

type GrammarHeader = Exclude<StandardHeader, 'expires'>;
const GRAMMAR: Record<GrammarHeader, (value: string) => string | null> = {
  'cache-control': cacheControlProblem,
  'content-disposition': contentDispositionProblem,
  'content-encoding': contentEncodingProblem,
  'content-type': contentTypeProblem,
};
const GRAMMAR_RULES: Record<GrammarHeader, MetadataRule> = {
  'cache-control': 'cache_control_syntax',
  'content-disposition': 'content_disposition_syntax',
  'content-encoding': 'content_encoding_syntax',
  'content-type': 'content_type_syntax',
};

function standardValueSchema(header: StandardHeader) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (!isPrintableAscii(value)) {
        reportViolation(
          ctx,
          {
            code: 'invalid_argument',
            rule: 'standard_not_printable',
            key: header,
            message: `The ${header} value may contain only printable ASCII characters (32–126).`,
          },
          [],
        );
      } else if (hasSurroundingWhitespace(value)) {
        reportViolation(ctx, surroundingWhitespaceViolation(header, header), []);
      } else if (header !== 'expires' && value !== '' && GRAMMAR[header](value) !== null) {
        reportViolation(
          ctx,
          { code: 'invalid_argument', rule: GRAMMAR_RULES[header], key: header, message: GRAMMAR[header](value) ?? '' },
          [],
        );
      } else if (header === 'expires' && parseHttpDate(value) === null) {
        reportViolation(
          ctx,
          {
            code: 'invalid_argument',
            rule: 'expires_not_http_date',
            key: header,
            message: 'Expires must be an HTTP date such as "Wed, 10 Dec 2014 17:20:31 GMT".',
          },
          [],
        );
      }
    })
    .optional();
}

/**
 * The five storable standard headers, each optional, printable ASCII without surrounding whitespace,
 * each well formed by its HTTP grammar (header-grammar.ts), Expires an HTTP date.
 */
export const standardMetadataSchema = z.strictObject({
  'cache-control': standardValueSchema('cache-control'),
  'content-disposition': standardValueSchema('content-disposition'),
  'content-encoding': standardValueSchema('content-encoding'),
  'content-type': standardValueSchema('content-type'),
  expires: standardValueSchema('expires'),
});

/**
 * `customMetadataSchema` plus the console-side 'value_surrounding_whitespace' rule: what a form should
 * accept as values to send. (customMetadataSchema alone is exactly what the server checks.)
 */
export const customMetadataFormSchema = z.record(z.string(), z.string()).superRefine((custom, ctx) => {
  for (const v of listCustomMetadataViolations(custom)) {
    reportViolation(ctx, v, v.rule === 'total_too_large' || v.key === undefined ? [] : [v.key]);
  }
  for (const [key, value] of Object.entries(custom)) {
    const v = customValueSendViolation(key, value);
    if (v) reportViolation(ctx, v, [key]);
  }
});

/** A whole ObjectMetadata as a form edits it. */
export const objectMetadataSchema = z.object({
  standard: standardMetadataSchema,
  custom: customMetadataFormSchema,
});

/** Reads the stable rule id back from a zod issue produced by the schemas above. */
export function metadataRuleOfIssue(issue: object): MetadataRule | undefined {
  const params = 'params' in issue ? issue.params : undefined;
  if (typeof params !== 'object' || params === null || !('rule' in params)) return undefined;
  const rule = params.rule;
  return typeof rule === 'string' && isMetadataRule(rule) ? rule : undefined;
}

const ALL_RULES: readonly MetadataRule[] = [
  'key_empty',
  'key_charset',
  'key_too_long',
  'value_not_printable',
  'total_too_large',
  'key_duplicate',
  'value_surrounding_whitespace',
  'standard_not_printable',
  'expires_not_http_date',
  'content_encoding_syntax',
  'cache_control_syntax',
  'content_disposition_syntax',
  'content_type_syntax',
];

/** Whether `value` is one of the rule ids above (a rule read back from a stored record or an issue). */
export function isMetadataRule(value: string): value is MetadataRule {
  return (ALL_RULES as readonly string[]).includes(value);
}
