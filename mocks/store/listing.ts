import { compareKeys } from './keys.ts';
import type { Cursor, SortedIndex } from './sorted-index.ts';

export interface ScanInput<T, K> {
  index: SortedIndex<T, K>;
  /** the listing key (object key / upload key) of an index key */
  keyOf: (key: K) => string;
  /** first candidate item: already after the marker and at or after the prefix's lower bound */
  start: Cursor;
  prefix: string;
  /** '' = no grouping */
  delimiter: string;
  /** common prefixes <= this are not returned again (their keys were on earlier pages) */
  marker: string;
  limit: number;
}

export interface ScanResult<T> {
  items: T[];
  commonPrefixes: string[];
  /** the last returned entry, or null when the page is empty */
  last: { kind: 'item'; item: T } | { kind: 'prefix'; prefix: string } | null;
  hasMore: boolean;
}

/**
 * Prefix/delimiter/marker listing shared by ListObjects (ref §9.5) and ListMultipartUploads
 * (ref §8.7). Items and common prefixes share `limit` (inferred from the DOCS example). After a
 * common prefix is emitted (or skipped because it was already returned before the marker), the
 * cursor jumps past every key under it with one O(log n) seek, so a page costs O(log n × page)
 * however many keys a "folder" holds.
 */
export function scanListing<T, K>(input: ScanInput<T, K>): ScanResult<T> {
  const { index, keyOf, prefix, delimiter, marker, limit } = input;
  const cursor: Cursor = { c: input.start.c, i: input.start.i };
  const items: T[] = [];
  const commonPrefixes: string[] = [];
  let last: ScanResult<T>['last'] = null;
  let emitted = 0;
  let hasMore = false;
  for (;;) {
    const indexKey = index.keyAt(cursor);
    if (indexKey === undefined) break;
    const key = keyOf(indexKey);
    // keys sharing a prefix are contiguous in code point order, so the first miss ends the scan
    if (!key.startsWith(prefix)) break;
    const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
    if (cut >= 0) {
      const common = key.slice(0, cut + delimiter.length);
      const fresh = marker === '' || compareKeys(common, marker) > 0;
      if (fresh) {
        if (emitted === limit) {
          hasMore = true;
          break;
        }
        commonPrefixes.push(common);
        last = { kind: 'prefix', prefix: common };
        emitted++;
      }
      // every key from the cursor on is >= this key, so "past the group" = "no longer starts with it"
      const skipTo = index.seekForward(cursor, (other) => !keyOf(other).startsWith(common));
      cursor.c = skipTo.c;
      cursor.i = skipTo.i;
      continue;
    }
    if (emitted === limit) {
      hasMore = true;
      break;
    }
    const item = index.at(cursor);
    if (item === undefined) break;
    items.push(item);
    last = { kind: 'item', item };
    emitted++;
    index.advance(cursor);
  }
  return { items, commonPrefixes, last, hasMore };
}

/** limit handling shared by the listings: undefined/0 ⇒ default; above max ⇒ max; else must be a positive integer. */
export function effectiveLimit(limit: number | undefined, fallback: number, max: number): number | null {
  if (limit === undefined || limit === 0) return Math.min(fallback, max);
  if (!Number.isInteger(limit) || limit < 0) return null;
  return Math.min(limit, max);
}
