import { describe, expect, it } from 'vitest';
import { quoteEtag, unquoteEtag } from './etag.ts';

describe('ETags', () => {
  it.each([
    ['"d41d8cd98f00b204e9800998ecf8427e"', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['d41d8cd98f00b204e9800998ecf8427e', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['W/"abc"', 'abc'],
    ['  "abc"  ', 'abc'],
    ['"', '"'],
    ['""', ''],
    ['"a"b"', 'a"b'],
  ])('unquotes %j to %j', (input, bare) => {
    expect(unquoteEtag(input)).toBe(bare);
  });

  it('quotes exactly once, whatever form it is given', () => {
    expect(quoteEtag('abc')).toBe('"abc"');
    expect(quoteEtag('"abc"')).toBe('"abc"');
    expect(quoteEtag('W/"abc"')).toBe('"abc"');
  });
});
