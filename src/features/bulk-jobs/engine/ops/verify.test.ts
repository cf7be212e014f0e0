import { describe, expect, it } from 'vitest';
import { compareCodePoints, latestServerSecond, markerBefore } from './verify.ts';
import type { ObjectHead } from '../../../../api/objects/read.ts';

describe("a write's check from the listing", () => {
  it('starts the listing after a proper prefix of the smallest key, never splitting a character', () => {
    expect(markerBefore('data/o-1.json')).toBe('data/o-1.jso');
    // U+1F600 is two UTF-16 code units: the marker drops both, never leaving a lone surrogate.
    expect(markerBefore('a/😀')).toBe('a/');
    expect(markerBefore('x')).toBe('');
  });

  it("orders keys by code point, the listing's order, where UTF-16 code units disagree", () => {
    // U+FF5E sorts after U+1F600's first code unit (0xD83D) in UTF-16, before it by code point.
    const keys = ['a😀', 'a～', 'a'];
    expect([...keys].sort(compareCodePoints)).toEqual(['a', 'a～', 'a😀']);
    expect([...keys].sort()).toEqual(['a', 'a😀', 'a～']);
  });

  it("puts the copy's answer in a server second, a second's margin for the Date header's truncation", () => {
    const head = { size: 1, metadata: { standard: {}, custom: {} }, serverClock: { serverDate: new Date('2026-11-27T10:00:05Z'), receivedAt: 1_000 } } as ObjectHead;
    // 2.5 s after the HEAD's answer: the server said 10:00:05 then, so it is at most 10:00:08.5 now.
    expect(latestServerSecond(head, 3_500)).toBe(Date.parse('2026-11-27T10:00:08Z') / 1000);
    expect(latestServerSecond({ ...head, serverClock: undefined } as ObjectHead, 3_500)).toBeUndefined();
  });
});
