import { describe, expect, it } from 'vitest';
import { globMatch } from './glob.ts';

describe('globMatch', () => {
  it('matches * as any run of characters and everything else literally', () => {
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('http://*.example.com', 'http://a.b.example.com')).toBe(true);
    expect(globMatch('http://*.example.com', 'http://example.com')).toBe(false);
    expect(globMatch('a*b*c', 'abc')).toBe(true);
    expect(globMatch('a*b*c', 'acb')).toBe(false);
    expect(globMatch('ab*ba', 'aba')).toBe(false);
    expect(globMatch('x.y', 'xzy')).toBe(false);
    expect(globMatch('Case', 'case')).toBe(false);
  });
});
