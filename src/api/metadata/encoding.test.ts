import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import {
  decodeMetadataValue,
  decodePercent,
  decodeRfc2047,
  encodeMetadataValue,
  encodePercent,
  encodeRfc2047,
  encodeRfc2047B,
  encodeRfc2047Q,
  isPrintableAscii,
} from './encoding.ts';
import { checkCustomMetadata } from './rules.ts';

const FORMS = ['rfc2047-b', 'rfc2047-q', 'percent'] as const;

/** What the server checks (ref §6): the encoded value alone must pass the value rule. */
function passesValueRule(value: string): boolean {
  return isPrintableAscii(value) && checkCustomMetadata({ k: value.slice(0, 2000) }) === null;
}

describe('known vectors', () => {
  it.each([
    ['中', '=?UTF-8?B?5Lit?=', '=?UTF-8?Q?=E4=B8=AD?=', '%E4%B8%AD'],
    ['Hello World', '=?UTF-8?B?SGVsbG8gV29ybGQ=?=', '=?UTF-8?Q?Hello_World?=', 'Hello%20World'],
    ['a_b=c?d', '=?UTF-8?B?YV9iPWM/ZA==?=', '=?UTF-8?Q?a=5Fb=3Dc=3Fd?=', 'a_b%3Dc%3Fd'],
    ['😀', '=?UTF-8?B?8J+YgA==?=', '=?UTF-8?Q?=F0=9F=98=80?=', '%F0%9F%98%80'],
    ['é', '=?UTF-8?B?w6k=?=', '=?UTF-8?Q?=C3=A9?=', '%C3%A9'],
  ])('%j ⇒ B %s, Q %s, percent %s', (text, b, q, percent) => {
    expect(encodeRfc2047B(text)).toBe(b);
    expect(encodeRfc2047Q(text)).toBe(q);
    expect(encodePercent(text)).toBe(percent);
  });

  it('percent-encodes like encodeURIComponent for well-formed text', () => {
    const sample = "a-b_c.d!e~f*g'h(i)j k/l?m#n&o=p+q%r中😀\u0000\u007f";
    expect(encodePercent(sample)).toBe(encodeURIComponent(sample));
  });

  it('never throws on lone surrogates (encoded as U+FFFD)', () => {
    expect(encodePercent('a\ud800b')).toBe('a%EF%BF%BDb');
    expect(encodeRfc2047('\udc00', 'B')).toBe('=?UTF-8?B?77+9?=');
  });

  it('gives an empty string for empty text', () => {
    expect(encodeRfc2047('', 'B')).toBe('');
    expect(encodeRfc2047('', 'Q')).toBe('');
    expect(encodePercent('')).toBe('');
  });
});

describe('RFC 2047 decoding', () => {
  it.each([
    // RFC 2047 §8 examples
    ['=?ISO-8859-1?Q?a?=', 'a'],
    ['=?ISO-8859-1?Q?a?= b', 'a b'],
    ['=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a?=  =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a?=\r\n =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a_b?=', 'a b'],
    ['=?ISO-8859-1?Q?a?= =?ISO-8859-2?Q?_b?=', 'a b'],
    ['(=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=)', '(ab)'],
    ['=?US-ASCII?Q?Keith_Moore?=', 'Keith Moore'],
    ['=?ISO-8859-1?Q?Andr=E9?= Pirard', 'André Pirard'],
    // RFC 2231 language suffix
    ['=?US-ASCII*EN?Q?Keith_Moore?=', 'Keith Moore'],
    // case-insensitive charset and encoding letter, lower-case hex
    ['=?utf-8?b?5Lit?=', '中'],
    ['=?Utf-8?q?=e4=b8=ad?=', '中'],
    ['=?UTF-8?B?5Lit?= =?UTF-8?B?5paH?=', '中文'],
    ['=?UTF-8?B?5Lit?==?UTF-8?Q?=E6=96=87?=', '中文'],
    // a character split across two words at the byte level (E4 B8 | AD)
    ['=?UTF-8?B?5Lg=?= =?UTF-8?B?rQ==?=', '中'],
    // other charsets the platform knows
    ['=?GBK?B?1tDOxA==?=', '中文'],
    ['=?Shift_JIS?B?k/qWe4zq?=', '日本語'],
  ])('%j ⇒ %j', (value, text) => {
    expect(decodeRfc2047(value)?.text).toBe(text);
    expect(decodeMetadataValue(value).text).toBe(text);
  });

  it('reports B or Q by the first decoded word', () => {
    expect(decodeMetadataValue('=?UTF-8?B?5Lit?=').encoding).toBe('rfc2047-b');
    expect(decodeMetadataValue('=?utf-8?q?=E4=B8=AD?= =?UTF-8?B?5paH?=').encoding).toBe('rfc2047-q');
  });

  it.each([
    '=?UTF-8?B?***?=',
    '=?UTF-8?B?5?=', // one base64 character cannot be a byte
    '=?X-NO-SUCH-CHARSET?Q?a?=',
    '=?UTF-8?Q?=ZZ?=',
    '=?UTF-8?B?/w==?=', // 0xFF is not UTF-8
    '=?UTF-8?X?abc?=',
    '=?UTF-8?B?5L it?=',
    'no encoded word here',
  ])('leaves %j undecoded', (value) => {
    expect(decodeRfc2047(value)).toBeNull();
    expect(decodeMetadataValue(value)).toEqual({ text: value, encoding: 'plain' });
  });

  it('keeps undecodable words and surrounding text as they are', () => {
    expect(decodeRfc2047('x =?X-NOPE?Q?a?= =?UTF-8?B?5Lit?= y')?.text).toBe('x =?X-NOPE?Q?a?= 中 y');
  });

  it('splits long text into words of at most 75 characters holding whole characters', () => {
    const text = '中文元数据😀'.repeat(20) + 'plain ascii text '.repeat(10);
    for (const mode of ['B', 'Q'] as const) {
      const encoded = encodeRfc2047(text, mode);
      const words = encoded.split(' ');
      expect(words.length).toBeGreaterThan(1);
      for (const word of words) {
        expect(word.length).toBeLessThanOrEqual(75);
        // each word decodes on its own: no character is split between words (RFC 2047 §5)
        expect(decodeRfc2047(word)).not.toBeNull();
      }
      expect(decodeRfc2047(encoded)?.text).toBe(text);
    }
  });
});

describe('percent decoding', () => {
  it.each([
    ['%E4%B8%AD%E6%96%87', '中文'],
    ['%e4%b8%ad', '中'],
    ['a%20b', 'a b'],
    ['a+b', 'a+b'],
    ['100%25', '100%'],
    ['plain', 'plain'],
  ])('%j ⇒ %j', (value, text) => {
    expect(decodePercent(value)).toBe(text);
  });

  it.each(['%', '%4', '%zz', 'a%E4%B8', '%FF', '中'])('rejects malformed %j', (value) => {
    expect(decodePercent(value)).toBeNull();
    expect(decodeMetadataValue(value)).toEqual({ text: value, encoding: 'plain' });
  });

  it('recognises what the JS SDK stores (encodeURI of the value)', () => {
    expect(decodeMetadataValue(encodeURI('作者 Tom'))).toEqual({ text: '作者 Tom', encoding: 'percent' });
  });
});

describe('decodeMetadataValue on plain values', () => {
  it.each(['Tom', 'a b c', 'max-age=60', '50% off', '=?', 'a?=b', ''])('%j is plain', (value) => {
    expect(decodeMetadataValue(value)).toEqual({ text: value, encoding: 'plain' });
  });
});

describe('round trips on real-world text', () => {
  const samples: Array<[string, string]> = [
    ['Chinese', '中文元数据：作者张三'],
    ['Japanese', '日本語のテキスト、カタカナとひらがな'],
    ['Korean', '한국어 메타데이터'],
    ['emoji', '😀🎉👍'],
    ['ZWJ family', '👨‍👩‍👧‍👦'],
    ['flag with ZWJ and VS16', '🏳️‍🌈'],
    ['skin tone', '👋🏽'],
    ['astral CJK and math', '𠀀𠮷 𝕏𝔸'],
    ['Arabic (RTL)', 'مرحبا بالعالم'],
    ['Hebrew (RTL)', 'שלום עולם'],
    ['RTL with marks', '\u202bעברית\u202c and \u200fالعربية'],
    ['combining marks', 'e\u0301 n\u0303 Å'],
    ['mixed ASCII', 'report-2024 最终版 ✅ final'],
    ['controls', 'line1\nline2\ttab\r\u0000'],
    ['surrounding spaces', '  padded  '],
    ['looks encoded', '=?UTF-8?B?5Lit?='],
    ['looks percent-encoded', '100%25 sure'],
    ['non-ASCII next to an encoded-word lookalike', '中 =?UTF-8?Q?x?= %41'],
  ];

  it.each(samples.flatMap(([name, text]) => FORMS.map((form) => [name, form, text] as const)))(
    '%s via %s',
    (_name, form, text) => {
      const stored = encodeMetadataValue(text, form);
      expect(passesValueRule(stored)).toBe(true);
      expect(stored.trim()).toBe(stored);
      expect(decodeMetadataValue(stored)).toEqual({ text, encoding: form });
    },
  );

  it('stores printable ASCII that reads back the same as plain', () => {
    for (const form of FORMS) {
      expect(encodeMetadataValue('Tom Smith <tom@example.com>', form)).toBe('Tom Smith <tom@example.com>');
      expect(encodeMetadataValue('a_b=c?d 50% off', form)).toBe('a_b=c?d 50% off');
      expect(encodeMetadataValue('', form)).toBe('');
    }
  });

  it('survives a trip through real Headers', () => {
    for (const form of FORMS) {
      const stored = encodeMetadataValue('  作者 👨‍👩‍👧  ', form);
      const back = new Headers({ 'x-qs-meta-author': stored }).get('x-qs-meta-author') ?? '';
      expect(decodeMetadataValue(back).text).toBe('  作者 👨‍👩‍👧  ');
    }
  });
});

describe('properties', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ unit: fc.constantFrom('=', '?', '%', '_', ' ', 'B', 'Q', 'U', 'T', 'F', '-', '8', '4', 'E', 'a'), maxLength: 24 }),
  );

  it('raw encoders round-trip and emit printable ASCII only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }), (text) => {
        const b = encodeRfc2047(text, 'B');
        const q = encodeRfc2047(text, 'Q');
        const p = encodePercent(text);
        for (const encoded of [b, q, p]) expect(isPrintableAscii(encoded)).toBe(true);
        expect(decodeRfc2047(b)?.text).toBe(text);
        expect(decodeRfc2047(q)?.text).toBe(text);
        expect(decodePercent(p)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('encodeMetadataValue always passes the value rule and decodes back (every form)', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...FORMS), (text, form) => {
        const stored = encodeMetadataValue(text, form);
        expect(passesValueRule(stored)).toBe(true);
        expect(decodeMetadataValue(stored).text).toBe(text);
      }),
      { numRuns: 600 },
    );
  });
});
