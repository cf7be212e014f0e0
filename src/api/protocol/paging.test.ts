import { describe, expect, it } from 'vitest';
import { markerGuard, pages, unlessRepeated } from './paging.ts';

/** A listing of `total` numbered items served `size` at a time; the marker is the last number of a page. */
function numberedListing(total: number, size: number) {
  const requested: (number | undefined)[] = [];
  return {
    requested,
    fetchPage: (marker: number | undefined): Promise<number[]> => {
      requested.push(marker);
      const from = (marker ?? 0) + 1;
      return Promise.resolve(Array.from({ length: Math.max(0, Math.min(size, total - from + 1)) }, (_, i) => from + i));
    },
    nextMarker: (page: number[]) => (page.length < size ? undefined : page.at(-1)),
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('pages', () => {
  it('yields every page in order, asking each with the marker the previous one ended at', async () => {
    const listing = numberedListing(7, 3);
    expect(await collect(pages(listing))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(listing.requested).toEqual([undefined, 3, 6]);
  });

  it('a full last page costs one more (empty) request, as a listing without has_more needs', async () => {
    const listing = numberedListing(6, 3);
    expect(await collect(pages(listing))).toEqual([[1, 2, 3], [4, 5, 6], []]);
  });

  it('stops when the server repeats a marker instead of asking for it forever', async () => {
    let calls = 0;
    const stuck = pages({
      fetchPage: () => {
        calls += 1;
        if (calls > 10) throw new Error('looped');
        return Promise.resolve({ next: 'same' });
      },
      nextMarker: (page) => page.next,
    });
    expect(await collect(stuck)).toHaveLength(2);
    expect(calls).toBe(2);
  });

  it('stops on a cycle of composite markers too (key and upload id)', async () => {
    const cycle = [{ key: 'a', id: '1' }, { key: 'b', id: '2' }, { key: 'a', id: '1' }];
    let i = 0;
    const seen = await collect(pages({ fetchPage: () => Promise.resolve(i++), nextMarker: (n) => cycle[n] }));
    expect(seen).toEqual([0, 1, 2]);
  });

  it('passes the marker a page was fetched with to nextMarker (offset paging)', async () => {
    const offsets: (number | undefined)[] = [];
    const listing = pages({
      fetchPage: (offset: number | undefined) => {
        offsets.push(offset);
        return Promise.resolve((offset ?? 0) < 5 ? 2 : 0);
      },
      nextMarker: (count, offset) => (count === 0 ? undefined : (offset ?? 0) + count),
    });
    await collect(listing);
    expect(offsets).toEqual([undefined, 2, 4, 6]);
  });

  it('stops between pages once the signal is aborted', async () => {
    const controller = new AbortController();
    const listing = numberedListing(100, 10);
    const seen: number[][] = [];
    const run = (async () => {
      for await (const page of pages({ ...listing, signal: controller.signal })) {
        seen.push(page);
        if (seen.length === 2) controller.abort(new Error('stop'));
      }
    })();
    await expect(run).rejects.toThrow('stop');
    expect(listing.requested).toEqual([undefined, 10]);
  });
});

describe('markerGuard and unlessRepeated', () => {
  it('markerGuard reports a marker the second time it is seen', () => {
    const guard = markerGuard<number | string>();
    expect(guard.repeats(3)).toBe(false);
    expect(guard.repeats('3')).toBe(false);
    expect(guard.repeats(3)).toBe(true);
  });

  it('unlessRepeated ends a listing whose next marker was already requested', () => {
    expect(unlessRepeated('b', ['', 'a'])).toBe('b');
    expect(unlessRepeated('a', ['', 'a'])).toBeUndefined();
    expect(unlessRepeated({ keyMarker: 'k', uploadIdMarker: 'u' }, [null, { keyMarker: 'k', uploadIdMarker: 'u' }])).toBeUndefined();
    expect(unlessRepeated(undefined, [])).toBeUndefined();
  });
});
