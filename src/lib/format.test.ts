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
    expect(formatBytes(input)).toBe(expected);
  });
});
