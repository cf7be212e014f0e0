import { describe, expect, it } from 'vitest';
import { contentDispositionFor, httpDateFromLocalInput } from './standard-values.ts';

describe('standard-field helpers', () => {
  it('builds Content-Disposition with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDispositionFor('季度报告 "Q3".pdf')).toBe(`attachment; filename="____ _Q3_.pdf"; filename*=UTF-8''%E5%AD%A3%E5%BA%A6%E6%8A%A5%E5%91%8A%20%22Q3%22.pdf`);
    expect(contentDispositionFor('a.txt', 'inline')).toBe(`inline; filename="a.txt"; filename*=UTF-8''a.txt`);
  });

  it('turns a datetime-local value into a Date, and rejects junk', () => {
    const date = httpDateFromLocalInput('2031-12-31T23:59:59');
    expect(date?.getFullYear()).toBe(2031);
    expect(date?.getSeconds()).toBe(59);
    expect(httpDateFromLocalInput('tomorrow')).toBeNull();
  });
});
