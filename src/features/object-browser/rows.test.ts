import { describe, expect, it } from 'vitest';
import { compareCodePoints, objectKeysBetween, pageToRows, sortRows, type Row } from './rows.ts';

describe('compareCodePoints', () => {
  it('orders like UTF-8 bytes, putting astral characters after all BMP characters', () => {
    const keys = ['😀', '\uFFFD', 'a', 'Z', '中'];
    const sorted = [...keys].sort(compareCodePoints);
    expect(sorted).toEqual(['Z', 'a', '中', '\uFFFD', '😀']);
    const bytes = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(sorted).toEqual(bytes);
  });
});

describe('pageToRows', () => {
  it('merges folders and keys in key order and names them relative to the prefix', () => {
    const rows = pageToRows(
      {
        common_prefixes: ['docs/b/', 'docs/d/'],
        keys: [
          { key: 'docs/a.txt', size: 3, mime_type: 'text/plain', modified: 100, etag: '"x"' },
          { key: 'docs/c.txt', size: 5 },
        ],
      },
      'docs/',
    );
    expect(rows.map((r) => [r.kind, r.name])).toEqual([
      ['object', 'a.txt'],
      ['folder', 'b'],
      ['object', 'c.txt'],
      ['folder', 'd'],
    ]);
    expect(rows[0]).toMatchObject({ key: 'docs/a.txt', size: 3, mimeType: 'text/plain', modified: 100 });
  });

  it('drops the folder-marker object that equals the prefix', () => {
    const rows = pageToRows({ common_prefixes: [], keys: [{ key: 'docs/' }, { key: 'docs/x' }] }, 'docs/');
    expect(rows.map((r) => r.key)).toEqual(['docs/x']);
  });
});

describe('sortRows', () => {
  const obj = (name: string, size: number, mimeType: string, modified: number): Row => ({ kind: 'object', key: `p/${name}`, name, size, mimeType, modified, etag: '' });
  const rows: Row[] = [
    { kind: 'folder', key: 'p/b/', name: 'b' },
    obj('a.txt', 30, 'text/plain', 3),
    obj('c.png', 10, 'image/png', 1),
    obj('d.bin', 20, 'application/octet-stream', 2),
    obj('e.txt', 10, 'text/plain', 5),
  ];
  const names = (sorted: readonly Row[]) => sorted.map((r) => r.name);

  it('keeps the server order without a sort', () => {
    expect(sortRows(rows, null)).toBe(rows);
  });
  it('sorts by size either way, folders first, ties in key order', () => {
    expect(names(sortRows(rows, { column: 'size', descending: false }))).toEqual(['b', 'c.png', 'e.txt', 'd.bin', 'a.txt']);
    expect(names(sortRows(rows, { column: 'size', descending: true }))).toEqual(['b', 'a.txt', 'd.bin', 'c.png', 'e.txt']);
  });
  it('sorts by name, type and date', () => {
    expect(names(sortRows(rows, { column: 'name', descending: true }))).toEqual(['b', 'e.txt', 'd.bin', 'c.png', 'a.txt']);
    expect(names(sortRows(rows, { column: 'type', descending: false }))).toEqual(['b', 'd.bin', 'c.png', 'a.txt', 'e.txt']);
    expect(names(sortRows(rows, { column: 'modified', descending: true }))).toEqual(['b', 'e.txt', 'a.txt', 'd.bin', 'c.png']);
  });
  it('gives shift-click ranges of object keys in either direction', () => {
    expect(objectKeysBetween(rows, 3, 0)).toEqual(['p/a.txt', 'p/c.png', 'p/d.bin']);
    expect(objectKeysBetween(rows, 4, 9)).toEqual(['p/e.txt']);
  });
});
