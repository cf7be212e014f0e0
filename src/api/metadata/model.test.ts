import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { STANDARD_METADATA_HEADERS } from '../protocol/headers.ts';
import { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES } from '../protocol/limits.ts';
import { metadataFromEntries, metadataFromHeaders, metadataToHeaders } from './header-mapping.ts';
import { checkCustomMetadata, customMetadataTotalBytes, hasSurroundingWhitespace, isPrintableAscii, listCustomMetadataViolations, metadataEntryBytes, metadataKeyBytes, utf8ByteLength } from './rules.ts';
import { customMetadataEntriesSchema, customMetadataFromEntries, customMetadataSchema, customMetadataToEntries, metadataRuleOfIssue, objectMetadataSchema } from './schemas.ts';

const ruleOf = (custom: Record<string, string>) => checkCustomMetadata(custom)?.rule ?? null;
const codeOf = (custom: Record<string, string>) => checkCustomMetadata(custom)?.code ?? null;

describe('limits', () => {
  it('are the documented numbers (ref §6)', () => {
    expect(METADATA_KEY_MAX_BYTES).toBe(512);
    expect(METADATA_TOTAL_MAX_BYTES).toBe(2048);
    expect(STANDARD_METADATA_HEADERS).toEqual([
      'cache-control',
      'content-disposition',
      'content-encoding',
      'content-type',
      'expires',
    ]);
  });
});

describe('byte counters', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['中', 3],
    ['😀', 4],
    ['a中😀', 8],
  ])('utf8ByteLength(%j) = %i, as TextEncoder says', (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
    expect(new TextEncoder().encode(text).length).toBe(bytes);
  });

  it('counts a lone surrogate as the 3-byte U+FFFD it would be sent as', () => {
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(utf8ByteLength('a\udfffb')).toBe(5);
  });

  it('count key and value, never the x-qs-meta- prefix', () => {
    expect(metadataKeyBytes('author')).toBe(6);
    expect(metadataEntryBytes('author', 'tom')).toBe(9);
    expect(customMetadataTotalBytes({ author: 'tom', id: '42' })).toBe(9 + 4);
    expect(customMetadataTotalBytes({})).toBe(0);
  });
});

describe('checkCustomMetadata: key length boundary (prefix not counted)', () => {
  it.each([
    [511, null, null],
    [512, null, null],
    [513, 'key_too_long', 'metadata_too_large'],
  ])('%i-byte key ⇒ %s', (length, rule, code) => {
    const key = 'k'.repeat(length);
    expect(ruleOf({ [key]: 'v' })).toBe(rule);
    expect(codeOf({ [key]: 'v' })).toBe(code);
  });

  it('reports the measured size and the limit of a long key', () => {
    const violation = checkCustomMetadata({ ['k'.repeat(600)]: '' });
    expect(violation).toMatchObject({ rule: 'key_too_long', key: 'k'.repeat(600), bytes: 600, limit: 512 });
    expect(violation?.message).toContain('600 bytes');
  });
});

describe('checkCustomMetadata: total size boundary', () => {
  it.each([
    [2047, null, null],
    [2048, null, null],
    [2049, 'total_too_large', 'metadata_too_large'],
  ])('one entry totalling %i bytes ⇒ %s', (total, rule, code) => {
    const custom = { key: 'v'.repeat(total - 3) };
    expect(customMetadataTotalBytes(custom)).toBe(total);
    expect(ruleOf(custom)).toBe(rule);
    expect(codeOf(custom)).toBe(code);
  });

  it.each([
    [2047, null],
    [2048, null],
    [2049, 'total_too_large'],
  ])('a 512-byte key plus others totalling %i bytes ⇒ %s', (total, rule) => {
    const custom = { ['a'.repeat(512)]: 'x'.repeat(500), b: 'y'.repeat(total - 512 - 500 - 1) };
    expect(customMetadataTotalBytes(custom)).toBe(total);
    expect(ruleOf(custom)).toBe(rule);
  });

  it('sums many keys: 128 entries of 16 bytes fit, one more byte does not', () => {
    const custom: Record<string, string> = {};
    for (let i = 0; i < 128; i += 1) custom[`key-${String(i).padStart(3, '0')}`] = 'v'.repeat(9);
    expect(customMetadataTotalBytes(custom)).toBe(2048);
    expect(checkCustomMetadata(custom)).toBeNull();
    custom['key-000'] = 'v'.repeat(10);
    expect(checkCustomMetadata(custom)).toMatchObject({
      code: 'metadata_too_large',
      rule: 'total_too_large',
      bytes: 2049,
      limit: 2048,
    });
    expect(checkCustomMetadata(custom)?.key).toBeUndefined();
  });

  it('accepts empty metadata and empty values', () => {
    expect(checkCustomMetadata({})).toBeNull();
    expect(checkCustomMetadata({ flag: '' })).toBeNull();
  });
});

describe('checkCustomMetadata: value characters', () => {
  it.each([
    [31, 'value_not_printable', 'invalid_argument', 'note'],
    [32, null, null, undefined],
    [126, null, null, undefined],
    [127, 'value_not_printable', 'invalid_argument', 'note'],
    [128, 'value_not_printable', 'invalid_argument', 'note'],
  ])('code point %i in a value ⇒ %s', (codePoint, rule, code, key) => {
    const custom = { note: `a${String.fromCodePoint(codePoint)}b` };
    expect(ruleOf(custom)).toBe(rule);
    expect(codeOf(custom)).toBe(code);
    expect(checkCustomMetadata(custom)?.key).toBe(key);
    expect(isPrintableAscii(String.fromCodePoint(codePoint))).toBe(rule === null);
  });

  it.each(['\t', '\n', '\r', '\0', 'é', '中文', '😀', '\u200d'])('rejects %j in a value', (bad) => {
    expect(ruleOf({ note: `x${bad}` })).toBe('value_not_printable');
  });

  it('accepts every printable ASCII character in a value', () => {
    let all = '';
    for (let c = 32; c <= 126; c += 1) all += String.fromCharCode(c);
    expect(checkCustomMetadata({ all })).toBeNull();
  });
});

describe('checkCustomMetadata: key characters', () => {
  const allowed = [
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    ...'abcdefghijklmnopqrstuvwxyz',
    ...'0123456789',
    '-',
    '_',
    '.',
  ];

  it('lists exactly 65 allowed characters', () => {
    expect(allowed).toHaveLength(65);
  });

  it.each(allowed)('allows %j alone and inside a key', (ch) => {
    expect(checkCustomMetadata({ [ch]: 'v' })).toBeNull();
    expect(checkCustomMetadata({ [`a${ch}b`]: 'v' })).toBeNull();
  });

  // Every ASCII character outside the 65 (all 30 printable ones, the 32 controls and DEL), plus non-ASCII.
  const forbidden = [
    ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).filter((ch) => !allowed.includes(ch)),
    'é',
    '中',
    '😀',
    '\u00a0',
  ];

  it('covers all 63 ASCII characters outside the allowed set', () => {
    expect(forbidden.filter((ch) => ch.charCodeAt(0) < 128)).toHaveLength(128 - 65);
    expect(forbidden).toEqual(expect.arrayContaining(['!', '#', '$', '&', "'", '*', '<', '>', '?', '[', '\\', ']', '^', '`', '{', '|', '}', '\x7f']));
  });

  it.each(forbidden)(
    'rejects %j in a key with invalid_argument/key_charset',
    (ch) => {
      expect(checkCustomMetadata({ [`a${ch}b`]: 'v' })).toMatchObject({
        code: 'invalid_argument',
        rule: 'key_charset',
        key: `a${ch}b`,
      });
    },
  );

  it('rejects an empty key with key_empty', () => {
    expect(checkCustomMetadata({ '': 'v' })).toMatchObject({ code: 'invalid_argument', rule: 'key_empty', key: '' });
  });

  it('reports charset before length for a long illegal key, and lists both', () => {
    const key = 'a b'.repeat(200);
    expect(ruleOf({ [key]: '' })).toBe('key_charset');
    expect(listCustomMetadataViolations({ [key]: '' }).map((v) => v.rule)).toEqual(['key_charset', 'key_too_long']);
  });

  it('lists every violation: per entry in order, the total last', () => {
    const custom = { 'bad key': 'é', ok: 'x'.repeat(2100) };
    expect(listCustomMetadataViolations(custom).map((v) => [v.rule, v.key])).toEqual([
      ['key_charset', 'bad key'],
      ['value_not_printable', 'bad key'],
      ['total_too_large', undefined],
    ]);
  });
});

describe('metadataFromHeaders / metadataToHeaders', () => {
  it('extracts the five standard headers and x-qs-meta-*, ignoring the rest', () => {
    const headers = new Headers({
      'Cache-Control': 'max-age=60',
      'Content-Disposition': 'attachment; filename="a.txt"',
      'Content-Encoding': 'gzip',
      'Content-Type': 'video/mp4; charset=utf8',
      Expires: 'Wed, 10 Dec 2014 17:20:31 GMT',
      'Content-Language': 'en',
      'Content-Length': '10',
      'x-qs-storage-class': 'STANDARD',
      'x-qs-meta-author': 'Tom',
    });
    expect(metadataFromHeaders(headers)).toEqual({
      standard: {
        'cache-control': 'max-age=60',
        'content-disposition': 'attachment; filename="a.txt"',
        'content-encoding': 'gzip',
        'content-type': 'video/mp4; charset=utf8',
        expires: 'Wed, 10 Dec 2014 17:20:31 GMT',
      },
      custom: { author: 'Tom' },
    });
  });

  it('treats header names case-insensitively: X-QS-META-Foo == x-qs-meta-foo', () => {
    const upper = metadataFromHeaders(new Headers({ 'X-QS-META-Foo': 'Bar' }));
    const lower = metadataFromHeaders(new Headers({ 'x-qs-meta-foo': 'Bar' }));
    expect(upper).toEqual(lower);
    expect(upper.custom).toEqual({ foo: 'Bar' });
    expect(metadataFromEntries([['X-QS-META-Foo', 'Bar']]).custom).toEqual({ foo: 'Bar' });
  });

  it('keeps values byte-for-byte (case, percent escapes, encoded-words)', () => {
    const custom = metadataFromHeaders(
      new Headers({ 'x-qs-meta-a': 'MiXeD Case', 'x-qs-meta-b': '%E4%B8%AD', 'x-qs-meta-c': '=?UTF-8?B?5Lit?=' }),
    ).custom;
    expect(custom).toEqual({ a: 'MiXeD Case', b: '%E4%B8%AD', c: '=?UTF-8?B?5Lit?=' });
  });

  it('joins repeated names like Headers does and keeps a bare prefix as the empty key', () => {
    const m = metadataFromEntries([
      ['X-QS-META-Foo', 'a'],
      ['x-qs-meta-foo', 'b'],
      ['x-qs-meta-', 'v'],
      ['content-type', 'text/plain'],
    ]);
    expect(m.custom).toEqual({ foo: 'a, b', '': 'v' });
    expect(m.standard).toEqual({ 'content-type': 'text/plain' });
    expect(checkCustomMetadata(m.custom)?.rule).toBe('key_empty');
  });

  it('writes lower-case header names, standard first', () => {
    const headers = metadataToHeaders({
      standard: { expires: 'Wed, 10 Dec 2014 17:20:31 GMT', 'content-type': 'text/plain' },
      custom: { Author: 'Tom', id: '7' },
    });
    expect(Object.entries(headers)).toEqual([
      ['content-type', 'text/plain'],
      ['expires', 'Wed, 10 Dec 2014 17:20:31 GMT'],
      ['x-qs-meta-author', 'Tom'],
      ['x-qs-meta-id', '7'],
    ]);
  });

  it('round-trips through real Headers', () => {
    const m = { standard: { 'cache-control': 'no-cache' }, custom: { a: '1', 'b.c_d-e': 'x y' } };
    expect(metadataFromHeaders(new Headers(metadataToHeaders(m)))).toEqual(m);
  });
});

describe('customMetadataSchema agrees with checkCustomMetadata', () => {
  const keyChar = fc.constantFrom(...'aZ09-_. /:é😀'.split(/(?:)/u));
  const arbCustom = fc.dictionary(
    fc.oneof(
      fc.string({ unit: keyChar, maxLength: 8 }),
      fc.integer({ min: 505, max: 520 }).map((n) => 'k'.repeat(n)),
    ),
    fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 12 }),
      fc.integer({ min: 400, max: 1100 }).map((n) => 'v'.repeat(n)),
    ),
    { maxKeys: 5 },
  );

  it('same verdict and same rules (property)', () => {
    fc.assert(
      fc.property(arbCustom, (custom) => {
        const parsed = customMetadataSchema.safeParse(custom);
        const expected = listCustomMetadataViolations(custom);
        expect(parsed.success).toBe(checkCustomMetadata(custom) === null);
        const issueRules = parsed.success ? [] : parsed.error.issues.map((i) => metadataRuleOfIssue(i));
        expect(issueRules).toEqual(expected.map((v) => v.rule));
      }),
      { numRuns: 300 },
    );
  });

  it('puts rule, code and key into issue params and the key into the path', () => {
    const parsed = customMetadataSchema.safeParse({ 'a b': 'v', ok: 'x'.repeat(2100) });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.map((i) => ({ path: i.path, params: 'params' in i ? i.params : undefined }))).toEqual([
      { path: ['a b'], params: { rule: 'key_charset', code: 'invalid_argument', key: 'a b' } },
      { path: [], params: { rule: 'total_too_large', code: 'metadata_too_large', bytes: 2106, limit: 2048 } },
    ]);
  });
});

describe('customMetadataEntriesSchema (form rows)', () => {
  it('points each issue at its field and flags case-insensitive duplicates', () => {
    const parsed = customMetadataEntriesSchema.safeParse([
      { key: 'Author', value: 'tom' },
      { key: 'author', value: 'ann' },
      { key: 'bad/key', value: 'ok' },
      { key: 'note', value: '中文' },
      { key: '', value: '' },
    ]);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([
      [[1, 'key'], 'key_duplicate'],
      [[2, 'key'], 'key_charset'],
      [[3, 'value'], 'value_not_printable'],
      [[4, 'key'], 'key_empty'],
    ]);
  });

  it('flags values HTTP would trim, which the server-side schema accepts', () => {
    const parsed = customMetadataEntriesSchema.safeParse([{ key: 'note', value: 'tom ' }]);
    expect(parsed.success ? [] : parsed.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([
      [[0, 'value'], 'value_surrounding_whitespace'],
    ]);
    expect(customMetadataSchema.safeParse({ note: 'tom ' }).success).toBe(true);
    expect(checkCustomMetadata({ note: ' tom' })).toBeNull();
    expect(hasSurroundingWhitespace('a b')).toBe(false);
    expect(hasSurroundingWhitespace('\ta')).toBe(true);
  });

  it('counts the total across rows', () => {
    const rows = [
      { key: 'a', value: 'x'.repeat(1023) },
      { key: 'b', value: 'y'.repeat(1023) },
    ];
    expect(customMetadataEntriesSchema.safeParse(rows).success).toBe(true);
    rows[1] = { key: 'b', value: 'y'.repeat(1024) };
    const parsed = customMetadataEntriesSchema.safeParse(rows);
    expect(parsed.success ? [] : parsed.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([
      [[], 'total_too_large'],
    ]);
  });

  it('converts rows to the model and back', () => {
    expect(customMetadataFromEntries([{ key: 'Author', value: 'Tom' }, { key: 'id', value: '1' }])).toEqual({
      author: 'Tom',
      id: '1',
    });
    expect(customMetadataToEntries({ z: '1', a: '2' })).toEqual([
      { key: 'a', value: '2' },
      { key: 'z', value: '1' },
    ]);
  });
});

describe('objectMetadataSchema', () => {
  it('accepts a full, valid ObjectMetadata', () => {
    const m = {
      standard: {
        'cache-control': 'max-age=3600',
        'content-disposition': 'inline',
        'content-encoding': 'gzip',
        'content-type': 'text/html; charset=utf-8',
        expires: 'Wed, 10 Dec 2014 17:20:31 GMT',
      },
      custom: { author: 'tom' },
    };
    expect(objectMetadataSchema.parse(m)).toEqual(m);
  });

  it.each([
    [{ expires: 'tomorrow' }, 'expires_not_http_date', ['standard', 'expires']],
    [{ expires: 'Thu, 10 Dec 2014 17:20:31 GMT' }, 'expires_not_http_date', ['standard', 'expires']],
    [{ 'content-disposition': 'attachment; filename="中.txt"' }, 'standard_not_printable', ['standard', 'content-disposition']],
    [{ 'cache-control': 'no-cache\r\nx-evil: 1' }, 'standard_not_printable', ['standard', 'cache-control']],
    [{ 'content-type': 'text/plain ' }, 'value_surrounding_whitespace', ['standard', 'content-type']],
  ])('rejects standard %j with %s', (standard, rule, path) => {
    const parsed = objectMetadataSchema.safeParse({ standard, custom: {} });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([[path, rule]]);
  });

  it('rejects headers that cannot be stored and reports custom rules with their path', () => {
    expect(objectMetadataSchema.safeParse({ standard: { 'content-language': 'en' }, custom: {} }).success).toBe(false);
    const parsed = objectMetadataSchema.safeParse({ standard: {}, custom: { 'a:b': 'v' } });
    expect(parsed.success ? [] : parsed.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([
      [['custom', 'a:b'], 'key_charset'],
    ]);
    const spaced = objectMetadataSchema.safeParse({ standard: {}, custom: { note: ' x' } });
    expect(spaced.success ? [] : spaced.error.issues.map((i) => [i.path, metadataRuleOfIssue(i)])).toEqual([
      [['custom', 'note'], 'value_surrounding_whitespace'],
    ]);
  });
});
