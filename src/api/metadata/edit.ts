/**
 * Safe metadata edits for the metadata editor and bulk edit. QingStor has no "patch metadata" call:
 * the only way to change an object's metadata is to copy it onto itself with
 * `x-qs-metadata-directive: REPLACE`, which REPLACES everything — any standard header or custom key the
 * request leaves out is gone, and a missing Content-Type becomes application/octet-stream
 * (ref §5.2, inferred). So an edit is always: read current metadata (HEAD) → merge the user's edits →
 * send the complete merged set. This module does the merge and builds that complete set.
 */
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS } from '../protocol/headers.ts';
import { metadataToHeaders, normalizeCustomMetadata, setEntry } from './header-mapping.ts';
import { checkCustomMetadata, customValueSendViolation, hasSurroundingWhitespace } from './rules.ts';
import type { StandardHeader } from '../protocol/headers.ts';
import type { MetadataViolation, ObjectMetadata } from './types.ts';

/** Per standard header: a string sets it, null removes it; absent (or undefined) leaves it untouched. */
export type StandardMetadataEdits = Partial<Record<StandardHeader, string | null>>;

/**
 * One change to custom metadata. Keys are WITHOUT the `x-qs-meta-` prefix and case-insensitive
 * (ref §6): 'Author' and 'author' name the same key; results are lower-case.
 * - set: create or overwrite `key`.
 * - remove: delete `key`; a missing key is a no-op (bulk edit applies the same edits to objects that
 *   may not have it).
 * - rename: move the value of `from` to `to`, overwriting `to` if present; a missing `from` is a no-op
 *   (same reason). To rename and change the value, follow with a `set` of `to`.
 */
export type CustomMetadataEdit =
  | { op: 'set'; key: string; value: string }
  | { op: 'remove'; key: string }
  | { op: 'rename'; from: string; to: string };

export interface MetadataEdits {
  standard?: StandardMetadataEdits;
  /** Applied in order. */
  custom?: readonly CustomMetadataEdit[];
}

export interface MetadataChange {
  kind: 'added' | 'changed' | 'removed';
  /** A standard header name ('content-type') or `x-qs-meta-<key>` (lower-case). */
  field: string;
  before?: string;
  after?: string;
  /** The value before could not be read (a header the browser refused); `before` is then absent. */
  beforeUnknown?: boolean;
}

/** Thrown by replaceRequestHeaders when the merged metadata could not be sent or would be refused. */
export class MetadataEditError extends Error {
  readonly violation: MetadataViolation;

  constructor(violation: MetadataViolation) {
    super(violation.message);
    this.name = 'MetadataEditError';
    this.violation = violation;
  }
}

/**
 * Merges `edits` into `current` and returns new metadata; `current` is not modified. Everything the
 * edits do not mention is kept exactly. Custom keys come out lower-case.
 */
export function applyMetadataEdits(current: ObjectMetadata, edits: MetadataEdits): ObjectMetadata {
  const standard: Partial<Record<StandardHeader, string>> = { ...current.standard };
  for (const name of STANDARD_METADATA_HEADERS) {
    const edit = edits.standard?.[name];
    if (edit === null) delete standard[name];
    else if (edit !== undefined) standard[name] = edit;
  }

  const custom = normalizeCustomMetadata(current.custom);
  for (const edit of edits.custom ?? []) {
    switch (edit.op) {
      case 'set':
        setEntry(custom, edit.key.toLowerCase(), edit.value);
        break;
      case 'remove':
        delete custom[edit.key.toLowerCase()];
        break;
      case 'rename': {
        const from = edit.from.toLowerCase();
        const to = edit.to.toLowerCase();
        if (from === to || !Object.hasOwn(custom, from)) break;
        const value = custom[from];
        delete custom[from];
        if (value !== undefined) setEntry(custom, to, value);
        break;
      }
    }
  }
  return { standard, custom };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What changed from `before` to `after`, for a confirmation dialog or a bulk-edit preview: standard
 * headers first (in STANDARD_METADATA_HEADERS order), then custom keys sorted. Custom keys compare
 * case-insensitively. Empty when nothing changed.
 */
export function diffMetadata(before: ObjectMetadata, after: ObjectMetadata): MetadataChange[] {
  const changes: MetadataChange[] = [];
  const push = (field: string, b: string | undefined, a: string | undefined) => {
    if (b === a) return;
    if (b === undefined && a !== undefined) changes.push({ kind: 'added', field, after: a });
    else if (a === undefined && b !== undefined) changes.push({ kind: 'removed', field, before: b });
    else if (a !== undefined && b !== undefined) changes.push({ kind: 'changed', field, before: b, after: a });
  };
  for (const name of STANDARD_METADATA_HEADERS) push(name, before.standard[name], after.standard[name]);

  const b = normalizeCustomMetadata(before.custom);
  const a = normalizeCustomMetadata(after.custom);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort(compareStrings);
  for (const key of keys) {
    push(
      CUSTOM_METADATA_PREFIX + key,
      Object.hasOwn(b, key) ? b[key] : undefined,
      Object.hasOwn(a, key) ? a[key] : undefined,
    );
  }
  return changes;
}

// What fetch's Headers accepts as a value: no NUL/CR/LF and code units ≤ 0xFF (a byte string).
function isByteStringHeaderValue(value: string): boolean {
  return /^[^\0\r\n\u0100-\uffff]*$/.test(value);
}

/**
 * The complete metadata header set for the copy-onto-itself that applies `edits` (ref §5.2): every
 * standard header and custom key of the merged metadata — including untouched ones such as
 * Content-Type — plus `x-qs-metadata-directive: REPLACE`. Names are lower-case. The caller adds
 * `x-qs-copy-source` and signs.
 *
 * Throws MetadataEditError when the merged custom metadata breaks a rule of ref §6 (the server would
 * answer 400), or a value would not arrive as written: surrounding whitespace (HTTP strips it; rule
 * 'value_surrounding_whitespace') or a standard value that is not a byte string without CR/LF/NUL
 * ('standard_not_printable'). Standard values the server already stored are not re-validated beyond
 * that, so an edit never fails because of a header the user did not touch; forms validate what the
 * user types with objectMetadataSchema.
 */
export function replaceRequestHeaders(current: ObjectMetadata, edits: MetadataEdits): Record<string, string> {
  const merged = applyMetadataEdits(current, edits);
  const violation = checkCustomMetadata(merged.custom);
  if (violation) throw new MetadataEditError(violation);
  for (const [key, value] of Object.entries(merged.custom)) {
    const whitespace = customValueSendViolation(key, value);
    if (whitespace) throw new MetadataEditError(whitespace);
  }
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = merged.standard[name];
    if (value === undefined) continue;
    if (!isByteStringHeaderValue(value)) {
      throw new MetadataEditError({
        code: 'invalid_argument',
        rule: 'standard_not_printable',
        key: name,
        message: `The ${name} value contains characters that cannot be sent in an HTTP header.`,
      });
    }
    if (hasSurroundingWhitespace(value)) {
      throw new MetadataEditError({
        code: 'invalid_argument',
        rule: 'value_surrounding_whitespace',
        key: name,
        message: `The ${name} value starts or ends with whitespace, which HTTP would strip.`,
      });
    }
  }
  return { ...metadataToHeaders(merged), 'x-qs-metadata-directive': 'REPLACE' };
}
