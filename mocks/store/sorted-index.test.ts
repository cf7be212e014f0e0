import { describe, it, expect } from 'vitest';
import { array, assert, boolean, integer, property, tuple } from 'fast-check';
import { SortedIndex } from './sorted-index.ts';

function numbers(load: number): SortedIndex<number, number> {
  return new SortedIndex<number, number>(
    (x) => x,
    (a, b) => a - b,
    load,
  );
}

function collect(index: SortedIndex<number, number>): number[] {
  return [...index.values()];
}

describe('SortedIndex', () => {
  it('matches a reference sorted set under random inserts and deletes, with tiny chunks', () => {
    assert(
      property(array(tuple(boolean(), integer({ min: 0, max: 300 })), { maxLength: 600 }), (ops) => {
        const index = numbers(4);
        const reference = new Set<number>();
        for (const [insert, value] of ops) {
          const had = reference.has(value);
          const previous = insert ? index.set(value) : index.delete(value);
          expect(previous === undefined).toBe(!had);
          if (insert) reference.add(value);
          else reference.delete(value);
        }
        const expected = [...reference].sort((a, b) => a - b);
        expect(collect(index)).toEqual(expected);
        expect(index.size).toBe(expected.length);
        for (let probe = -1; probe <= 301; probe += 7) {
          const lb = index.at(index.lowerBound(probe));
          const ub = index.at(index.upperBound(probe));
          expect(lb).toBe(expected.find((x) => x >= probe));
          expect(ub).toBe(expected.find((x) => x > probe));
          expect(index.get(probe)).toBe(reference.has(probe) ? probe : undefined);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('splits chunks as it grows and walks every item with a cursor', () => {
    const index = numbers(8);
    for (let i = 999; i >= 0; i--) index.set(i * 2);
    expect(index.chunkCount).toBeGreaterThan(1000 / 16);
    const cursor = index.lowerBound(501); // first even >= 501 is 502
    const seen: number[] = [];
    for (let item = index.at(cursor); item !== undefined; item = index.at(cursor)) {
      seen.push(item);
      index.advance(cursor);
    }
    expect(seen[0]).toBe(502);
    expect(seen).toHaveLength(1000 - 251);
    expect(seen[seen.length - 1]).toBe(1998);
  });

  it('seek finds the first item satisfying a monotone predicate; past-the-end yields undefined', () => {
    const index = numbers(4);
    index.bulkLoad(Array.from({ length: 100 }, (_, i) => i));
    expect(index.at(index.seek((x) => x * x >= 50))).toBe(8);
    expect(index.at(index.seek((x) => x > 1000))).toBeUndefined();
    expect(index.at(index.seek(() => true))).toBe(0);
  });

  it('seekForward agrees with seek from any starting cursor', () => {
    assert(
      property(array(integer({ min: 0, max: 500 }), { maxLength: 300 }), integer({ min: 0, max: 500 }), integer({ min: 0, max: 500 }), (values, from, threshold) => {
        const index = numbers(3);
        for (const v of values) index.set(v);
        const start = index.lowerBound(from);
        const pred = (x: number) => x >= Math.max(from, threshold);
        expect(index.at(index.seekForward(start, pred))).toBe(index.at(index.seek(pred)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps working after bulkLoad, including inserts beyond the maximum and emptying chunks', () => {
    const index = numbers(4);
    index.bulkLoad([1, 3, 5, 7, 9, 11]);
    index.set(100);
    index.set(0);
    for (const x of [1, 3, 5, 7]) index.delete(x);
    expect(collect(index)).toEqual([0, 9, 11, 100]);
    expect(index.at(index.upperBound(11))).toBe(100);
  });
  it('a lazily loaded index takes inserts and deletes without building the chunks they do not touch', () => {
    assert(
      property(array(tuple(boolean(), integer({ min: -5, max: 405 })), { maxLength: 60 }), (ops) => {
        // 200 generated items 0, 2, 4, … 398 in chunks of 4; odd values and the ends are new keys.
        const built: number[] = [];
        const index = numbers(4);
        index.lazyLoad(200, (i) => i * 2, (from, to) => {
          built.push(from);
          return Array.from({ length: to - from }, (_, k) => (from + k) * 2);
        });
        const reference = new Set(Array.from({ length: 200 }, (_, i) => i * 2));
        for (const [insert, value] of ops) {
          const had = reference.has(value);
          const previous = insert ? index.set(value) : index.delete(value);
          expect(previous === undefined).toBe(!had);
          if (insert) reference.add(value);
          else reference.delete(value);
        }
        // Each mutation builds at most one chunk (the one holding its key).
        expect(built.length).toBeLessThanOrEqual(ops.length);
        expect(index.pendingChunks).toBe(50 - new Set(built).size);
        expect(new Set(built).size).toBe(built.length);
        const expected = [...reference].sort((a, b) => a - b);
        expect(collect(index)).toEqual(expected);
        expect(index.size).toBe(expected.length);
      }),
      { numRuns: 300 },
    );
  });
});
