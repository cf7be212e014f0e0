/**
 * The first bytes of a text object turned into what the Preview tab shows: always text (React renders it
 * as text nodes), with bidi and zero-width characters made visible; JSON pretty-printed (within bounds,
 * json-format.ts) when the whole file was read and parses; CSV split into rows and cells for a table.
 */
import { revealDisguise } from '../../lib/visible-text.ts';
import { formatJson, JSON_FORMAT_LIMITS, type JsonFormatLimits } from './json-format.ts';
import type { TextFormat } from './preview-kind.ts';

/** A CSV table shows at most this many rows and columns (the text view shows everything read). */
export const CSV_MAX_ROWS = 200;
export const CSV_MAX_COLUMNS = 50;

/**
 * How JSON was shown: 'pretty' indented; 'flattened' indented except levels too deep, kept on one line;
 * 'tooLong' as stored, since indenting it would pass the output bound; 'none' not formatted (not JSON, or cut).
 */
export type JsonView = 'none' | 'pretty' | 'flattened' | 'tooLong';

/**
 * Longest run of characters without a break opportunity (white space, or a CJK character) that the text view
 * wraps. The browser breaks a longer run at the box's edge line by line, each line measuring the rest of the
 * run again: 66 KB of `[[[…0,0,0…]]]` took 2 s of layout in a 1280 px window (4 s at 360 px) with no script
 * running, while the same text unwrapped takes tens of milliseconds. A text holding a longer run is shown
 * unwrapped, scrolling sideways (`wrap: false`).
 */
export const WRAP_MAX_RUN = 500;

/** False when `text` holds a run of more than `max` characters with no white space or CJK character in it. */
export function wrapsCheaply(text: string, max: number = WRAP_MAX_RUN): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c >= 0x2e80) run = 0;
    else if (++run > max) return false;
  }
  return true;
}

export type TextPreview =
  | { view: 'text'; text: string; truncated: boolean; json: JsonView; wrap: boolean; csvAsText?: true }
  | { view: 'table'; rows: string[][]; moreRows: boolean; truncated: boolean };

/** Decodes UTF-8; a multi-byte character cut by the range end is dropped, not shown as U+FFFD. */
export function decodeStart(bytes: Uint8Array, truncated: boolean): string {
  const decoder = new TextDecoder('utf-8');
  const text = decoder.decode(bytes, { stream: truncated });
  return truncated ? text : text + decoder.decode();
}

export function textPreview(text: string, format: TextFormat, truncated: boolean, limits: JsonFormatLimits = JSON_FORMAT_LIMITS): TextPreview {
  if (format === 'json' && !truncated) {
    let value: unknown;
    let parsed = false;
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // Not valid JSON: shown as it is.
    }
    if (parsed) {
      const formatted = formatJson(value, limits);
      if (formatted === null) return textView(revealDisguise(text), truncated, 'tooLong');
      return textView(revealDisguise(formatted.text), truncated, formatted.flattened ? 'flattened' : 'pretty');
    }
  }
  if (format === 'csv') {
    const { rows, more } = parseCsv(text, CSV_MAX_ROWS, truncated);
    if (rows.length > 0) {
      const cells = rows.map((row) => row.slice(0, CSV_MAX_COLUMNS).map(revealDisguise));
      // A table cell breaks a long run the same costly way, and worse (3 s for one cell of 20,000 characters):
      // such a file is shown as text, unwrapped.
      if (cells.every((row) => row.every((cell) => wrapsCheaply(cell)))) return { view: 'table', rows: cells, moreRows: more, truncated };
      return { ...textView(revealDisguise(text), truncated, 'none'), csvAsText: true };
    }
  }
  return textView(revealDisguise(text), truncated, 'none');
}

function textView(text: string, truncated: boolean, json: JsonView): Extract<TextPreview, { view: 'text' }> {
  return { view: 'text', text, truncated, json, wrap: wrapsCheaply(text) };
}

/**
 * RFC 4180 CSV: quoted fields with doubled quotes, CRLF or LF rows. A truncated text's last (partial) row
 * is dropped. Returns at most `maxRows` rows and whether there were more.
 */
export function parseCsv(text: string, maxRows: number, truncated = false): { rows: string[][]; more: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
      if (rows.length > maxRows) break;
    } else field += c;
    i += 1;
  }
  const complete = i >= text.length;
  if (complete && !truncated && (field !== '' || row.length > 0)) endRow();
  return { rows: rows.slice(0, maxRows), more: rows.length > maxRows || !complete };
}
