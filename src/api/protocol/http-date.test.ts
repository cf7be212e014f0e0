import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHttpDate, parseHttpDate } from './http-date.ts';

describe('HTTP dates', () => {
  const instant = Date.UTC(1994, 10, 6, 8, 49, 37);

  it.each([
    'Sun, 06 Nov 1994 08:49:37 GMT',
    'Sunday, 06-Nov-94 08:49:37 GMT',
    'Sun Nov  6 08:49:37 1994',
  ])('parses the RFC 9110 form %j', (text) => {
    expect(parseHttpDate(text, new Date('2026-01-01T00:00:00Z'))?.getTime()).toBe(instant);
  });

  it('maps two-digit years more than 50 years ahead to the previous century', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(parseHttpDate('Wednesday, 01-Jan-76 00:00:00 GMT', now)?.getUTCFullYear()).toBe(2076);
    expect(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', now)?.getUTCFullYear()).toBe(1977);
    expect(parseHttpDate('Thursday, 01-Jan-87 00:00:00 GMT', new Date('2026-06-01T00:00:00Z'))?.getUTCFullYear()).toBe(
      1987,
    );
  });

  it.each([
    '',
    '0',
    'tomorrow',
    'Mon, 06 Nov 1994 08:49:37 GMT', // wrong weekday
    'Sun, 06 nov 1994 08:49:37 GMT', // case-sensitive
    'Sun, 06 Nov 1994 08:49:37 gmt',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 +0000',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06 Nov 1994 08:60:00 GMT',
    'Thu, 30 Feb 2023 00:00:00 GMT',
    ' Sun, 06 Nov 1994 08:49:37 GMT',
    '1994-11-06T08:49:37Z',
  ])('rejects %j', (text) => {
    expect(parseHttpDate(text)).toBeNull();
  });

  it('accepts 29 Feb only in leap years', () => {
    expect(parseHttpDate('Thu, 29 Feb 2024 00:00:00 GMT')).not.toBeNull();
    expect(parseHttpDate('Sun, 29 Feb 2023 00:00:00 GMT')).toBeNull();
  });

  it('formats IMF-fixdate', () => {
    expect(formatHttpDate(new Date(instant))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(formatHttpDate(new Date('2014-12-10T17:20:31.999Z'))).toBe('Wed, 10 Dec 2014 17:20:31 GMT');
    expect(() => formatHttpDate(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatHttpDate(new Date('+010000-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('format then parse is the identity at second precision (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (date) => {
          const text = formatHttpDate(date);
          expect(parseHttpDate(text)?.getTime()).toBe(Math.floor(date.getTime() / 1000) * 1000);
          expect(text).toBe(date.getUTCFullYear() >= 1000 ? date.toUTCString() : text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
