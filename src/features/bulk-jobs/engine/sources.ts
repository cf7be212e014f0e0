/**
 * Where a pass gets its objects from, one page at a time, so a job never holds its whole key list:
 *
 * - a folder or the whole bucket: ListObjects without a delimiter, 1000 keys a page, each page asked for
 *   with the marker the previous one ended at (ref §9.5); the cursor is the last key of a page;
 * - a selection: its keys, 1000 at a time; the cursor is the index reached;
 * - a retry or an undo: the journal's records of a job (its failed objects, or those an edit changed); the
 *   cursor is the last record read.
 *
 * A page's `cursor` is what the job stores once every object of the page is settled; a resume gives it
 * back to the same source, which continues after it.
 */
import type { BucketRef, QsClient } from '../../../api/client.ts';
import { listObjects, nextObjectsMarker } from '../../../api/objects/operations.ts';
import type { Journal, ScanFilter } from './journal.ts';
import type { ItemRecord } from './types.ts';

export const PAGE_SIZE = 1000;

export interface SourceEntry {
  key: string;
  /** From the listing; absent for a selection's keys and journal records. */
  size?: number;
  etag?: string;
  /** The journal's record, for a retry or an undo. */
  record?: ItemRecord;
}

export interface SourcePage {
  entries: SourceEntry[];
  /** Where the source continues after this page. */
  cursor: string;
}

export interface JobSource {
  /** The next page, or undefined once the source is done. */
  next(): Promise<SourcePage | undefined>;
}

/** Every key under `prefix` ('' = the whole bucket), after the key `after`. */
export function listingSource(client: QsClient, bucket: BucketRef, prefix: string, after: string | null, signal?: AbortSignal): JobSource {
  let marker = after ?? '';
  let done = false;
  return {
    async next() {
      if (done) return undefined;
      const page = await listObjects(client, { zone: bucket.zone, bucket: bucket.bucket, prefix, marker, limit: PAGE_SIZE }, signal ? { signal } : {});
      const next = nextObjectsMarker(page);
      const lastKey = page.keys.at(-1)?.key;
      // A server repeating its marker would make the walk endless: it ends there.
      if (next === undefined || next === marker) done = true;
      const cursor = next ?? lastKey ?? marker;
      marker = cursor;
      if (page.keys.length === 0 && done) return undefined;
      return {
        entries: page.keys.map((entry) => ({ key: entry.key, size: entry.size, ...(entry.etag !== undefined ? { etag: entry.etag } : {}) })),
        cursor,
      };
    },
  };
}

/** A selection's keys from index `after` on (the cursor is the index as a decimal string). */
export function keysSource(keys: readonly string[], after: string | null): JobSource {
  let index = after === null ? 0 : Number(after);
  if (!Number.isSafeInteger(index) || index < 0) index = 0;
  return {
    async next() {
      if (index >= keys.length) return undefined;
      const end = Math.min(keys.length, index + PAGE_SIZE);
      const entries = keys.slice(index, end).map((key) => ({ key }));
      index = end;
      return { entries, cursor: String(end) };
    },
  };
}

/** The journal's records of `job` that pass `filter`, after the record `after`. */
export function journalSource(journal: Journal, job: string, filter: ScanFilter, after: string | null): JobSource {
  let cursor = after;
  let done = false;
  return {
    async next() {
      while (!done) {
        const page = await journal.scan(job, { after: cursor, limit: PAGE_SIZE, filter });
        done = page.done;
        cursor = page.last;
        if (page.items.length > 0 && cursor !== null) return { entries: page.items.map((record) => ({ key: record.key, record })), cursor };
      }
      return undefined;
    },
  };
}

/** Counts the keys under `prefix` page by page (the dry run, and the count beside a run); `onCount` after each page. */
export async function countListing(client: QsClient, bucket: BucketRef, prefix: string, options: { signal?: AbortSignal; keep?: (key: string) => boolean; onCount?: (count: number) => void } = {}): Promise<number> {
  const source = listingSource(client, bucket, prefix, null, options.signal);
  let count = 0;
  for (let page = await source.next(); page; page = await source.next()) {
    options.signal?.throwIfAborted();
    count += options.keep ? page.entries.filter((e) => options.keep?.(e.key)).length : page.entries.length;
    options.onCount?.(count);
  }
  return count;
}
