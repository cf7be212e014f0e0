import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMetadataEdits } from '../../api/metadata/edit.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import {
  byteCounts,
  editorIssues,
  editorSchema,
  editsBetween,
  editsFromValues,
  hasEdits,
  newRow,
  storedValue,
  valuesFromMetadata,
  type EditorValues,
} from './form-model.ts';

const empty: ObjectMetadata = { standard: {}, custom: {} };

function withRows(rows: Array<{ key: string; text: string; encoding?: 'percent' | 'plain' | 'rfc2047-b' | 'rfc2047-q' }>): EditorValues {
  const values = valuesFromMetadata(empty);
  values.rows = rows.map((r) => ({ ...newRow(), key: r.key, text: r.text, encoding: r.encoding ?? 'percent', autoEncoding: false }));
  return values;
}

const rules = (values: EditorValues) => editorIssues(values).map((i) => `${i.path}:${i.rule}`);

describe('editor rules at each limit (ref §6)', () => {
  it('accepts a 511- and 512-byte key and refuses a 513-byte key, counting bytes', () => {
    for (const [length, ok] of [[511, true], [512, true], [513, false]] as const) {
      const values = withRows([{ key: 'k'.repeat(length), text: 'v' }]);
      expect(byteCounts(values.rows).keys).toEqual([length]);
      expect(rules(values)).toEqual(ok ? [] : ['rows.0.key:key_too_long']);
    }
  });

  it('accepts a total of exactly 2048 bytes and refuses 2049 (keys + stored values)', () => {
    const at = withRows([{ key: 'a', text: 'x'.repeat(1023) }, { key: 'b', text: 'y'.repeat(1023) }]);
    expect(byteCounts(at.rows).total).toBe(2048);
    expect(rules(at)).toEqual([]);
    const over = withRows([{ key: 'a', text: 'x'.repeat(1024) }, { key: 'b', text: 'y'.repeat(1023) }]);
    expect(byteCounts(over.rows).total).toBe(2049);
    expect(rules(over)).toEqual(['rows:total_too_large']);
  });

  it('counts the ENCODED value toward the total: 3 CJK characters percent-encoded are 27 bytes', () => {
    const values = withRows([{ key: 'k', text: '北京市' }]);
    expect(storedValue(values.rows[0] ?? newRow())).toBe('%E5%8C%97%E4%BA%AC%E5%B8%82');
    expect(byteCounts(values.rows).total).toBe(1 + 27);
  });

  it('refuses a non-printable value stored as typed, and accepts it with any encoding, which decodes back', () => {
    expect(rules(withRows([{ key: 'k', text: 'café', encoding: 'plain' }]))).toEqual(['rows.0.text:value_not_printable']);
    expect(rules(withRows([{ key: 'k', text: 'tab\there', encoding: 'plain' }]))).toEqual(['rows.0.text:value_not_printable']);
    for (const encoding of ['percent', 'rfc2047-b', 'rfc2047-q'] as const) {
      const values = withRows([{ key: 'k', text: 'café 北京', encoding }]);
      expect(rules(values)).toEqual([]);
      expect(decodeMetadataValue(storedValue(values.rows[0] ?? newRow())).text).toBe('café 北京');
    }
  });

  it('refuses bad key characters, empty and duplicate keys (case-insensitive), and bad standard values', () => {
    const values = withRows([{ key: 'bad key', text: 'v' }, { key: '', text: 'v' }, { key: 'Dup', text: '1' }, { key: 'dup', text: '2' }]);
    values.standard.expires = 'tomorrow';
    values.standard['cache-control'] = 'max-age=1 ';
    values.standard['content-type'] = 'text/plain; name=北';
    expect(rules(values)).toEqual([
      'standard.cache-control:value_surrounding_whitespace',
      'standard.content-type:standard_not_printable',
      'standard.expires:expires_not_http_date',
      'rows.0.key:key_charset',
      'rows.1.key:key_empty',
      'rows.3.key:key_duplicate',
    ]);
  });

  it('the zod form schema carries the rule id as the message at the field path', () => {
    const parsed = editorSchema.safeParse(withRows([{ key: 'k'.repeat(513), text: 'v' }]));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['rows.0.key', 'key_too_long']]);
  });
});

describe('form values → edits', () => {
  const loaded: ObjectMetadata = {
    standard: { 'content-type': 'application/pdf', 'cache-control': 'private' },
    custom: { author: 'Alice', title: '=?UTF-8?B?5a2j5bqm?=', keep: 'x' },
  };

  it('untouched values give no edits, and never re-encode a stored value', () => {
    const values = valuesFromMetadata(loaded);
    expect(values.rows.find((r) => r.key === 'title')?.text).toBe('季度');
    expect(hasEdits(editsFromValues(loaded, values))).toBe(false);
  });

  it('mentions only what changed (a row keeps the encoding it was stored in): set, rename, remove, standard set/remove', () => {
    const values = valuesFromMetadata(loaded);
    values.standard['cache-control'] = '';
    values.standard.expires = 'Wed, 31 Dec 2031 23:59:59 GMT';
    values.rows = values.rows
      .filter((r) => r.key !== 'keep')
      .map((r) => (r.key === 'author' ? { ...r, key: 'writer' } : r.key === 'title' ? { ...r, text: '年度' } : r));
    values.rows.push({ ...newRow(), key: 'new', text: 'ü' });
    const edits = editsFromValues(loaded, values);
    expect(edits).toEqual({
      standard: { 'cache-control': null, expires: 'Wed, 31 Dec 2031 23:59:59 GMT' },
      custom: [
        { op: 'remove', key: 'keep' },
        { op: 'rename', from: 'author', to: 'writer' },
        { op: 'set', key: 'title', value: '=?UTF-8?B?5bm05bqm?=' },
        { op: 'set', key: 'new', value: '%C3%BC' },
      ],
    });
    // Re-applied on a newer version, the edits keep that version's own changes.
    const theirs: ObjectMetadata = { standard: { ...loaded.standard, 'content-encoding': 'gzip' }, custom: { ...loaded.custom, author: 'Carol', extra: '1' } };
    expect(applyMetadataEdits(theirs, edits)).toEqual({
      standard: { 'content-type': 'application/pdf', 'content-encoding': 'gzip', expires: 'Wed, 31 Dec 2031 23:59:59 GMT' },
      custom: { title: '=?UTF-8?B?5bm05bqm?=', writer: 'Carol', extra: '1', new: '%C3%BC' },
    });
  });

  it('a swap of two keys keeps each value with its new key', () => {
    const values = valuesFromMetadata({ standard: {}, custom: { a: '1', b: '2' } });
    values.rows = values.rows.map((r) => ({ ...r, key: r.key === 'a' ? 'b' : 'a' }));
    expect(applyMetadataEdits({ standard: {}, custom: { a: '1', b: '2' } }, editsFromValues({ standard: {}, custom: { a: '1', b: '2' } }, values)).custom).toEqual({ a: '2', b: '1' });
  });

  it('editsBetween(from, to) applied to from gives exactly to (property)', () => {
    const key = fc.stringMatching(/^[a-z0-9._-]{1,8}$/);
    const value = fc.stringMatching(/^[ -~]{0,6}$/);
    const meta = fc.record({
      standard: fc.record({ 'cache-control': value, 'content-type': value, expires: value }, { requiredKeys: [] }),
      custom: fc.dictionary(key, value, { maxKeys: 6 }),
    });
    fc.assert(
      fc.property(meta, meta, (from, to) => {
        expect(applyMetadataEdits(from, editsBetween(from, to))).toEqual(to);
      }),
    );
  });
});

describe('the encoding offer and pasted lines', () => {
  it('suggests RFC 2047 B for mostly non-Latin text and percent otherwise; needsEncoding only off printable ASCII', async () => {
    const { suggestedEncoding, needsEncoding } = await import('./form-model.ts');
    expect(suggestedEncoding('测试作者')).toBe('rfc2047-b');
    expect(suggestedEncoding('Привет')).toBe('rfc2047-b');
    expect(suggestedEncoding('北京 café')).toBe('percent');
    expect(suggestedEncoding('ü')).toBe('percent');
    expect(suggestedEncoding('ring\u0007here')).toBe('percent');
    expect(needsEncoding('plain ascii')).toBe(false);
    expect(needsEncoding(' padded')).toBe(true);
    expect(needsEncoding('100%25')).toBe(true);
    expect(needsEncoding('测试')).toBe(true);
  });

  it('a new row stores what the suggestion gives, the same for every form that uses it', () => {
    const values = valuesFromMetadata(empty);
    values.rows = [{ ...newRow(), key: 'author', text: '测试作者' }];
    expect(storedValue(values.rows[0] ?? newRow())).toBe('=?UTF-8?B?5rWL6K+V5L2c6ICF?=');
    expect(editorIssues(values)).toEqual([]);
  });

  it('parses "key: value" lines, strips x-qs-meta-, skips lines without a key, merges into rows', async () => {
    const { parseMetadataLines, rowsWithPasted, looksLikeMetadataLines } = await import('./form-model.ts');
    expect(parseMetadataLines('X-QS-Meta-A: 1\r\nb:two: parts\n\n  : nokey\nnothing')).toEqual({
      entries: [{ key: 'A', value: '1' }, { key: 'b', value: 'two: parts' }],
      skipped: 2,
    });
    expect(looksLikeMetadataLines('a: 1')).toBe(false);
    expect(looksLikeMetadataLines('a: 1\nb: 2')).toBe(true);
    const rows = rowsWithPasted([{ ...newRow(), key: 'a', text: 'old' }, newRow()], [{ key: 'A', value: 'new' }, { key: 'c', value: '3' }, { key: 'd', value: '4' }], 1);
    expect(rows.map((r) => [r.key, r.text])).toEqual([['a', 'new'], ['c', '3'], ['d', '4']]);
  });
});
