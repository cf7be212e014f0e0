/**
 * An ordered collection for up to millions of items: a list of sorted chunks (each at most
 * 2 × `load` items) plus, per chunk, the items' keys and the chunk's last key. Lookup is a binary
 * search over the chunk maxima and then inside one chunk (O(log n)); an insert or delete splices
 * one chunk (O(load)) and, on a split or an emptied chunk, the small maxima array (O(n / load)).
 * Listing walks a cursor, so a page costs O(log n + page). (One flat 1M-element array would move
 * ~500k slots per random insert.) Searches read only the compact key arrays, never the items:
 * at a million keys, memory latency, not comparison count, is what a listing page pays for.
 *
 * A large generated collection can be loaded lazily (`lazyLoad`): only the chunk maxima are computed up
 * front, and a chunk's items are built the first time a lookup, cursor, insert or delete reaches it. Each
 * placeholder remembers which generated items it stands for, so inserts and deletes elsewhere (which
 * split or drop built chunks) never shift what a later build produces.
 *
 * The `as` casts below index arrays at positions that the surrounding bounds already guarantee.
 */

export interface Cursor {
  /** chunk index; === chunkCount at the end */
  c: number;
  /** position inside the chunk (always < chunk length unless at the end) */
  i: number;
}

export class SortedIndex<T, K> {
  private chunks: T[][] = [];
  private keyChunks: K[][] = [];
  private maxes: K[] = [];
  private count = 0;
  private readonly keyOf: (item: T) => K;
  private readonly cmp: (a: K, b: K) => number;
  private readonly load: number;
  /**
   * Lazily loaded chunks, parallel to `chunks`: the generated items [from, to) a placeholder stands for
   * (its arrays are empty until built), undefined for a built chunk.
   */
  private unbuilt: Array<readonly [number, number] | undefined> | undefined;
  private unbuiltCount = 0;
  private build: ((from: number, to: number) => T[]) | undefined;

  constructor(keyOf: (item: T) => K, cmp: (a: K, b: K) => number, load = 512) {
    this.keyOf = keyOf;
    this.cmp = cmp;
    this.load = load;
  }

  get size(): number {
    return this.count;
  }

  /** Number of chunks (exposed for tests of the split logic). */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** Replaces the content with `items`, which must be sorted by key and free of duplicates. */
  bulkLoad(items: readonly T[]): void {
    this.unbuilt = undefined;
    this.unbuiltCount = 0;
    this.build = undefined;
    this.chunks = [];
    this.keyChunks = [];
    this.maxes = [];
    for (let start = 0; start < items.length; start += this.load) {
      const chunk = items.slice(start, start + this.load);
      const keys = chunk.map(this.keyOf);
      const last = keys[keys.length - 1];
      if (last === undefined) continue;
      this.chunks.push(chunk);
      this.keyChunks.push(keys);
      this.maxes.push(last);
    }
    this.count = items.length;
  }

  /**
   * Replaces the content with `count` items that are built on demand: `keyAt(i)` is the key of item i and
   * `build(from, to)` returns items from..to-1. Keys must be strictly ascending; a built chunk that breaks
   * this (or whose last key differs from `keyAt`) throws.
   */
  lazyLoad(count: number, keyAt: (index: number) => K, build: (from: number, to: number) => T[]): void {
    this.bulkLoad([]);
    const chunkCount = Math.ceil(count / this.load);
    for (let c = 0; c < chunkCount; c++) {
      this.chunks.push([]);
      this.keyChunks.push([]);
      this.maxes.push(keyAt(Math.min(count, (c + 1) * this.load) - 1));
    }
    this.count = count;
    this.unbuilt = Array.from({ length: chunkCount }, (_, c) => [c * this.load, Math.min(count, (c + 1) * this.load)] as const);
    this.unbuiltCount = chunkCount;
    this.build = build;
    if (chunkCount === 0) {
      this.unbuilt = undefined;
      this.build = undefined;
    }
  }

  /** Chunks not built yet (lazyLoad); 0 once everything is built. */
  get pendingChunks(): number {
    return this.unbuiltCount;
  }

  /** Builds chunk `c` if it is still a placeholder. */
  private ready(c: number): void {
    const range = this.unbuilt?.[c];
    if (this.unbuilt === undefined || range === undefined || this.build === undefined) return;
    const [from, to] = range;
    const items = this.build(from, to);
    const keys = items.map(this.keyOf);
    const before = c > 0 ? this.maxes[c - 1] : undefined;
    for (let i = 0; i < keys.length; i++) {
      const previous = i > 0 ? keys[i - 1] : before;
      if (previous !== undefined && this.cmp(previous, keys[i] as K) >= 0) throw new Error(`lazily built chunk ${c} is not strictly ascending at item ${from + i}`);
    }
    const last = keys[keys.length - 1];
    if (last === undefined || this.cmp(last, this.maxes[c] as K) !== 0) throw new Error(`lazily built chunk ${c} does not end at its announced key`);
    this.chunks[c] = items;
    this.keyChunks[c] = keys;
    this.unbuilt[c] = undefined;
    this.unbuiltCount--;
    if (this.unbuiltCount === 0) {
      this.unbuilt = undefined;
      this.build = undefined;
    }
  }

  /** Builds every chunk still pending (before a mutation, or a full walk). */
  private readyAll(): void {
    for (let c = 0; this.unbuilt !== undefined && c < this.chunks.length; c++) this.ready(c);
  }

  /** First index in `keys[from..]` whose key satisfies the monotone `pred` (keys.length if none). */
  private static firstIn<K>(keys: readonly K[], from: number, pred: (key: K) => boolean): number {
    let lo = from;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(keys[mid] as K)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private cursorIn(c: number, from: number, pred: (key: K) => boolean): Cursor {
    this.ready(c);
    const keys = this.keyChunks[c];
    if (keys === undefined) return { c: this.chunks.length, i: 0 };
    return { c, i: SortedIndex.firstIn(keys, from, pred) };
  }

  /** Cursor at the first item whose key satisfies the monotone predicate (false…false true…true). */
  seek(pred: (key: K) => boolean): Cursor {
    return this.cursorIn(SortedIndex.firstIn(this.maxes, 0, pred), 0, pred);
  }

  /**
   * Like seek, but only looks at or after `from` and gallops over chunks, so it costs
   * O(log distance) instead of O(log n). `pred` must be monotone from `from` onwards.
   */
  seekForward(from: Cursor, pred: (key: K) => boolean): Cursor {
    const maxes = this.maxes;
    const c = from.c;
    if (c >= maxes.length) return { c: this.chunks.length, i: 0 };
    if (pred(maxes[c] as K)) return this.cursorIn(c, from.i, pred);
    // exponential probe over the following chunks' maxima, then binary search in the bracket
    let low = c + 1;
    let high = low;
    let step = 1;
    while (high < maxes.length && !pred(maxes[high] as K)) {
      low = high + 1;
      step *= 2;
      high = c + step;
    }
    if (high > maxes.length) high = maxes.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (pred(maxes[mid] as K)) high = mid;
      else low = mid + 1;
    }
    return this.cursorIn(low, 0, pred);
  }

  /** Cursor at the first item with key >= `key`. */
  lowerBound(key: K): Cursor {
    return this.seek((k) => this.cmp(k, key) >= 0);
  }

  /** Cursor at the first item with key > `key`. */
  upperBound(key: K): Cursor {
    return this.seek((k) => this.cmp(k, key) > 0);
  }

  /** Item under the cursor, or undefined at the end. */
  at(cursor: Cursor): T | undefined {
    this.ready(cursor.c);
    return this.chunks[cursor.c]?.[cursor.i];
  }

  /** Key of the item under the cursor, or undefined at the end. */
  keyAt(cursor: Cursor): K | undefined {
    this.ready(cursor.c);
    return this.keyChunks[cursor.c]?.[cursor.i];
  }

  /** Moves the cursor one item forward (in place). */
  advance(cursor: Cursor): void {
    this.ready(cursor.c);
    cursor.i++;
    const keys = this.keyChunks[cursor.c];
    if (keys !== undefined && cursor.i >= keys.length) {
      cursor.c++;
      cursor.i = 0;
    }
  }

  /** Chunk and position where `key` is or would be inserted. */
  private locate(key: K): { c: number; i: number; found: boolean } {
    const c = SortedIndex.firstIn(this.maxes, 0, (k) => this.cmp(k, key) >= 0);
    this.ready(c);
    const keys = this.keyChunks[c];
    if (keys === undefined) return { c, i: 0, found: false };
    const i = SortedIndex.firstIn(keys, 0, (k) => this.cmp(k, key) >= 0);
    return { c, i, found: i < keys.length && this.cmp(keys[i] as K, key) === 0 };
  }

  get(key: K): T | undefined {
    const { c, i, found } = this.locate(key);
    return found ? this.chunks[c]?.[i] : undefined;
  }

  /** Inserts or replaces the item with the same key; returns the replaced item. */
  set(item: T): T | undefined {
    const key = this.keyOf(item);
    if (this.chunks.length === 0) {
      this.chunks.push([item]);
      this.keyChunks.push([key]);
      this.maxes.push(key);
      this.unbuilt?.push(undefined);
      this.count = 1;
      return undefined;
    }
    let { c, i, found } = this.locate(key);
    if (found) {
      const chunk = this.chunks[c] as T[];
      const existing = chunk[i] as T;
      chunk[i] = item;
      (this.keyChunks[c] as K[])[i] = key;
      return existing;
    }
    if (c === this.chunks.length) {
      // beyond every maximum: append to the last chunk
      c--;
      this.ready(c);
      i = (this.chunks[c] as T[]).length;
    }
    const chunk = this.chunks[c] as T[];
    const keys = this.keyChunks[c] as K[];
    chunk.splice(i, 0, item);
    keys.splice(i, 0, key);
    this.count++;
    if (i === keys.length - 1) this.maxes[c] = key;
    if (chunk.length > 2 * this.load) {
      const tail = chunk.splice(this.load);
      const tailKeys = keys.splice(this.load);
      this.chunks.splice(c + 1, 0, tail);
      this.keyChunks.splice(c + 1, 0, tailKeys);
      this.maxes.splice(c, 0, keys[keys.length - 1] as K);
      this.unbuilt?.splice(c + 1, 0, undefined);
    }
    return undefined;
  }

  /** Removes the item with this key; returns it. */
  delete(key: K): T | undefined {
    const { c, i, found } = this.locate(key);
    if (!found) return undefined;
    const chunk = this.chunks[c] as T[];
    const keys = this.keyChunks[c] as K[];
    const [existing] = chunk.splice(i, 1);
    keys.splice(i, 1);
    this.count--;
    if (keys.length === 0) {
      this.chunks.splice(c, 1);
      this.keyChunks.splice(c, 1);
      this.maxes.splice(c, 1);
      this.unbuilt?.splice(c, 1);
    } else if (i === keys.length) {
      this.maxes[c] = keys[keys.length - 1] as K;
    }
    return existing;
  }

  *values(): IterableIterator<T> {
    this.readyAll();
    for (const chunk of this.chunks) yield* chunk;
  }
}

/** True when cursor a is strictly after cursor b. */
export function cursorAfter(a: Cursor, b: Cursor): boolean {
  return a.c > b.c || (a.c === b.c && a.i > b.i);
}
