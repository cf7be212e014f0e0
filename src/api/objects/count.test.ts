import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../protocol/key-order.ts';
import { countKeys, type CountListInput, type CountPage } from './count.ts';

/**
 * A ListObjects over sorted keys, shaped like the emulator's (ref §9.5): keys and common prefixes share
 * the page limit, a common prefix is listed once (only when it sorts after the marker), next_marker is
 * the page's last entry. Each answer arrives after a random number of turns, so listings overtake each other.
 */
function fakeBucket(keys: readonly string[], options: { pageLimit: number; seed?: number; reorder?: boolean } = { pageLimit: 3 }) {
  const sorted = [...new Set(keys)].sort(compareKeys);
  const calls: CountListInput[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let random = options.seed ?? 1;
  const turns = () => {
    random = (random * 48271) % 2147483647;
    return random % 5;
  };
  const list = async (input: CountListInput, signal: AbortSignal): Promise<CountPage> => {
    calls.push(input);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      for (let i = turns(); i > 0; i--) await Promise.resolve();
      signal.throwIfAborted();
      const entries: Array<{ key: string } | { prefix: string }> = [];
      let hasMore = false;
      let lastPrefix: string | undefined;
      for (const key of sorted) {
        if (!key.startsWith(input.prefix) || (input.marker !== '' && compareKeys(key, input.marker) <= 0)) continue;
        const cut = input.delimiter ? key.indexOf(input.delimiter, input.prefix.length) : -1;
        if (cut >= 0) {
          const prefix = key.slice(0, cut + 1);
          if (prefix === lastPrefix) continue;
          lastPrefix = prefix;
          if (input.marker !== '' && compareKeys(prefix, input.marker) <= 0) continue;
          if (entries.length === options.pageLimit) {
            hasMore = true;
            break;
          }
          entries.push({ prefix });
          continue;
        }
        if (entries.length === options.pageLimit) {
          hasMore = true;
          break;
        }
        entries.push({ key });
      }
      const last = entries.at(-1);
      const pageKeys = entries.flatMap((e) => ('key' in e ? [{ key: e.key, size: e.key.length }] : []));
      return {
        keys: options.reorder ? pageKeys.reverse() : pageKeys,
        common_prefixes: entries.flatMap((e) => ('prefix' in e ? [e.prefix] : [])),
        has_more: hasMore,
        next_marker: last === undefined ? '' : 'key' in last ? last.key : last.prefix,
      };
    } finally {
      inFlight--;
    }
  };
  const truth = { count: sorted.filter((k) => k.startsWith('')).length, size: sorted.reduce((sum, k) => sum + k.length, 0) };
  return { list, calls, truth, sorted, maxInFlight: () => maxInFlight };
}

function archive(days: number, perDay: number): string[] {
  const keys: string[] = [];
  for (let d = 0; d < days; d++) {
    for (let n = 0; n < perDay; n++) keys.push(`logs/2024/${String(Math.floor(d / 10) + 1).padStart(2, '0')}/${String((d % 10) + 1).padStart(2, '0')}/event-${n}.json`);
  }
  return keys;
}

describe('countKeys', () => {
  it('counts a folder tree exactly with four listings in flight, in about as many requests as one chain would send', async () => {
    const bucket = fakeBucket(archive(40, 25), { pageLimit: 10 });
    const counted = await countKeys(bucket.list, '', { concurrency: 4 });
    expect(counted).toMatchObject({ count: 1000, size: bucket.truth.size });
    expect(bucket.maxInFlight()).toBe(4);
    const flat = bucket.calls.filter((c) => c.delimiter === undefined).length;
    // One chain: 100 pages. The ranges add one overlapping page each and the splits their delimiter pages.
    expect(flat).toBeLessThan(130);
    expect(counted.pages).toBe(bucket.calls.length);
  });

  it('one listing at a time when asked for one, and no delimiter listings then', async () => {
    const bucket = fakeBucket(archive(4, 10), { pageLimit: 7 });
    expect(await countKeys(bucket.list, '', { concurrency: 1 })).toMatchObject({ count: 40 });
    expect(bucket.maxInFlight()).toBe(1);
    expect(bucket.calls.every((c) => c.delimiter === undefined)).toBe(true);
  });

  it('counts only under the prefix, the folder marker object included', async () => {
    const keys = ['a/', 'a/1', 'a/b/2', 'a/b/3', 'a/c/4', 'a0', 'b/5', '`x'];
    const bucket = fakeBucket(keys, { pageLimit: 2 });
    expect(await countKeys(bucket.list, 'a/', { concurrency: 3 })).toMatchObject({ count: 5, size: 'a/a/1a/b/2a/b/3a/c/4'.length });
    expect(bucket.calls.every((c) => c.prefix.startsWith('a/'))).toBe(true);
  });

  it('a flat namespace (no folders) is counted by one chain', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `img-${String(i).padStart(3, '0')}.jpg`);
    const bucket = fakeBucket(keys, { pageLimit: 4 });
    expect(await countKeys(bucket.list, '', { concurrency: 4 })).toMatchObject({ count: 50 });
    expect(bucket.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('keys on both sides of a boundary in UTF-8 order (astral vs U+FFxx characters) are counted once', async () => {
    const keys = ['d/\u{1F600}/a', 'd/\u{1F600}/b', 'd/\uFF21/a', 'd/\uFF21/b', 'd/\uFF21/c', 'd/z/a', 'd/z/b', 'd/\u00E9/a', 'd/a/a'];
    for (let seed = 1; seed < 30; seed++) {
      const bucket = fakeBucket(keys, { pageLimit: 1, seed });
      expect(await countKeys(bucket.list, '', { concurrency: 4 })).toMatchObject({ count: keys.length });
    }
  });

  it('property: any set of keys, any page size, any concurrency: every key counted exactly once', async () => {
    const segment = fc.constantFrom('a', 'b', 'a-b', 'a.x', 'b!', 'z', 'é', '\uFF21', '\uFF21x', '\u{1F600}', '\u{1F600}x', '0');
    const key = fc.array(segment, { minLength: 1, maxLength: 4 }).chain((parts) =>
      fc.boolean().map((folderMarker) => parts.join('/') + (folderMarker ? '/' : '')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(key, { maxLength: 60 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 1000 }), fc.constantFrom('', '', 'a/', 'b/a'), async (keys, pageLimit, concurrency, seed, prefix) => {
        const bucket = fakeBucket(keys, { pageLimit, seed });
        const under = bucket.sorted.filter((k) => k.startsWith(prefix));
        const counted = await countKeys(bucket.list, prefix, { concurrency });
        expect(counted.count).toBe(under.length);
        expect(counted.size).toBe(under.reduce((sum, k) => sum + k.length, 0));
      }),
      { numRuns: 400 },
    );
  });

  it('a server that does not answer in key order makes the count start over as one chain, still exact', async () => {
    const bucket = fakeBucket(archive(6, 8), { pageLimit: 5, reorder: true });
    expect(await countKeys(bucket.list, '', { concurrency: 4 })).toMatchObject({ count: 48 });
  });

  it('reports running figures after each page, ending at the total', async () => {
    const bucket = fakeBucket(archive(10, 10), { pageLimit: 10 });
    const seen: number[] = [];
    const counted = await countKeys(bucket.list, '', { concurrency: 4, onPage: (c) => seen.push(c.count) });
    expect(seen.at(-1)).toBe(counted.count);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('stops every listing once aborted and rejects with the reason', async () => {
    const bucket = fakeBucket(archive(20, 20), { pageLimit: 5 });
    const controller = new AbortController();
    const reason = new Error('stopped by the user');
    const counting = countKeys(bucket.list, '', {
      concurrency: 4,
      signal: controller.signal,
      onPage: (c) => {
        if (c.pages === 10) controller.abort(reason);
      },
    });
    await expect(counting).rejects.toBe(reason);
    const calls = bucket.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bucket.calls.length).toBe(calls);
    expect(calls).toBeLessThan(20);
  });

  it('a failed listing fails the count with its error', async () => {
    const bucket = fakeBucket(archive(10, 10), { pageLimit: 5 });
    let n = 0;
    const failing = (input: CountListInput, signal: AbortSignal) => (++n === 6 ? Promise.reject(new Error('503 slow down')) : bucket.list(input, signal));
    await expect(countKeys(failing, '', { concurrency: 4 })).rejects.toThrow('503 slow down');
  });
});
