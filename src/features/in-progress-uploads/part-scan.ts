import type { QsClient } from '../../api/client.ts';
import { listParts, type UploadRef } from '../../api/multipart/operations.ts';
import { MAX_LIST_PARTS_LIMIT, type ListMultipartResult } from '../../api/multipart/schemas.ts';
import { nextPartNumberMarker } from '../../api/multipart/queries.ts';
import { unquoteEtag } from '../../api/protocol/etag.ts';
import { markerGuard } from '../../api/protocol/paging.ts';

/**
 * Everything the inspector knows about one upload after paging through ALL of its parts (ref §8.4: no
 * `has_more`, a page shorter than `limit` is the last). Columnar typed arrays keep 10,000 parts cheap.
 */
export interface PartScan {
  /** Part numbers, ascending. */
  numbers: Int32Array;
  /** Sizes in bytes, same order (-1 when the server did not say). */
  sizes: Float64Array;
  /** Part ETags without quotes, same order ('' when absent). */
  etags: string[];
  totalBytes: number;
  /** How many ListMultipart requests the scan took. */
  pages: number;
}

export interface ScanProgress {
  parts: number;
  bytes: number;
  pages: number;
}

export const SCAN_PAGE_LIMIT = MAX_LIST_PARTS_LIMIT;
/** Pages requested at once while part numbers are dense (each one verified against the page before it). */
export const SCAN_CONCURRENCY = 6;

/** Fetches one page of parts after `marker` (undefined: from the start). */
export type PartsPageFetcher = (marker: number | undefined, limit: number, signal: AbortSignal | undefined) => Promise<ListMultipartResult>;

export interface ScanOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: ScanProgress) => void) | undefined;
  limit?: number | undefined;
  /** How pages are fetched; the inspector passes one that shares its page cache. Default: a ListMultipart request. */
  fetchPage?: PartsPageFetcher | undefined;
  /** At most this many page requests at once (1 = strictly one after another). Default SCAN_CONCURRENCY. */
  concurrency?: number | undefined;
  /** Called with every request the scan makes (its marker), for tests. */
  onRequest?: ((marker: number | undefined) => void) | undefined;
}

/**
 * Pages through every part with the largest page the API allows, reporting after each page.
 *
 * A page is only defined by the marker before it (the last part number of the previous page), so pages
 * are normally fetched one after another. While the part numbers seen so far are dense (fewer missing
 * numbers between the first and the last than a tenth of a page), the next pages are guessed to start
 * where density says they would and are requested together; each guessed page is kept only if the page
 * before it really ended at the guessed marker, otherwise it is dropped and the scan goes on from the
 * last verified page. The listing's `count` (parts of the whole upload, inferred) only bounds how many
 * guesses are made (the pages it announces plus the one that proves the end), never what is accepted.
 */
export async function scanAllParts(client: QsClient, ref: UploadRef, options: ScanOptions = {}): Promise<PartScan> {
  const limit = options.limit ?? SCAN_PAGE_LIMIT;
  const concurrency = Math.max(1, options.concurrency ?? SCAN_CONCURRENCY);
  const fetchPage: PartsPageFetcher =
    options.fetchPage ??
    ((marker, pageLimit, signal) => listParts(client, { ...ref, limit: pageLimit, ...(marker === undefined ? {} : { partNumberMarker: marker }) }, { signal }));
  const request = (marker: number | undefined) => {
    options.onRequest?.(marker);
    return fetchPage(marker, limit, options.signal);
  };
  const numbers: number[] = [];
  const sizes: number[] = [];
  const etags: string[] = [];
  let totalBytes = 0;
  let pages = 0;
  let marker: number | undefined;
  let count: number | undefined;

  // The pages are fetched speculatively, several at once, so this cannot be the sequential `pages` loop;
  // it stops at a repeated marker with the same guard.
  const guard = markerGuard<number>();
  /** Takes one verified page; returns the marker of the next page, or undefined when this was the last. */
  const accept = (page: ListMultipartResult): number | undefined => {
    pages += 1;
    for (const part of page.object_parts) {
      numbers.push(part.part_number);
      const size = part.size ?? -1;
      sizes.push(size);
      if (size > 0) totalBytes += size;
      etags.push(unquoteEtag(part.etag ?? ''));
    }
    if (page.count !== undefined) count = page.count;
    options.onProgress?.({ parts: numbers.length, bytes: totalBytes, pages });
    const next = nextPartNumberMarker(page, limit);
    // A server that repeats a marker would loop forever; stop instead of hammering it.
    return next === undefined || guard.repeats(next) ? undefined : next;
  };

  let next: number | undefined = accept(await request(undefined));
  while (next !== undefined) {
    options.signal?.throwIfAborted();
    marker = next;
    // Requests still expected by the listing's count: its remaining pages and the (short or empty) page
    // that ends the listing; at least 1, since the count is a hint and the pages decide.
    const expected = count === undefined ? concurrency : Math.floor(Math.max(0, count - numbers.length) / limit) + 1;
    const span = (numbers.at(-1) ?? 0) - (numbers[0] ?? 0) + 1;
    const dense = span - numbers.length < limit / 10;
    const width = dense ? Math.max(1, Math.min(concurrency, expected)) : 1;
    const markers = Array.from({ length: width }, (_, i) => (marker ?? 0) + i * limit);
    const requests = markers.map((m) => request(m));
    // Every request is awaited (none is left to reject unobserved); pages are then checked in order.
    const settled = await Promise.allSettled(requests);
    let expectedMarker: number | undefined = marker;
    for (let i = 0; i < settled.length; i++) {
      const result = settled[i];
      if (result === undefined || markers[i] !== expectedMarker) break;
      if (result.status === 'rejected') throw result.reason;
      expectedMarker = accept(result.value);
      if (expectedMarker === undefined) break;
    }
    next = expectedMarker;
  }
  // Servers return ascending part numbers; sort anyway (stable on typed arrays) so gaps are computed right.
  const order = numbers.map((_, i) => i).sort((a, b) => (numbers[a] ?? 0) - (numbers[b] ?? 0));
  return {
    numbers: Int32Array.from(order, (i) => numbers[i] ?? 0),
    sizes: Float64Array.from(order, (i) => sizes[i] ?? -1),
    etags: order.map((i) => etags[i] ?? ''),
    totalBytes,
    pages,
  };
}

/** An inclusive range of part numbers. */
export interface PartRange {
  from: number;
  to: number;
}

/** Consecutive present part numbers merged into ranges (run-length form; 10,000 parts → a handful of runs). */
export function presentRanges(numbers: ArrayLike<number>): PartRange[] {
  const ranges: PartRange[] = [];
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i] ?? 0;
    const last = ranges.at(-1);
    if (last && n === last.to + 1) last.to = n;
    else if (!last || n > last.to) ranges.push({ from: n, to: n });
  }
  return ranges;
}

/**
 * Missing part numbers between the first expected part and the last present one. Part numbers may start at
 * 0 (ref §8; this console's upload engine numbers from 0) or at 1 (a common convention of other tools), and
 * the listing cannot tell which: the expected start is 0 when part 0 exists and 1 otherwise. The part map
 * says so in words when part 0 is absent, since for an upload numbered from 0 that is a gap too.
 */
export function missingRanges(numbers: ArrayLike<number>): PartRange[] {
  const present = presentRanges(numbers);
  const first = present[0];
  if (!first) return [];
  const missing: PartRange[] = [];
  let expected = first.from === 0 ? 0 : 1;
  for (const range of present) {
    if (range.from > expected) missing.push({ from: expected, to: range.from - 1 });
    expected = range.to + 1;
  }
  return missing;
}

export function countInRanges(ranges: readonly PartRange[]): number {
  return ranges.reduce((sum, r) => sum + (r.to - r.from + 1), 0);
}

/** "3, 7–9" — ranges as a person writes them; `format` renders numbers in the user's locale. */
export function formatRanges(ranges: readonly PartRange[], format: (n: number) => string = String, max = Infinity): { text: string; omitted: number } {
  const shown = ranges.slice(0, max).map((r) => (r.from === r.to ? format(r.from) : `${format(r.from)}–${format(r.to)}`));
  return { text: shown.join(', '), omitted: Math.max(0, ranges.length - max) };
}

export type CompleteVerdict =
  | { ok: true; parts: number }
  | { ok: false; reason: 'empty' }
  | { ok: false; reason: 'too-small'; parts: PartRange[] };

/**
 * Whether CompleteMultipartUpload with every present part can succeed (ref §8.5): the listed parts are
 * joined in ascending order, gaps are allowed, and each part except the last must be at least the
 * server's minimum (4 MiB on QingStor). Part sizes unknown to us (-1) are not held against the upload.
 */
export function completeVerdict(scan: Pick<PartScan, 'numbers' | 'sizes'>, minPartSize: number): CompleteVerdict {
  if (scan.numbers.length === 0) return { ok: false, reason: 'empty' };
  const small: number[] = [];
  for (let i = 0; i < scan.numbers.length - 1; i++) {
    const size = scan.sizes[i] ?? -1;
    if (size >= 0 && size < minPartSize) small.push(scan.numbers[i] ?? 0);
  }
  if (small.length > 0) return { ok: false, reason: 'too-small', parts: presentRanges(small) };
  return { ok: true, parts: scan.numbers.length };
}

export type PartSelection = { ok: true; ranges: PartRange[] } | { ok: false; item: string };

/**
 * The parts a user lists to complete with: numbers and ranges separated by commas, "1-100, 150, 200–210".
 * Each number is a part number 0..MAX_PART_NUMBER (ref §8); a range runs low to high.
 */
export function parsePartSelection(text: string, maxPartNumber: number): PartSelection {
  const ranges: PartRange[] = [];
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) return { ok: false, item: '' };
  for (const item of items) {
    if (item === '') continue;
    const match = /^(\d+)(?:\s*[-–]\s*(\d+))?$/.exec(item);
    if (!match) return { ok: false, item };
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from > to || to > maxPartNumber) return { ok: false, item };
    ranges.push({ from, to });
  }
  return { ok: true, ranges };
}

/** The present parts inside `ranges`, and the listed numbers that were never uploaded. */
export function selectParts(scan: PartScan, ranges: readonly PartRange[]): { selected: PartScan; absent: number[] } {
  const inRanges = (n: number) => ranges.some((r) => n >= r.from && n <= r.to);
  const keep: number[] = [];
  for (let i = 0; i < scan.numbers.length; i++) if (inRanges(scan.numbers[i] ?? -1)) keep.push(i);
  const numbers = Int32Array.from(keep, (i) => scan.numbers[i] ?? 0);
  const sizes = Float64Array.from(keep, (i) => scan.sizes[i] ?? -1);
  const present = new Set(numbers);
  const absent: number[] = [];
  for (const r of ranges) for (let n = r.from; n <= r.to && absent.length < 1000; n++) if (!present.has(n)) absent.push(n);
  return {
    selected: { numbers, sizes, etags: keep.map((i) => scan.etags[i] ?? ''), totalBytes: sizes.reduce((sum, s) => sum + Math.max(0, s), 0), pages: scan.pages },
    absent,
  };
}
