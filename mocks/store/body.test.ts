import { describe, it, expect } from 'vitest';
import { bodyToBytes, bodyToStream, joinBodies, makeBody, readBodyRange, segmentBytes } from './body.ts';

function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

describe('object bodies', () => {
  const a = bytes(0, 1, 2);
  const b = bytes(3, 4);
  const c = bytes(5, 6, 7, 8);
  const body = makeBody([a, new Uint8Array(0), b, c]);

  it('records offsets and drops empty chunks', () => {
    expect(body.size).toBe(9);
    expect(body.offsets).toEqual([0, 3, 5]);
    expect(body.chunks[0]).toBe(a);
  });

  it('returns views, not copies, for ranges across chunks', () => {
    const views = readBodyRange(body, 2, 7);
    const arrays = views.map(segmentBytes);
    expect(arrays.map((v) => [...v])).toEqual([[2], [3, 4], [5, 6]]);
    expect(arrays[0]?.buffer).toBe(a.buffer);
    expect(views[1]).toBe(b); // a whole chunk is handed out as is
    expect(arrays[2]?.buffer).toBe(c.buffer);
  });

  it('clamps and handles empty ranges', () => {
    expect(readBodyRange(body, 7, 100).map((v) => [...segmentBytes(v)])).toEqual([[7, 8]]);
    expect(readBodyRange(body, 9, 12)).toEqual([]);
    expect(readBodyRange(body, 4, 4)).toEqual([]);
    expect(readBodyRange(makeBody([]), 0, 10)).toEqual([]);
  });

  it('concatenates only on request', () => {
    expect([...bodyToBytes(body)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(bodyToBytes(body, 5, 9).buffer).toBe(c.buffer); // single chunk: no copy
    expect([...bodyToBytes(body, 1, 4)]).toEqual([1, 2, 3]);
  });

  it('joins bodies by reference', () => {
    const joined = joinBodies([body, makeBody(bytes(9))]);
    expect(joined.size).toBe(10);
    expect(joined.offsets).toEqual([0, 3, 5, 9]);
    expect(joined.chunks[2]).toBe(c);
  });

  it('streams chunk views', async () => {
    const parts: number[][] = [];
    for await (const chunk of bodyToStream(body, 1, 8)) parts.push([...chunk]);
    expect(parts).toEqual([[1, 2], [3, 4], [5, 6, 7]]);
  });
});
