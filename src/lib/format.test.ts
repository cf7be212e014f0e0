import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [4 * 1024 * 1024, '4.0 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
    [-1, '—'],
    [Number.NaN, '—'],
  ])('%s bytes reads %s', (input, expected) => {
    // Number and unit are held together by a no-break space (a size never breaks across two lines).
    expect(formatBytes(input)).toBe(expected.replace(' ', '\u00A0'));
  });

  it('never leaves a breakable space inside a size', () => {
    for (const bytes of [0, 1, 1023, 8192, 5 * 1024 ** 2, 3 * 1024 ** 4]) expect(formatBytes(bytes)).not.toMatch(/[ \t]/);
  });
});
