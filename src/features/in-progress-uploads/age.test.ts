import { describe, expect, it } from 'vitest';
import { formatAge } from './age.ts';

describe('formatAge', () => {
  it('uses the largest whole unit: minutes under an hour, hours under two days, then days', () => {
    expect(formatAge('en', 0)).toBe('0 minutes');
    expect(formatAge('en', 59 * 60_000 + 59_999)).toBe('59 minutes');
    expect(formatAge('en', 60 * 60_000)).toBe('1 hour');
    expect(formatAge('en', 47 * 3_600_000)).toBe('47 hours');
    expect(formatAge('en', 8 * 86_400_000 + 5)).toBe('8 days');
    expect(formatAge('zh-CN', 8 * 86_400_000)).toBe('8天');
    expect(formatAge('en', -5)).toBe('0 minutes');
  });
});
