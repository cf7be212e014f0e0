/**
 * Loading the Store in bulk: seeding many objects at once (eagerly or lazily) and restoring persisted
 * records, which are not journaled again since they come from the journal.
 */
import { EMPTY_BODY, makeBody, segmentsBytes } from './body.ts';
import { checkObjectKey, compareKeys } from './keys.ts';
import type {
  BucketInfo,
  BulkObjectInput,
  LazyObjectSource,
  PartInfo,
  StoredObject,
  UploadInfo,
} from './types.ts';
import { DEFAULT_CONTENT_TYPE, EMPTY_ARRAY, type UploadState, wholeSeconds, normalizeMetadata, plainMetadata, emptyStats, newBucketState } from './state.ts';
import { MultipartStore } from './multipart.ts';

export abstract class LoadingStore extends MultipartStore {
  /**
   * Seeding path: loads many objects at once (a million in about a second). Entries are sorted
   * here unless already in order; a repeated key keeps its last entry. Shared body arrays are
   * hashed once; `etag` skips hashing. Returns the number of objects in the bucket afterwards.
   */
  bulkLoad(bucket: string, entries: Iterable<BulkObjectInput>): number {
    const state = this.bucketState(bucket);
    const now = wholeSeconds(this.clock());
    const records: StoredObject[] = [...state.objects.values()];
    let sorted = true;
    for (const entry of entries) {
      const record = this.bulkRecord(entry, now);
      const previous = records[records.length - 1];
      if (sorted && previous !== undefined && compareKeys(previous.key, record.key) >= 0) sorted = false;
      records.push(record);
    }
    if (!sorted) {
      // stable sort keeps entry order among equal keys, so "last one wins" below holds
      records.sort((a, b) => compareKeys(a.key, b.key));
    }
    const unique: StoredObject[] = [];
    for (const r of records) {
      const tail = unique[unique.length - 1];
      if (tail !== undefined && tail.key === r.key) unique[unique.length - 1] = r;
      else unique.push(r);
    }
    if (this.journal) {
      const journal = this.journal;
      journal.atomically(() => {
        for (const r of unique) journal.putObject(bucket, r);
      });
    }
    state.objects.bulkLoad(unique);
    state.stats = emptyStats();
    state.statsPending = false;
    for (const r of unique) {
      const c = state.stats[r.storageClass];
      c.count++;
      c.size += r.size;
      if (!r.appendable) state.appendMd5.delete(r.key);
    }
    return unique.length;
  }

  /** One bulk-loaded record (bulkLoad, bulkLoadLazy). */
  protected bulkRecord(entry: BulkObjectInput, now: Date): StoredObject {
    checkObjectKey(entry.key);
    const raw = entry.body ?? EMPTY_ARRAY;
    let cached = this.hashCache.get(raw);
    if (cached === undefined) {
      const body = raw.byteLength === 0 ? EMPTY_BODY : makeBody(raw);
      cached = { etag: this.md5.hex(segmentsBytes(body.chunks)), body };
      this.hashCache.set(raw, cached);
    }
    const contentType = entry.contentType === undefined || entry.contentType === '' ? DEFAULT_CONTENT_TYPE : entry.contentType;
    const metadata =
      entry.custom === undefined ? plainMetadata(contentType) : normalizeMetadata({ standard: { 'content-type': contentType }, custom: entry.custom });
    const modified = entry.lastModified === undefined ? now : wholeSeconds(entry.lastModified);
    return {
      key: entry.key,
      body: cached.body,
      size: cached.body.size,
      etag: entry.etag === undefined ? cached.etag : entry.etag,
      created: modified,
      lastModified: modified,
      contentType,
      metadata,
      storageClass: entry.storageClass ?? 'STANDARD',
      appendable: false,
    };
  }

  /**
   * Fills an empty bucket with `source.count` generated objects whose records are built only when a
   * listing or lookup reaches them (the demo's 100,000-object bucket costs nothing until it is browsed).
   * Entries must be strictly ascending by key, `source.keyAt(i)` equal to `source.entryAt(i).key`; the
   * result is the same as bulkLoad of the same entries. Statistics are counted on first use; any write to
   * the bucket builds the rest first.
   */
  bulkLoadLazy(bucket: string, source: LazyObjectSource): void {
    const state = this.bucketState(bucket);
    if (state.objects.size > 0) throw new Error('bulkLoadLazy needs an empty bucket');
    // A persisted store (--data-dir) must journal every seeded object now: records built later, on a
    // listing, would never reach the journal and the bucket would come back empty after a restart.
    // A journal that keeps the source by its id instead (the browser demo's IndexedDB) says so.
    if (this.journal && this.journal.lazyObjects?.(bucket, source) !== true) {
      this.bulkLoad(bucket, (function* () {
        for (let i = 0; i < source.count; i++) yield source.entryAt(i);
      })());
      return;
    }
    const now = wholeSeconds(this.clock());
    state.objects.lazyLoad(
      source.count,
      (i) => source.keyAt(i),
      (from, to) => {
        const records: StoredObject[] = [];
        for (let i = from; i < to; i++) records.push(this.bulkRecord(source.entryAt(i), now));
        return records;
      },
    );
    state.stats = emptyStats();
    state.statsPending = source.count > 0;
  }

  /** Chunks of a lazily loaded bucket not built yet (0 for any other bucket): lets tests see the laziness. */
  pendingObjectChunks(bucket: string): number {
    return this.bucketState(bucket).objects.pendingChunks;
  }


  /** Re-creates a bucket exactly as persisted. */
  restoreBucket(info: BucketInfo): void {
    this.buckets.set(info.name, newBucketState(info));
  }

  /** Loads persisted objects of a restored bucket (any order). */
  restoreObjects(bucket: string, records: readonly StoredObject[]): void {
    const state = this.bucketState(bucket);
    const sorted = [...records].sort((a, b) => compareKeys(a.key, b.key));
    state.objects.bulkLoad(sorted);
    state.stats = emptyStats();
    for (const r of sorted) {
      const c = state.stats[r.storageClass];
      c.count++;
      c.size += r.size;
    }
  }

  /** Re-creates an in-progress upload with its parts; later upload ids still sort after it. */
  /**
   * Replaces and removes single persisted objects of a restored bucket, e.g. the changes a journal kept
   * on top of a lazily generated bucket (bulkLoadLazy). Statistics are counted again on first use.
   */
  restoreObjectChanges(bucket: string, records: readonly StoredObject[], removedKeys: readonly string[]): void {
    const state = this.bucketState(bucket);
    for (const r of records) state.objects.set(r);
    for (const key of removedKeys) state.objects.delete(key);
    state.statsPending = true;
  }

  restoreUpload(info: UploadInfo, parts: readonly PartInfo[]): void {
    const state = this.bucketState(info.bucket);
    const upload: UploadState = { info, parts: new Map(), partNumbers: [] };
    for (const part of [...parts].sort((a, b) => a.partNumber - b.partNumber)) {
      upload.parts.set(part.partNumber, part);
      upload.partNumbers.push(part.partNumber);
    }
    state.uploads.set(info.uploadId, upload);
    state.uploadIndex.set(upload);
    const stamp = Number.parseInt(info.uploadId.slice(0, 12), 16);
    if (Number.isFinite(stamp)) this.lastUploadStamp = Math.max(this.lastUploadStamp, stamp);
  }
}
