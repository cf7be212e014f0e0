import { describe, it, expect } from 'vitest';
import { assert, property, string } from 'fast-check';
import { checkObjectKey, compareKeys, isValidBucketName, utf8ByteLength } from './keys.ts';
import { QsError } from '../errors.ts';

const encoder = new TextEncoder();

function byteOrder(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof QsError) return error.code;
    throw error;
  }
  return undefined;
}

describe('compareKeys', () => {
  it('orders an astral character after U+E000..U+FFFF, unlike JS <', () => {
    const astral = '\u{1F600}'; // UTF-16 D83D DE00, UTF-8 F0 9F 98 80
    const privateUse = '\uE000'; // UTF-8 EE 80 80
    const fullwidth = '\uFF01';
    expect(astral < privateUse).toBe(true); // the UTF-16 order we must not use
    expect(compareKeys(astral, privateUse)).toBeGreaterThan(0);
    expect(compareKeys(fullwidth, astral)).toBeLessThan(0);
    expect(compareKeys('a', 'a')).toBe(0);
    expect(compareKeys('a', 'ab')).toBeLessThan(0);
    expect(compareKeys('b', 'ab')).toBeGreaterThan(0);
    expect(compareKeys('\u{10000}', '\u{10FFFF}')).toBeLessThan(0);
  });

  it('agrees in sign with UTF-8 byte order for arbitrary strings', () => {
    assert(
      property(string({ unit: 'grapheme' }), string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareKeys(a, b))).toBe(Math.sign(byteOrder(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts a mixed list exactly like byte order', () => {
    const keys = ['z', '\uFFFD', '\u{1F4A9}', '\uE000', 'é', 'a/b', 'a/', 'a', '中文', '\u{20000}', 'A', ''];
    const ours = [...keys].sort(compareKeys);
    const bytes = [...keys].sort(byteOrder);
    expect(ours).toEqual(bytes);
  });
});

describe('utf8ByteLength', () => {
  it('matches TextEncoder', () => {
    assert(
      property(string({ unit: 'grapheme' }), (s) => {
        expect(utf8ByteLength(s)).toBe(encoder.encode(s).length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('checkObjectKey', () => {
  it('accepts 1..1023 bytes and rejects empty, longer or ill-formed keys (ref §1.3)', () => {
    expect(codeOf(() => checkObjectKey('a'))).toBeUndefined();
    expect(codeOf(() => checkObjectKey('x'.repeat(1023)))).toBeUndefined();
    expect(codeOf(() => checkObjectKey('dir/'))).toBeUndefined();
    expect(codeOf(() => checkObjectKey(''))).toBe('invalid_object_name');
    expect(codeOf(() => checkObjectKey('x'.repeat(1024)))).toBe('invalid_object_name');
    // 341 × 3 bytes = 1023 bytes fits; one more 3-byte char does not
    expect(codeOf(() => checkObjectKey('中'.repeat(341)))).toBeUndefined();
    expect(codeOf(() => checkObjectKey('中'.repeat(342)))).toBe('invalid_object_name');
    expect(codeOf(() => checkObjectKey('bad\uD800'))).toBe('invalid_object_name');
  });
});

describe('isValidBucketName', () => {
  it('follows ref §1.3', () => {
    for (const ok of ['mybucket', 'abc-12', 'a'.repeat(63), '123456', 'a-b-c-d']) expect(isValidBucketName(ok)).toBe(true);
    for (const bad of ['abcde', 'a'.repeat(64), 'MyBucket', '-abcdef', 'abcdef-', 'abc_def', 'abc.def', '192.168.1.1', 'abc def', '']) {
      expect(isValidBucketName(bad)).toBe(false);
    }
  });
});
