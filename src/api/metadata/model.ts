/**
 * Object metadata: the one model of QingStor's storable headers and custom `x-qs-meta-*` metadata,
 * shared by the console (forms, editor) and the mock (request validation), so the two can never
 * disagree about what is legal. Rules: reference §6 (limits), §5.1 (the five storable standard
 * headers), §11.6 (lower-case names).
 *
 * Runs unchanged in the browser and in Node 24 with type stripping: no JSX, no enums, no path aliases.
 */
import { z } from 'zod';
import { cacheControlProblem, contentDispositionProblem, contentEncodingProblem, contentTypeProblem } from './header-grammar.ts';
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS, type StandardHeader } from '../protocol/headers.ts';
import { parseHttpDate } from '../protocol/http-date.ts';
import { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES } from '../protocol/limits.ts';

// The protocol facts this model is built on live in src/api/protocol/; re-exported for its many users.
export { CUSTOM_METADATA_PREFIX, METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES, STANDARD_METADATA_HEADERS, type StandardHeader };
export { formatHttpDate, parseHttpDate } from '../protocol/http-date.ts';

export interface ObjectMetadata {
  standard: Partial<Record<StandardHeader, string>>;
  /** Keys lower-case, WITHOUT the `x-qs-meta-` prefix; values exactly as stored. */
  custom: Record<string, string>;
}

/**
 * Stable identifiers of every rule, so the UI can translate a violation without parsing messages.
 * The first five are the custom-metadata rules of ref §6 (checked by `checkCustomMetadata`, and by the
 * mock). The others exist only on the console side (form schemas, edit.ts): a Record cannot hold
 * duplicate keys, the server stores standard headers verbatim, and HTTP strips surrounding whitespace
 * from any header value before the server sees it — a form should still stop the user early.
 */
export type MetadataRule =
  | 'key_empty'
  | 'key_charset'
  | 'key_too_long'
  | 'value_not_printable'
  | 'total_too_large'
  | 'key_duplicate'
  | 'value_surrounding_whitespace'
  | 'standard_not_printable'
  | 'expires_not_http_date'
  | 'content_encoding_syntax'
  | 'cache_control_syntax'
  | 'content_disposition_syntax'
  | 'content_type_syntax';

export type MetadataViolationCode = 'metadata_too_large' | 'invalid_argument';

export interface MetadataViolation {
  /** The QingStor error code the server answers with (ref §6; `invalid_argument` is inferred, §12). */
  code: MetadataViolationCode;
  rule: MetadataRule;
  /** Custom key (without prefix) or standard header name the violation is about; absent for the total. */
  key?: string;
  /** Plain-English explanation; the UI should translate `rule` instead of showing this verbatim. */
  message: string;
  /** Measured size in bytes, for the size rules. */
  bytes?: number;
  /** Limit in bytes, for the size rules. */
  limit?: number;
}

// ---------------------------------------------------------------------------------------------------
// Predicates and byte counters (the single source of truth for the checker AND the zod schemas)

const KEY_PATTERN = /^[A-Za-z0-9._-]+$/;
const PRINTABLE_ASCII_PATTERN = /^[\x20-\x7e]*$/;

/** True when every character is printable ASCII, code points 32..126 inclusive (ref §6). Empty is true. */
export function isPrintableAscii(value: string): boolean {
  return PRINTABLE_ASCII_PATTERN.test(value);
}

/**
 * True when a value starts or ends with a space or tab. HTTP strips such whitespace from header values
 * (fetch's Headers does it too), so the server would silently store a different value; encode it
 * (encodeMetadataValue) or trim it.
 */
export function hasSurroundingWhitespace(value: string): boolean {
  return /^[ \t]|[ \t]$/.test(value);
}

function surroundingWhitespaceViolation(key: string, what: string): MetadataViolation {
  return {
    code: 'invalid_argument',
    rule: 'value_surrounding_whitespace',
    key,
    message: `The value of ${what} starts or ends with whitespace, which HTTP would strip; trim or encode it.`,
  };
}

/** The console-side rules on top of ref §6, for one custom entry (see MetadataRule). */
export function customValueSendViolation(key: string, value: string): MetadataViolation | null {
  return hasSurroundingWhitespace(value) ? surroundingWhitespaceViolation(key, `metadata key "${key}"`) : null;
}

/** True when a custom key (without prefix) uses only A-Z a-z 0-9 '-' '_' '.' and is not empty (ref §6). */
export function isValidMetadataKeyCharset(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * UTF-8 byte length of a JS string. Lone surrogates count 3 bytes (they would go out as U+FFFD).
 * For legal keys and values (pure ASCII) this equals `.length`; for illegal ones it is what a browser
 * would put on the wire, which is the honest number to show next to an error.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes a key (given WITHOUT the `x-qs-meta-` prefix) counts toward the 512-byte limit and the total. */
export function metadataKeyBytes(key: string): number {
  return utf8ByteLength(key);
}

/** Bytes one entry counts toward the 2 KB total: len(key without prefix) + len(value). */
export function metadataEntryBytes(key: string, value: string): number {
  return metadataKeyBytes(key) + utf8ByteLength(value);
}

/** Σ(len(key) + len(value)) over all custom entries (ref §6). */
export function customMetadataTotalBytes(custom: Record<string, string>): number {
  let total = 0;
  for (const [key, value] of Object.entries(custom)) total += metadataEntryBytes(key, value);
  return total;
}

/** Per-entry violations, in the fixed order key_empty → key_charset → key_too_long → value_not_printable. */
function entryViolations(key: string, value: string): MetadataViolation[] {
  const found: MetadataViolation[] = [];
  if (key === '') {
    found.push({
      code: 'invalid_argument',
      rule: 'key_empty',
      key,
      message: 'A metadata key must not be empty.',
    });
  } else if (!isValidMetadataKeyCharset(key)) {
    found.push({
      code: 'invalid_argument',
      rule: 'key_charset',
      key,
      message: `Metadata key "${key}" may contain only ASCII letters, digits, "-", "_" and ".".`,
    });
  }
  const keyBytes = metadataKeyBytes(key);
  if (keyBytes > METADATA_KEY_MAX_BYTES) {
    found.push({
      code: 'metadata_too_large',
      rule: 'key_too_long',
      key,
      bytes: keyBytes,
      limit: METADATA_KEY_MAX_BYTES,
      message: `Metadata key is ${keyBytes} bytes long; at most ${METADATA_KEY_MAX_BYTES} bytes are allowed.`,
    });
  }
  if (!isPrintableAscii(value)) {
    found.push({
      code: 'invalid_argument',
      rule: 'value_not_printable',
      key,
      message:
        `The value of metadata key "${key}" contains characters outside printable ASCII (32–126); ` +
        'encode it (RFC 2047 or percent-encoding) first.',
    });
  }
  return found;
}

function totalViolation(total: number): MetadataViolation | null {
  if (total <= METADATA_TOTAL_MAX_BYTES) return null;
  return {
    code: 'metadata_too_large',
    rule: 'total_too_large',
    bytes: total,
    limit: METADATA_TOTAL_MAX_BYTES,
    message: `Custom metadata totals ${total} bytes (keys plus values); at most ${METADATA_TOTAL_MAX_BYTES} bytes are allowed.`,
  };
}

/**
 * Every violation of ref §6 in `custom` (keys without prefix): per entry in iteration order, then the
 * total. Empty array = valid. Use this to show all problems at once; the server reports only one.
 */
export function listCustomMetadataViolations(custom: Record<string, string>): MetadataViolation[] {
  const found: MetadataViolation[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(custom)) {
    found.push(...entryViolations(key, value));
    total += metadataEntryBytes(key, value);
  }
  const overTotal = totalViolation(total);
  if (overTotal) found.push(overTotal);
  return found;
}

/**
 * The first violation (what the mock answers with) or null. Order: entries in iteration order (the mock
 * passes them sorted by name, as `Headers` iterates), each key_empty → key_charset → key_too_long →
 * value_not_printable; then the 2 KB total. Which error real QingStor reports first when a request
 * breaks several rules is undocumented; this order is our choice.
 */
export function checkCustomMetadata(custom: Record<string, string>): MetadataViolation | null {
  return listCustomMetadataViolations(custom)[0] ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Headers ⇄ model

/**
 * Sets `record[key]` as an own, enumerable property. Metadata keys are data: `__proto__` and
 * `constructor` are legal keys (charset A-Za-z0-9-_.), and a plain assignment of `__proto__` would change
 * the object's prototype instead of storing the entry.
 */
export function setEntry(record: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

function isStandardHeader(name: string): name is StandardHeader {
  return (STANDARD_METADATA_HEADERS as readonly string[]).includes(name);
}

/**
 * Metadata from name/value pairs, e.g. PostObject form fields (ref §7) or `Headers` entries. Names are
 * case-insensitive (ref §6); repeated names are joined with ", " as `Headers` does. Values are kept
 * byte-for-byte (ref §6, inferred), even illegal ones, so the caller can validate them. A bare
 * `x-qs-meta-` name yields the key "" so validation reports it instead of silently dropping it.
 */

export function metadataFromEntries(entries: Iterable<readonly [string, string]>): ObjectMetadata {
  const standard: Partial<Record<StandardHeader, string>> = {};
  const custom: Record<string, string> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (isStandardHeader(name)) {
      const previous = standard[name];
      standard[name] = previous === undefined ? value : `${previous}, ${value}`;
    } else if (name.startsWith(CUSTOM_METADATA_PREFIX)) {
      const key = name.slice(CUSTOM_METADATA_PREFIX.length);
      const previous = Object.hasOwn(custom, key) ? custom[key] : undefined;
      setEntry(custom, key, previous === undefined ? value : `${previous}, ${value}`);
    }
  }
  return { standard, custom };
}

/** The five storable standard headers and all `x-qs-meta-*` headers of a request or response. */
export function metadataFromHeaders(headers: Headers): ObjectMetadata {
  return metadataFromEntries(headers.entries());
}

/**
 * Header map (lower-case names) for a PUT, REPLACE-copy or GET/HEAD replay. Standard headers come first
 * in STANDARD_METADATA_HEADERS order, then custom keys as given. Custom keys are lower-cased; if two
 * differ only in case the later one wins (they are the same HTTP header).
 */
export function metadataToHeaders(m: ObjectMetadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = m.standard[name];
    if (value !== undefined) headers[name] = value;
  }
  for (const [key, value] of Object.entries(m.custom)) {
    setEntry(headers, CUSTOM_METADATA_PREFIX + key.toLowerCase(), value);
  }
  return headers;
}

/** Lower-cases custom keys (later wins on case collisions); values untouched. */
export function normalizeCustomMetadata(custom: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(custom)) setEntry(out, key.toLowerCase(), value);
  return out;
}

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

function isMetadataRule(value: string): value is MetadataRule {
  return (ALL_RULES as readonly string[]).includes(value);
}
