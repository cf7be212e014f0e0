import { describe, expect, it } from 'vitest';
import { compareCodePoints, pageToRows } from './rows.ts';

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
