import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { DEMO_BUCKETS, DEMO_TINY_PARTS } from '../../../mocks/seed.ts';
import { createClient } from '../../api/client.ts';
import { DEMO_CONNECTION } from '../../api/connection.ts';
import { DEMO_MIN_PART_SIZE } from '../../api/protocol/demo.ts';
import { listMultipartUploads } from '../../api/multipart/operations.ts';
import {
  completeVerdict,
  countInRanges,
  formatRanges,
  missingRanges,
  presentRanges,
  scanAllParts,
  type PartsPageFetcher,
  type ScanProgress,
  parsePartSelection,
  selectParts,
} from './part-scan.ts';

const { server, emulator } = await setupEmulatorServer({ seed: 'demo', domains: ['qingstor.invalid'] });
const client = createClient(DEMO_CONNECTION);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

async function uploadIdOf(key: string): Promise<string> {
  const page = await listMultipartUploads(client, { zone: 'sh1a', bucket: DEMO_BUCKETS.uploads, prefix: key });
  const id = page.uploads.find((u) => u.key === key)?.upload_id;
  if (!id) throw new Error(`no upload for ${key}`);
  return id;
}

describe('part ranges', () => {
  it('merges consecutive numbers and finds the gaps, numbering from 1 unless part 0 exists', () => {
    expect(presentRanges([1, 2, 5])).toEqual([{ from: 1, to: 2 }, { from: 5, to: 5 }]);
    expect(missingRanges([1, 2, 5])).toEqual([{ from: 3, to: 4 }]);
    expect(missingRanges([3, 7, 8, 12])).toEqual([{ from: 1, to: 2 }, { from: 4, to: 6 }, { from: 9, to: 11 }]);
    expect(missingRanges([0, 2])).toEqual([{ from: 1, to: 1 }]);
    expect(missingRanges([])).toEqual([]);
    expect(formatRanges(missingRanges([1, 2, 4, 8, 10]))).toEqual({ text: '3, 5–7, 9', omitted: 0 });
    expect(formatRanges([{ from: 1, to: 1 }, { from: 3, to: 3 }, { from: 5, to: 9 }], String, 2)).toEqual({ text: '1, 3', omitted: 1 });
    expect(countInRanges([{ from: 3, to: 4 }, { from: 9, to: 9 }])).toBe(3);
  });

  it('judges Complete by the minimum part size of every part but the last', () => {
    const sizes = Float64Array.from([16, 16, 3]);
    const numbers = Int32Array.from([1, 2, 5]);
    expect(completeVerdict({ numbers, sizes }, 16)).toEqual({ ok: true, parts: 3 });
    expect(completeVerdict({ numbers, sizes }, 4 * 1024 * 1024)).toEqual({ ok: false, reason: 'too-small', parts: [{ from: 1, to: 2 }] });
    expect(completeVerdict({ numbers: new Int32Array(0), sizes: new Float64Array(0) }, 16)).toEqual({ ok: false, reason: 'empty' });
  });
});

describe('scanAllParts against the emulator', () => {
  it('pages through the 2,500-part demo upload in three pages of 1000 with totals', async () => {
    const uploadId = await uploadIdOf('backups/db-dump.sql');
    const progress: ScanProgress[] = [];
    const scan = await scanAllParts(client, { zone: 'sh1a', bucket: DEMO_BUCKETS.uploads, key: 'backups/db-dump.sql', uploadId }, { onProgress: (p) => progress.push(p) });
    expect(scan.pages).toBe(3);
    expect(scan.numbers.length).toBe(DEMO_TINY_PARTS);
    expect(progress.map((p) => p.parts)).toEqual([1000, 2000, 2500]);
    // Each seeded part is "-- part 0000001\n" (16 bytes).
    expect(scan.totalBytes).toBe(DEMO_TINY_PARTS * 16);
    expect(missingRanges(scan.numbers)).toEqual([]);
    expect(scan.etags[0]).toMatch(/^[0-9a-f]{32}$/);
    // The demo's own minimum lets this upload complete; the real one would not.
    expect(completeVerdict(scan, DEMO_MIN_PART_SIZE)).toEqual({ ok: true, parts: DEMO_TINY_PARTS });
    expect(completeVerdict(scan, 4 * 1024 * 1024)).toMatchObject({ ok: false, reason: 'too-small' });
  });

  it('pages exactly at the page boundary and reports the gaps of an upload', async () => {
    const { store } = emulator;
    const { uploadId } = store.initiateMultipartUpload(DEMO_BUCKETS.uploads, 'scan/boundary.bin', {});
    // 20 parts with gaps at 3 and 7–9, paged 5 at a time: the last page is full, so one more (empty) request.
    const numbers = [1, 2, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
    for (const n of numbers) store.uploadPart(DEMO_BUCKETS.uploads, 'scan/boundary.bin', uploadId, n, { body: new Uint8Array(n) });
    const scan = await scanAllParts(client, { zone: 'sh1a', bucket: DEMO_BUCKETS.uploads, key: 'scan/boundary.bin', uploadId }, { limit: 5 });
    expect(Array.from(scan.numbers)).toEqual(numbers);
    expect(scan.pages).toBe(5);
    expect(scan.totalBytes).toBe(numbers.reduce((a, b) => a + b, 0));
    expect(formatRanges(missingRanges(scan.numbers)).text).toBe('3, 7–9');
  });
});

/** ListMultipart over an in-memory part list, as the emulator answers it; `count` as given (a hint). */
function fakeListing(partNumbers: readonly number[], count: (all: number) => number | undefined = (all) => all): { fetchPage: PartsPageFetcher; markers: Array<number | undefined> } {
  const sorted = [...partNumbers].sort((a, b) => a - b);
  const markers: Array<number | undefined> = [];
  const fetchPage: PartsPageFetcher = async (marker, limit) => {
    markers.push(marker);
    await Promise.resolve();
    const start = marker === undefined ? 0 : sorted.findIndex((n) => n > marker);
    const slice = start < 0 ? [] : sorted.slice(start, start + limit);
    const total = count(sorted.length);
    return { ...(total === undefined ? {} : { count: total }), object_parts: slice.map((n) => ({ part_number: n, size: n + 1, etag: `"e${n}"` })) };
  };
  return { fetchPage, markers };
}

const noClientRef = { zone: 'sh1a', bucket: 'b', key: 'k', uploadId: 'u' };

describe('scanAllParts with pages fetched at once', () => {
  it('fetches the pages of dense part numbers together and finds the one gap of 10,000 parts', async () => {
    const numbers = Array.from({ length: 10_001 }, (_, n) => n).filter((n) => n !== 5001);
    const { fetchPage, markers } = fakeListing(numbers);
    let inFlight = 0;
    let maxInFlight = 0;
    let rounds = 0;
    const scan = await scanAllParts(client, noClientRef, {
      fetchPage: async (marker, limit, signal) => {
        if (inFlight === 0) rounds += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await fetchPage(marker, limit, signal);
        } finally {
          inFlight -= 1;
        }
      },
    });
    expect(Array.from(scan.numbers)).toEqual(numbers);
    // The tenth page is full, so an eleventh (empty) one says it was the last.
    expect(scan.pages).toBe(11);
    expect(formatRanges(missingRanges(scan.numbers)).text).toBe('5001');
    expect(maxInFlight).toBe(6);
    // Page 1 alone, then six at a time. The page holding the gap ends one part later than density
    // guessed, so the guess after it (5999) is dropped; the rest (4,000 parts by the count, and the empty
    // page that ends the listing) is fetched together from the verified marker 6000: three rounds.
    expect(markers).toEqual([undefined, 999, 1999, 2999, 3999, 4999, 5999, 6000, 7000, 8000, 9000, 10000]);
    expect(rounds).toBe(3);
  });

  it('gives the same parts, totals and page count as scanning one page at a time, whatever the numbers and the count hint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 50 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<'right' | 'missing' | 'low' | 'high'>('right', 'missing', 'low', 'high'),
        async (numbers, limit, hint) => {
          const count = (all: number) => (hint === 'right' ? all : hint === 'missing' ? undefined : hint === 'low' ? Math.min(all, limit) : all * 3 + 5);
          const one = await scanAllParts(client, noClientRef, { limit, concurrency: 1, fetchPage: fakeListing(numbers, count).fetchPage });
          const many = await scanAllParts(client, noClientRef, { limit, concurrency: 4, fetchPage: fakeListing(numbers, count).fetchPage });
          expect(Array.from(many.numbers)).toEqual([...numbers].sort((a, b) => a - b));
          expect(Array.from(many.numbers)).toEqual(Array.from(one.numbers));
          expect(Array.from(many.sizes)).toEqual(Array.from(one.sizes));
          expect(many.etags).toEqual(one.etags);
          expect(many.totalBytes).toBe(one.totalBytes);
          expect(many.pages).toBe(one.pages);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same result for nearly dense uploads, where pages are guessed and some guesses miss', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 12 }),
        fc.integer({ min: 20, max: 400 }),
        fc.constantFrom<'right' | 'missing' | 'high'>('right', 'missing', 'high'),
        async (last, removed, limit, hint) => {
          const numbers = Array.from({ length: last + 1 }, (_, n) => n).filter((n) => !removed.includes(n));
          const count = (all: number) => (hint === 'right' ? all : hint === 'missing' ? undefined : all + 5 * limit);
          const listing = fakeListing(numbers, count);
          const many = await scanAllParts(client, noClientRef, { limit, concurrency: 6, fetchPage: listing.fetchPage });
          expect(Array.from(many.numbers)).toEqual(numbers);
          expect(many.totalBytes).toBe(numbers.reduce((sum, n) => sum + n + 1, 0));
          expect(many.pages).toBe(Math.floor(numbers.length / limit) + 1);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('choosing the parts to complete with', () => {
  it('reads numbers and low-to-high ranges separated by commas, and says which item it cannot read', () => {
    expect(parsePartSelection('1-3, 5 ,7–8', 10_000)).toEqual({ ok: true, ranges: [{ from: 1, to: 3 }, { from: 5, to: 5 }, { from: 7, to: 8 }] });
    expect(parsePartSelection('0', 10_000)).toEqual({ ok: true, ranges: [{ from: 0, to: 0 }] });
    expect(parsePartSelection('5-3', 10_000)).toEqual({ ok: false, item: '5-3' });
    expect(parsePartSelection('1, x', 10_000)).toEqual({ ok: false, item: 'x' });
    expect(parsePartSelection('10001', 10_000)).toEqual({ ok: false, item: '10001' });
    expect(parsePartSelection(' , ', 10_000)).toEqual({ ok: false, item: '' });
  });

  it('keeps the present parts inside the ranges, with their sizes and ETags, and lists the ones never uploaded', () => {
    const scan = { numbers: Int32Array.from([1, 2, 5, 6]), sizes: Float64Array.from([10, 20, 30, 40]), etags: ['a', 'b', 'c', 'd'], totalBytes: 100, pages: 1 };
    const { selected, absent } = selectParts(scan, [{ from: 2, to: 5 }]);
    expect(Array.from(selected.numbers)).toEqual([2, 5]);
    expect(Array.from(selected.sizes)).toEqual([20, 30]);
    expect(selected.etags).toEqual(['b', 'c']);
    expect(selected.totalBytes).toBe(50);
    expect(absent).toEqual([3, 4]);
  });
});
