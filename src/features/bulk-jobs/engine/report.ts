/**
 * A job's report, one row per object it settled, read from the journal page by page into the parts of a
 * Blob (the browser keeps large Blobs out of the page's heap): key, outcome, the metadata before and after
 * (an edit or undo) or the destination (a copy or move), the error code and message, the request id.
 *
 * CSV (RFC 4180, UTF-8 with a byte order mark so spreadsheet programs read it as UTF-8). A cell that
 * starts with = + - @ or a tab would be taken as a formula by a spreadsheet: such a key or value is
 * written with a leading apostrophe, the usual guard, so that opening a report never runs anything.
 */
import { applyMetadataEdits } from '../../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS } from '../../../api/protocol/headers.ts';
import type { Journal } from './journal.ts';
import { destinationKey, type ItemRecord, type JobRecord } from './types.ts';

export type ReportFormat = 'csv' | 'json';

export interface ReportRow {
  key: string;
  outcome: string;
  before: ObjectMetadata | null;
  after: ObjectMetadata | null;
  destination: string | null;
  error_code: string | null;
  message: string | null;
  request_id: string | null;
}

export function reportRow(job: JobRecord, item: ItemRecord, originalBefore?: ObjectMetadata): ReportRow {
  const op = job.operation;
  const before = item.before?.metadata ?? null;
  let after: ObjectMetadata | null = null;
  if (item.state === 'changed' && before) {
    if (op.kind === 'edit') after = applyMetadataEdits(before, op.edits);
    else if (op.kind === 'undo') after = originalBefore ?? null;
  }
  const transfer = op.kind === 'copy' || op.kind === 'move';
  return {
    key: item.key,
    outcome: item.state === 'intent' ? 'unknown' : item.state,
    before: transfer ? null : before,
    after,
    destination: transfer ? `${op.destination.bucket}/${destinationKey(job.scope, op.destination, item.key)}` : null,
    error_code: item.code ?? null,
    message: item.message ?? null,
    request_id: item.requestId ?? null,
  };
}

/** Metadata as the header lines a HEAD shows, one per line, in a stable order. */
export function metadataText(metadata: ObjectMetadata | null): string {
  if (!metadata) return '';
  const lines: string[] = [];
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = metadata.standard[name];
    if (value !== undefined) lines.push(`${name}: ${value}`);
  }
  for (const key of Object.keys(metadata.custom).sort()) lines.push(`${CUSTOM_METADATA_PREFIX}${key}: ${metadata.custom[key] ?? ''}`);
  return lines.join('\n');
}

export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export const CSV_HEADER = ['key', 'outcome', 'before', 'after', 'destination', 'error_code', 'message', 'request_id'] as const;

export function csvLine(row: ReportRow): string {
  return [row.key, row.outcome, metadataText(row.before), metadataText(row.after), row.destination ?? '', row.error_code ?? '', row.message ?? '', row.request_id ?? ''].map(csvCell).join(',');
}

/** The whole report of `job` as a Blob, read `pageSize` records at a time. */
export async function buildReport(journal: Journal, job: JobRecord, format: ReportFormat, pageSize = 1000): Promise<Blob> {
  const parts: string[] = [];
  let first = true;
  parts.push(format === 'csv' ? `\ufeff${CSV_HEADER.join(',')}\r\n` : '[');
  const undoOf = job.operation.kind === 'undo' ? job.operation.of : undefined;
  let after: string | null = null;
  for (;;) {
    const page = await journal.scan(job.id, { after, limit: pageSize, filter: 'all' });
    const originals = undoOf === undefined ? undefined : await journal.items(undoOf, page.items.map((i) => i.key));
    let chunk = '';
    for (const item of page.items) {
      const row = reportRow(job, item, originals?.get(item.key)?.before?.metadata);
      if (format === 'csv') chunk += `${csvLine(row)}\r\n`;
      else {
        chunk += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
        first = false;
      }
    }
    if (chunk !== '') parts.push(chunk);
    if (page.done || page.last === null) break;
    after = page.last;
  }
  if (format === 'json') parts.push('\n]\n');
  return new Blob(parts, { type: format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json' });
}

export function reportFileName(job: JobRecord, format: ReportFormat): string {
  const stamp = new Date(job.createdAt).toISOString().replace(/[:.]/g, '-');
  return `job-${job.operation.kind}-${job.bucket}-${stamp}.${format}`;
}
