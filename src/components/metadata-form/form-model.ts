/**
 * The metadata editor's form model, free of React: what the form holds, how it validates (one zod schema
 * built on the shared rules of src/api/metadata/rules.ts and schemas.ts), and how form values become MetadataEdits
 * relative to the metadata the editor loaded. Edits — not a final set — are what a save sends through
 * replaceRequestHeaders, so a conflict can re-apply exactly what the user changed on top of another
 * client's version.
 */
import { z } from 'zod';
import { applyMetadataEdits, type CustomMetadataEdit, type MetadataEdits } from '../../api/metadata/edit.ts';
import { decodeMetadataValue, encodeMetadataValue, type MetadataValueEncoding } from '../../api/metadata/encoding.ts';
import { normalizeCustomMetadata } from '../../api/metadata/header-mapping.ts';
import { metadataEntryBytes, metadataKeyBytes } from '../../api/metadata/rules.ts';
import { customMetadataEntriesSchema, customMetadataToEntries, metadataRuleOfIssue, standardMetadataSchema } from '../../api/metadata/schemas.ts';
import type { MetadataRule, ObjectMetadata } from '../../api/metadata/types.ts';
import { STANDARD_METADATA_HEADERS, type StandardHeader } from '../../api/protocol/headers.ts';
import { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES } from '../../api/protocol/limits.ts';

export { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES };

/** How a row's text is stored: 'plain' = as typed (must already be printable ASCII, ref §6). */
export type RowEncoding = MetadataValueEncoding;
export const ROW_ENCODINGS: readonly RowEncoding[] = ['percent', 'rfc2047-b', 'rfc2047-q', 'plain'];

export interface MetadataRow {
  /** The key this row had when loaded; null for a row the user added. */
  origKey: string | null;
  key: string;
  /** What the user reads and types (decoded). */
  text: string;
  encoding: RowEncoding;
  /**
   * True until the user picks an encoding: the row then uses the one that reads best for its text
   * (suggestedEncoding). A loaded row that was stored encoded keeps its form (false).
   */
  autoEncoding: boolean;
  /** Loaded state, so an untouched row is never re-encoded (its stored bytes stay exactly as they were). */
  origText: string;
  origEncoding: RowEncoding;
  origStored: string;
}

export type StandardValues = Record<StandardHeader, string>;

export interface EditorValues {
  standard: StandardValues;
  rows: MetadataRow[];
}

/** A new, empty row (percent-encoding is the default form for non-ASCII text). */
export function newRow(): MetadataRow {
  return { origKey: null, key: '', text: '', encoding: 'percent', autoEncoding: true, origText: '', origEncoding: 'percent', origStored: '' };
}

/** True when `text` cannot be stored as typed (outside printable ASCII, surrounding spaces, or it would read back as encoded). */
export function needsEncoding(text: string): boolean {
  return encodeMetadataValue(text) !== text;
}

/**
 * The encoding that reads best for `text`: RFC 2047 Base64 when most of it is non-Latin script (4
 * characters per 3 bytes instead of 9 for a CJK character), percent-encoding otherwise (ASCII with some
 * accents or a control character: the ASCII stays legible in the stored form).
 */
export function suggestedEncoding(text: string): Exclude<RowEncoding, 'plain'> {
  let total = 0;
  let nonLatin = 0;
  for (const ch of text) {
    total += 1;
    // Above Latin Extended-B (U+024F): Greek, Cyrillic, CJK, emoji…
    if ((ch.codePointAt(0) ?? 0) > 0x24f) nonLatin += 1;
  }
  return nonLatin * 2 > total ? 'rfc2047-b' : 'percent';
}

/** The encoding a value is stored with: the user's choice, or the suggestion while they made none. */
export function effectiveEncoding(text: string, encoding: RowEncoding, auto: boolean): RowEncoding {
  return auto ? suggestedEncoding(text) : encoding;
}

/** What is stored for `text` in that encoding ('plain' stores it as typed, valid or not). */
export function encodeAs(text: string, encoding: RowEncoding): string {
  return encoding === 'plain' ? text : encodeMetadataValue(text, encoding);
}

/** Loaded metadata → form values: standard headers as stored ('' = absent), custom values decoded. */
export function valuesFromMetadata(m: ObjectMetadata): EditorValues {
  const standard: StandardValues = {
    'cache-control': m.standard['cache-control'] ?? '',
    'content-disposition': m.standard['content-disposition'] ?? '',
    'content-encoding': m.standard['content-encoding'] ?? '',
    'content-type': m.standard['content-type'] ?? '',
    expires: m.standard.expires ?? '',
  };
  const rows = customMetadataToEntries(normalizeCustomMetadata(m.custom)).map(({ key, value }): MetadataRow => {
    const decoded = decodeMetadataValue(value);
    // A plain stored value is shown as is; if the user edits it, percent-encoding protects non-ASCII input.
    const encoding: RowEncoding = decoded.encoding === 'plain' ? 'percent' : decoded.encoding;
    // A value stored plain gets the suggested encoding if the user's edit needs one.
    const autoEncoding = decoded.encoding === 'plain';
    return { origKey: key, key, text: decoded.text, encoding, autoEncoding, origText: decoded.text, origEncoding: encoding, origStored: value };
  });
  return { standard, rows };
}

const NO_METADATA: ObjectMetadata = { standard: {}, custom: {} };

/** An empty form (a new object: uploads). */
export function emptyEditorValues(): EditorValues {
  return valuesFromMetadata(NO_METADATA);
}

/** The complete metadata a new object gets from the form (empty fields are not set). */
export function metadataFromValues(values: EditorValues): ObjectMetadata {
  return applyMetadataEdits(NO_METADATA, editsFromValues(NO_METADATA, values));
}

export function rowTextChanged(row: MetadataRow): boolean {
  return row.origKey === null || row.text !== row.origText || row.encoding !== row.origEncoding;
}

/** The exact value that would be stored for a row. */
export function storedValue(row: MetadataRow): string {
  if (!rowTextChanged(row)) return row.origStored;
  return encodeAs(row.text, effectiveEncoding(row.text, row.encoding, row.autoEncoding));
}

export interface ByteCounts {
  /** Per row: bytes of the key (limit 512). */
  keys: number[];
  /** Σ(key + stored value) over all rows (limit 2048). */
  total: number;
}

export function byteCounts(rows: readonly MetadataRow[]): ByteCounts {
  const keys = rows.map((row) => metadataKeyBytes(row.key));
  const total = rows.reduce((sum, row) => sum + metadataEntryBytes(row.key, storedValue(row)), 0);
  return { keys, total };
}

export interface EditorIssue {
  /** 'standard.<header>', 'rows.<i>.key', 'rows.<i>.text', or 'rows' for the total. */
  path: string;
  rule: MetadataRule;
}

/** Every problem in the form, each with the stable rule id the UI translates. */
export function editorIssues(values: EditorValues): EditorIssue[] {
  const issues: EditorIssue[] = [];
  const standard: Partial<Record<StandardHeader, string>> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    if (values.standard[name] !== '') standard[name] = values.standard[name];
  }
  const std = standardMetadataSchema.safeParse(standard);
  if (!std.success) {
    for (const issue of std.error.issues) {
      const rule = metadataRuleOfIssue(issue);
      const header = issue.path[0];
      if (rule && typeof header === 'string') issues.push({ path: `standard.${header}`, rule });
    }
  }
  const rows = customMetadataEntriesSchema.safeParse(values.rows.map((row) => ({ key: row.key, value: storedValue(row) })));
  if (!rows.success) {
    for (const issue of rows.error.issues) {
      const rule = metadataRuleOfIssue(issue);
      if (!rule) continue;
      const [index, field] = issue.path;
      if (typeof index === 'number') issues.push({ path: `rows.${index}.${field === 'value' ? 'text' : 'key'}`, rule });
      else issues.push({ path: 'rows', rule });
    }
  }
  return issues;
}

/** The first issue per path (what a field shows). */
export function issuesByPath(issues: readonly EditorIssue[]): Map<string, MetadataRule> {
  const map = new Map<string, MetadataRule>();
  for (const issue of issues) if (!map.has(issue.path)) map.set(issue.path, issue.rule);
  return map;
}

const rowSchema = z.object({
  origKey: z.string().nullable(),
  key: z.string(),
  text: z.string(),
  encoding: z.enum(['percent', 'rfc2047-b', 'rfc2047-q', 'plain']),
  autoEncoding: z.boolean(),
  origText: z.string(),
  origEncoding: z.enum(['percent', 'rfc2047-b', 'rfc2047-q', 'plain']),
  origStored: z.string(),
});

/**
 * The form schema for react-hook-form (zodResolver). Each issue's message IS the rule id, so the UI can
 * translate it (resolvers keep only message and type).
 */
export const editorSchema = z
  .object({
    standard: z.object({
      'cache-control': z.string(),
      'content-disposition': z.string(),
      'content-encoding': z.string(),
      'content-type': z.string(),
      expires: z.string(),
    }),
    rows: z.array(rowSchema),
  })
  .superRefine((values, ctx) => {
    for (const issue of editorIssues(values)) {
      ctx.addIssue({ code: 'custom', message: issue.rule, path: issue.path === 'rows' ? ['rowsTotal'] : issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
    }
  });

/**
 * Form values → edits relative to what was loaded. Only what the user changed is mentioned: untouched
 * standard headers and rows produce no edit, so re-applying the edits on a newer version of the object
 * keeps that version's other changes.
 */
export function editsFromValues(loaded: ObjectMetadata, values: EditorValues): MetadataEdits {
  const standard: NonNullable<MetadataEdits['standard']> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const before = loaded.standard[name] ?? '';
    const after = values.standard[name];
    if (after === before) continue;
    standard[name] = after === '' ? null : after;
  }
  const custom: CustomMetadataEdit[] = [];
  const kept = new Set(values.rows.map((row) => row.origKey).filter((key): key is string => key !== null));
  for (const key of Object.keys(normalizeCustomMetadata(loaded.custom))) {
    if (!kept.has(key)) custom.push({ op: 'remove', key });
  }
  // A rename onto a key another row still holds (a swap) cannot be expressed as ordered renames; those
  // renames become remove + set of the loaded value, which is what the user sees.
  const loadedKeysInUse = new Set(values.rows.map((row) => row.origKey).filter((key): key is string => key !== null));
  const renames = values.rows.filter((row) => row.origKey !== null && row.origKey !== row.key.toLowerCase());
  const swap = renames.some((row) => loadedKeysInUse.has(row.key.toLowerCase()));
  if (swap) for (const row of renames) if (row.origKey !== null) custom.push({ op: 'remove', key: row.origKey });
  for (const row of values.rows) {
    const key = row.key.toLowerCase();
    const renamed = row.origKey !== null && row.origKey !== key;
    if (renamed && !swap && row.origKey !== null) custom.push({ op: 'rename', from: row.origKey, to: key });
    if (row.origKey === null || rowTextChanged(row) || (renamed && swap)) custom.push({ op: 'set', key, value: storedValue(row) });
  }
  const edits: MetadataEdits = {};
  if (Object.keys(standard).length > 0) edits.standard = standard;
  if (custom.length > 0) edits.custom = custom;
  return edits;
}

/** Edits that turn `from` into exactly `to` (used for "overwrite with mine" and undo). */
export function editsBetween(from: ObjectMetadata, to: ObjectMetadata): MetadataEdits {
  const standard: NonNullable<MetadataEdits['standard']> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const a = to.standard[name];
    if (from.standard[name] !== a) standard[name] = a ?? null;
  }
  const source = normalizeCustomMetadata(from.custom);
  const target = normalizeCustomMetadata(to.custom);
  const custom: CustomMetadataEdit[] = [];
  for (const key of Object.keys(source)) if (!Object.hasOwn(target, key)) custom.push({ op: 'remove', key });
  for (const [key, value] of Object.entries(target)) if ((Object.hasOwn(source, key) ? source[key] : undefined) !== value) custom.push({ op: 'set', key, value });
  return { standard, custom };
}

export function hasEdits(edits: MetadataEdits): boolean {
  return Object.keys(edits.standard ?? {}).length > 0 || (edits.custom?.length ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------------
// Pasting many entries at once

const META_PREFIX = /^x-qs-meta-/i;

/**
 * Lines of `key: value` (or `x-qs-meta-key: value`, as a HEAD prints them) → entries. The value is
 * everything after the first ':' with the separating spaces trimmed. Blank lines are ignored; a line
 * without ':' or with an empty key is counted as skipped.
 */
export function parseMetadataLines(text: string): { entries: Array<{ key: string; value: string }>; skipped: number } {
  const entries: Array<{ key: string; value: string }> = [];
  let skipped = 0;
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon).trim().replace(META_PREFIX, '');
    if (key === '') {
      skipped += 1;
      continue;
    }
    entries.push({ key, value: line.slice(colon + 1).trim() });
  }
  return { entries, skipped };
}

/** True when pasted text should become rows rather than go into one field. */
export function looksLikeMetadataLines(text: string): boolean {
  const { entries } = parseMetadataLines(text);
  return /[\r\n]/.test(text.trim()) && entries.length > 0;
}

/**
 * Rows after pasting `entries`: a key some row already has (case-insensitively) gets the new value, the
 * others become new rows; an empty row the paste started in is filled first.
 */
export function rowsWithPasted(rows: readonly MetadataRow[], entries: ReadonlyArray<{ key: string; value: string }>, startIndex: number | null): MetadataRow[] {
  const next = rows.map((row) => ({ ...row }));
  let pending = startIndex;
  for (const { key, value } of entries) {
    const existing = next.findIndex((row) => row.key.toLowerCase() === key.toLowerCase());
    if (existing >= 0) {
      const row = next[existing];
      if (row) next[existing] = { ...row, text: value };
      continue;
    }
    const target = pending !== null ? next[pending] : undefined;
    if (pending !== null && target && target.key === '' && target.text === '') {
      next[pending] = { ...target, key, text: value };
      pending = null;
      continue;
    }
    next.push({ ...newRow(), key, text: value });
  }
  return next;
}
