import { describe, it, expect } from 'vitest';
import { compareKeys } from './keys.ts';
import { effectiveLimit, scanListing } from './listing.ts';
import { SortedIndex } from './sorted-index.ts';

function indexOf(keys: string[]): SortedIndex<string, string> {
  const index = new SortedIndex<string, string>((k) => k, compareKeys, 64);
  index.bulkLoad([...keys].sort(compareKeys));
  return index;
}

describe('scanListing', () => {
  it('jumps over a common prefix with O(log n) key reads instead of walking its 100,000 keys', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `folder/${String(i).padStart(6, '0')}`);
    const index = indexOf([...keys, 'a', 'zz']);
    let reads = 0;
    const keyOf = (k: string) => {
      reads++;
      return k;
    };
    const result = scanListing({ index, keyOf, start: index.lowerBound(''), prefix: '', delimiter: '/', marker: '', limit: 10 });
    expect(result.items).toEqual(['a', 'zz']);
    expect(result.commonPrefixes).toEqual(['folder/']);
    expect(reads).toBeLessThan(100);
  });

  it('skips a common prefix at or before the marker, still with few reads', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `folder/${String(i).padStart(6, '0')}`);
    const index = indexOf([...keys, 'zz']);
    let reads = 0;
    const keyOf = (k: string) => {
      reads++;
      return k;
    };
    const marker = 'folder/000005';
    const result = scanListing({ index, keyOf, start: index.upperBound(marker), prefix: '', delimiter: '/', marker, limit: 10 });
    expect(result).toEqual({ items: ['zz'], commonPrefixes: [], last: { kind: 'item', item: 'zz' }, hasMore: false });
    expect(reads).toBeLessThan(100);
  });
});

describe('effectiveLimit', () => {
  it('defaults, clamps and rejects', () => {
    expect(effectiveLimit(undefined, 100, 1000)).toBe(100);
    expect(effectiveLimit(0, 100, 1000)).toBe(100);
    expect(effectiveLimit(1, 100, 1000)).toBe(1);
    expect(effectiveLimit(1000, 100, 1000)).toBe(1000);
    expect(effectiveLimit(1001, 100, 1000)).toBe(1000);
    expect(effectiveLimit(500, 1000, 100)).toBe(100);
    expect(effectiveLimit(-1, 100, 1000)).toBeNull();
    expect(effectiveLimit(2.5, 100, 1000)).toBeNull();
    expect(effectiveLimit(Number.NaN, 100, 1000)).toBeNull();
  });
});
