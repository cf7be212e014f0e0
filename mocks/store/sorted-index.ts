/**
 * An ordered collection for up to millions of items: a list of sorted chunks (each at most
 * 2 × `load` items) plus the last key of every chunk. Lookup is a binary search over the chunk
 * maxima and then inside one chunk (O(log n)); an insert or delete splices one chunk (O(load)) and,
 * on a split or an emptied chunk, the small maxima array (O(n / load)). Listing walks a cursor, so a
 * page costs O(log n + page). One flat 1M-element array would move ~500k slots per random insert.
 */

export interface Cursor {
  /** chunk index; === chunkCount at the end */
  c: number;
  /** position inside the chunk */
  i: number;
}

export class SortedIndex<T, K> {
  private chunks: T[][] = [];
  private maxes: K[] = [];
  private count = 0;
  private readonly keyOf: (item: T) => K;
  private readonly cmp: (a: K, b: K) => number;
  private readonly load: number;

  constructor(keyOf: (item: T) => K, cmp: (a: K, b: K) => number, load = 512) {
    this.keyOf = keyOf;
    this.cmp = cmp;
    this.load = load;
  }

  get size(): number {
    return this.count;
  }

  /** Replaces the content with `items`, which must be sorted by key and free of duplicates. */
  bulkLoad(items: readonly T[]): void {
    this.chunks = [];
    this.maxes = [];
    for (let start = 0; start < items.length; start += this.load) {
      const chunk = items.slice(start, start + this.load);
      const last = chunk[chunk.length - 1];
      if (last === undefined) continue;
      this.chunks.push(chunk);
      this.maxes.push(this.keyOf(last));
    }
    this.count = items.length;
  }

  /** First chunk whose maximum satisfies `pred` (monotone false…true over the order). */
  private chunkWhere(pred: (item: T) => boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      const last = chunk === undefined ? undefined : chunk[chunk.length - 1];
      if (last !== undefined && pred(last)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private chunkForKey(key: K): number {
    let lo = 0;
    let hi = this.maxes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(this.maxes[mid] as K, key) >= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private positionInChunk(chunk: readonly T[], key: K, strict: boolean): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.cmp(this.keyOf(chunk[mid] as T), key);
      if (strict ? c > 0 : c >= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Cursor at the first item satisfying the monotone predicate (false for a prefix of the order, then true). */
  seek(pred: (item: T) => boolean): Cursor {
    const c = this.chunkWhere(pred);
    const chunk = this.chunks[c];
    if (chunk === undefined) return { c, i: 0 };
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(chunk[mid] as T)) hi = mid;
      else lo = mid + 1;
    }
    return { c, i: lo };
  }

  /** Cursor at the first item with key >= `key`. */
  lowerBound(key: K): Cursor {
    return this.bound(key, false);
  }

  /** Cursor at the first item with key > `key`. */
  upperBound(key: K): Cursor {
    return this.bound(key, true);
  }

  private bound(key: K, strict: boolean): Cursor {
    let lo = 0;
    let hi = this.maxes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.cmp(this.maxes[mid] as K, key);
      if (strict ? c > 0 : c >= 0) hi = mid;
      else lo = mid + 1;
    }
    const chunk = this.chunks[lo];
    if (chunk === undefined) return { c: lo, i: 0 };
    return { c: lo, i: this.positionInChunk(chunk, key, strict) };
  }

  /** Item under the cursor, or undefined at the end. */
  at(cursor: Cursor): T | undefined {
    return this.chunks[cursor.c]?.[cursor.i];
  }

  /** Moves the cursor one item forward (in place). */
  advance(cursor: Cursor): void {
    cursor.i++;
    const chunk = this.chunks[cursor.c];
    if (chunk !== undefined && cursor.i >= chunk.length) {
      cursor.c++;
      cursor.i = 0;
    }
  }

  get(key: K): T | undefined {
    const c = this.chunkForKey(key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return undefined;
    const item = chunk[this.positionInChunk(chunk, key, false)];
    return item !== undefined && this.cmp(this.keyOf(item), key) === 0 ? item : undefined;
  }

  /** Inserts or replaces the item with the same key; returns the replaced item. */
  set(item: T): T | undefined {
    const key = this.keyOf(item);
    if (this.chunks.length === 0) {
      this.chunks.push([item]);
      this.maxes.push(key);
      this.count = 1;
      return undefined;
    }
    let c = this.chunkForKey(key);
    if (c === this.chunks.length) c--; // beyond every maximum: append to the last chunk
    const chunk = this.chunks[c] as T[];
    const i = this.positionInChunk(chunk, key, false);
    const existing = chunk[i];
    if (existing !== undefined && this.cmp(this.keyOf(existing), key) === 0) {
      chunk[i] = item;
      return existing;
    }
    chunk.splice(i, 0, item);
    this.count++;
    if (i === chunk.length - 1) this.maxes[c] = key;
    if (chunk.length > 2 * this.load) {
      const tail = chunk.splice(this.load);
      this.chunks.splice(c + 1, 0, tail);
      this.maxes.splice(c, 0, this.keyOf(chunk[chunk.length - 1] as T));
    }
    return undefined;
  }

  /** Removes the item with this key; returns it. */
  delete(key: K): T | undefined {
    const c = this.chunkForKey(key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return undefined;
    const i = this.positionInChunk(chunk, key, false);
    const existing = chunk[i];
    if (existing === undefined || this.cmp(this.keyOf(existing), key) !== 0) return undefined;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.maxes.splice(c, 1);
    } else if (i === chunk.length) {
      this.maxes[c] = this.keyOf(chunk[chunk.length - 1] as T);
    }
    return existing;
  }

  *values(): IterableIterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** Number of chunks (exposed for tests of the split logic). */
  get chunkCount(): number {
    return this.chunks.length;
  }
}

/** True when cursor a is strictly after cursor b. */
export function cursorAfter(a: Cursor, b: Cursor): boolean {
  return a.c > b.c || (a.c === b.c && a.i > b.i);
}
