/**
 * Counting every key under a prefix with several listings at once.
 *
 * A listing is a chain: each page is asked for with the marker the previous one ended at (ref §9.5), so
 * one chain waits a whole round trip per page, and a server that answers 100 keys a page (ref §12) makes
 * that a round trip per 100 keys. Chains over disjoint key ranges do not wait for each other. The ranges
 * come from the bucket's own folders: a delimiter listing names the folders after a point of a range, and
 * a folder name is a boundary no key straddles. A range `[from, to)` is listed flat from the marker just
 * below `from` (the boundary without its trailing delimiter, a proper prefix of it, so smaller), counting
 * the keys at or above `from` and stopping at the first key at or above `to`. Every key is counted by
 * exactly one range whatever the boundaries are, because the ranges partition the key order; the folders
 * only make the parts even. Keys without folders (a flat namespace) leave nothing to split on: the count
 * then runs as one chain, as before.
 *
 * The ranges rely on the listing order being key order (ref §9.5, `compareKeys`). Every page is checked
 * for it; a server that answers in another order makes the count start over as one chain, which is
 * right for any order.
 */
import { compareKeys } from '../protocol/key-order.ts';

/** What a count needs of one ListObjects page (ref §9.5). */
export interface CountPage {
  keys: ReadonlyArray<{ key: string; size: number }>;
  common_prefixes: readonly string[];
  has_more: boolean;
  next_marker: string;
}

export interface CountListInput {
  prefix: string;
  marker: string;
  /** '/' for the delimiter listings that find boundaries; absent for the flat listings that count. */
  delimiter?: string;
}

export type CountLister = (input: CountListInput, signal: AbortSignal) => Promise<CountPage>;

export interface PrefixCount {
  /** Keys counted so far (every key under the prefix, the folder marker objects included). */
  count: number;
  /** Sum of their sizes in bytes. */
  size: number;
  /** ListObjects pages read so far (the flat ones that count and the delimiter ones that split). */
  pages: number;
}

export interface CountOptions {
  /** Listings in flight at most. Default COUNT_CONCURRENCY. */
  concurrency?: number;
  signal?: AbortSignal | undefined;
  /** The running figures, after every page. */
  onPage?: (counted: PrefixCount) => void;
}

/**
 * Enough chains to hide each one's round trips behind the others' (one chain was measured at several times
 * the Node loop's time in Chromium, bench/count-all.ts), few enough to leave two of a browser's six
 * HTTP/1.1 connections per host to the rest of the console while a count runs.
 */
export const COUNT_CONCURRENCY = 4;

const DELIMITER = '/';

/** Pages a range must read after a failed split before it is tried again (a flat stretch of keys). */
const SPLIT_RETRY_PAGES = 16;

/** Folder levels one split goes down at most. */
const MAX_SPLIT_DEPTH = 32;

interface Range {
  /** Inclusive lower bound; undefined: from the start of the prefix. */
  from: string | undefined;
  /** Exclusive upper bound; undefined: to the end of the prefix. */
  to: string | undefined;
  /** The next flat page starts after this key. */
  marker: string;
  /** The last key this range counted (a split boundary must lie above it). */
  last: string | undefined;
  pages: number;
  done: boolean;
  /** `pages` when a split of this range last found no boundary. */
  splitFailedAt: number | undefined;
}

/** Thrown inside a run when a page is out of key order: the count starts over as one chain. */
class OrderBroken extends Error {}

function belowBoundary(boundary: string): string {
  // A boundary is a common prefix ending in the delimiter; without it, it is a proper prefix: smaller.
  return boundary.slice(0, -DELIMITER.length);
}

/** The next folder below `folder` on the way to `key` (`folder` + one segment + '/'), or undefined. */
function childFolderOf(folder: string, key: string): string | undefined {
  if (!key.startsWith(folder)) return undefined;
  const cut = key.indexOf(DELIMITER, folder.length);
  return cut < 0 ? undefined : key.slice(0, cut + DELIMITER.length);
}

/** The deepest folder (at least `prefix`) holding every key between `from` and `to`: where to look for boundaries. */
function commonFolder(prefix: string, from: string | undefined, to: string | undefined): string {
  if (from === undefined || to === undefined) return prefix;
  let n = 0;
  while (n < from.length && n < to.length && from[n] === to[n]) n++;
  const cut = from.lastIndexOf(DELIMITER, n - 1);
  const folder = cut < 0 ? '' : from.slice(0, cut + DELIMITER.length);
  return folder.length > prefix.length && folder.startsWith(prefix) ? folder : prefix;
}

/**
 * The number and total size of every key under `prefix`, read with up to `concurrency` listings in
 * flight. Keeps no keys: memory stays one page per listing however large the bucket.
 */
export async function countKeys(list: CountLister, prefix: string, options: CountOptions = {}): Promise<PrefixCount> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? COUNT_CONCURRENCY));
  try {
    return await countRun(list, prefix, concurrency, options);
  } catch (error) {
    if (!(error instanceof OrderBroken)) throw error;
    return countRun(list, prefix, 1, options);
  }
}

async function countRun(list: CountLister, prefix: string, concurrency: number, options: CountOptions): Promise<PrefixCount> {
  const counted: PrefixCount = { count: 0, size: 0, pages: 0 };
  // One controller for the run: a failure anywhere stops every listing of it.
  const controller = new AbortController();
  const outer = options.signal;
  const stop = () => controller.abort(outer?.reason);
  if (outer?.aborted) throw outer.reason;
  outer?.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  const ranges: Range[] = [];
  const running = new Set<Promise<void>>();
  let splitting = false;
  let failure: { error: unknown } | undefined;

  const report = () => options.onPage?.({ ...counted });

  const fetchPage = async (input: CountListInput): Promise<CountPage> => {
    const page = await list(input, signal);
    counted.pages += 1;
    // One chain is right whatever the order; several need key order (see the top of this file).
    if (concurrency === 1) return page;
    let previous = input.marker === '' ? undefined : input.marker;
    for (const { key } of page.keys) {
      if (previous !== undefined && compareKeys(previous, key) >= 0) throw new OrderBroken();
      previous = key;
    }
    return page;
  };

  const work = async (range: Range): Promise<void> => {
    while (!range.done) {
      const page = await fetchPage({ prefix, marker: range.marker });
      range.pages += 1;
      for (const entry of page.keys) {
        // `to` may have moved down while this page was on its way (a split): it is read per key.
        if (range.to !== undefined && compareKeys(entry.key, range.to) >= 0) {
          range.done = true;
          break;
        }
        if (range.from !== undefined && compareKeys(entry.key, range.from) < 0) continue;
        counted.count += 1;
        counted.size += entry.size;
        range.last = entry.key;
      }
      if (!range.done) {
        const next = page.next_marker;
        if (!page.has_more || next === '' || next === range.marker) range.done = true;
        else range.marker = next;
      }
      report();
    }
  };

  /**
   * A boundary inside what `range` has left, found by delimiter listings from where it stands, one folder
   * deeper each time the rest of the range lies inside one folder. Undefined: none (flat keys).
   */
  const findBoundary = async (range: Range): Promise<string | undefined> => {
    const position = range.last ?? range.marker;
    // A boundary must leave what was counted (or the range's start) below it, and the range's end above.
    const floor = range.last ?? range.from;
    let folder = commonFolder(prefix, floor, range.to);
    for (let depth = 0; depth < MAX_SPLIT_DEPTH; depth++) {
      const page = await fetchPage({ prefix: folder, marker: position, delimiter: DELIMITER });
      const folders = page.common_prefixes.filter((c) => (floor === undefined || compareKeys(c, floor) > 0) && (range.to === undefined || compareKeys(c, range.to) < 0));
      const firstKey = page.keys[0]?.key;
      const firstFolder = folders[0];
      // The first thing left in the range stays with it; a boundary is one of the folders after it.
      const candidates = firstFolder !== undefined && (firstKey === undefined || compareKeys(firstFolder, firstKey) < 0) ? folders.slice(1) : folders;
      if (candidates.length > 0) return candidates[Math.floor((candidates.length - 1) / 2)];
      if (firstKey !== undefined && (firstFolder === undefined || compareKeys(firstKey, firstFolder) < 0)) return undefined;
      // Nothing to split at this level: go into the folder the rest of the range starts in.
      const deeper = firstFolder ?? childFolderOf(folder, position);
      if (deeper === undefined || deeper.length <= folder.length) return undefined;
      folder = deeper;
    }
    return undefined;
  };

  const split = async (range: Range): Promise<void> => {
    const boundary = await findBoundary(range);
    // The range kept counting while the boundary was looked for: it must still lie ahead of it.
    if (boundary === undefined || range.done || (range.last !== undefined && compareKeys(boundary, range.last) <= 0) || (range.to !== undefined && compareKeys(boundary, range.to) >= 0)) {
      range.splitFailedAt = range.pages;
      return;
    }
    const upper: Range = { from: boundary, to: range.to, marker: belowBoundary(boundary), last: undefined, pages: 0, done: false, splitFailedAt: undefined };
    range.to = boundary;
    ranges.push(upper);
    start(() => work(upper));
  };

  const start = (task: () => Promise<void>) => {
    const promise = task().then(
      () => undefined,
      (error: unknown) => {
        failure ??= { error };
        controller.abort(error);
      },
    );
    const tracked = promise.finally(() => running.delete(tracked));
    running.add(tracked);
  };

  /** The live range that has read the most pages and may be split now. */
  const splitCandidate = (): Range | undefined => {
    let best: Range | undefined;
    for (const range of ranges) {
      if (range.done) continue;
      if (range.splitFailedAt !== undefined && range.pages - range.splitFailedAt < SPLIT_RETRY_PAGES) continue;
      if (!best || range.pages > best.pages) best = range;
    }
    return best;
  };

  const first: Range = { from: undefined, to: undefined, marker: '', last: undefined, pages: 0, done: false, splitFailedAt: undefined };
  ranges.push(first);
  start(() => work(first));
  try {
    while (running.size > 0) {
      const live = ranges.filter((r) => !r.done).length;
      if (concurrency > 1 && !splitting && !failure && live < concurrency) {
        const candidate = splitCandidate();
        if (candidate) {
          splitting = true;
          start(() => split(candidate).finally(() => (splitting = false)));
        }
      }
      await Promise.race(running);
    }
  } finally {
    outer?.removeEventListener('abort', stop);
  }
  if (outer?.aborted) throw outer.reason;
  if (failure) throw failure.error;
  return counted;
}
