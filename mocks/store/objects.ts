/** Objects of the Store (ref §5): put, get, copy, move, append, delete, list; statistics kept in step. */
import { QsError } from '../errors.ts';
import { joinBodies, makeBody, segmentsBytes } from './body.ts';
import { checkObjectKey } from './keys.ts';
import { effectiveLimit, scanListing } from './listing.ts';
import { checkContentMd5 } from './md5.ts';
import { cursorAfter } from './sorted-index.ts';
import type {
  AppendObjectInput,
  AppendObjectResult,
  CopyObjectInput,
  DeleteObjectsResult,
  ListObjectsInput,
  ListObjectsResult,
  MoveObjectInput,
  PutObjectInput,
  StoredObject,
} from './types.ts';
import { type BucketState, identity, wholeSeconds, normalizeMetadata } from './state.ts';
import { BucketStore } from './buckets.ts';

export abstract class ObjectStore extends BucketStore {
  /** Inserts/replaces a record and keeps the statistics in step. */
  protected writeObject(state: BucketState, record: StoredObject): void {
    this.journal?.putObject(state.info.name, record);
    const stats = this.statsOf(state);
    const previous = state.objects.set(record);
    if (previous !== undefined) {
      const p = stats[previous.storageClass];
      p.count--;
      p.size -= previous.size;
    }
    const n = stats[record.storageClass];
    n.count++;
    n.size += record.size;
    if (!record.appendable) state.appendMd5.delete(record.key);
  }

  protected removeObject(state: BucketState, key: string): StoredObject | undefined {
    if (this.journal && state.objects.get(key) !== undefined) this.journal.deleteObject(state.info.name, key);
    const stats = this.statsOf(state);
    const previous = state.objects.delete(key);
    if (previous !== undefined) {
      const p = stats[previous.storageClass];
      p.count--;
      p.size -= previous.size;
      state.appendMd5.delete(key);
    }
    return previous;
  }

  protected sourceObject(bucket: string, key: string): StoredObject {
    const found = this.bucketState(bucket).objects.get(key);
    if (found === undefined) throw new QsError('object_not_exists');
    return found;
  }

  /** PutObject (ref §5.1): last writer wins; Content-MD5 mismatch ⇒ bad_digest. */
  putObject(bucket: string, key: string, input: PutObjectInput): StoredObject {
    const state = this.bucketState(bucket);
    checkObjectKey(key);
    const body = makeBody(input.body);
    this.checkSize(body.size);
    const etag = input.md5 ?? this.md5.hex(segmentsBytes(body.chunks));
    checkContentMd5(input.contentMd5, etag);
    const metadata = normalizeMetadata(input.metadata);
    const now = wholeSeconds(this.clock());
    const record: StoredObject = {
      key,
      body,
      size: body.size,
      etag,
      created: now,
      lastModified: now,
      contentType: metadata.standard['content-type'],
      metadata,
      storageClass: input.storageClass ?? 'STANDARD',
      appendable: false,
    };
    this.writeObject(state, record);
    return record;
  }

  /** Throws bucket_not_exists / object_not_exists. */
  getObject(bucket: string, key: string): StoredObject {
    return this.sourceObject(bucket, key);
  }

  /** Throws bucket_not_exists only. */
  findObject(bucket: string, key: string): StoredObject | undefined {
    return this.bucketState(bucket).objects.get(key);
  }

  /**
   * Copy (ref §5.2). COPY keeps the source's metadata, REPLACE takes `input.metadata`. The storage
   * class defaults to the source's (inferred: an edit-metadata self-copy must not silently change
   * the class). Self-copy needs REPLACE or a different storage class, else invalid_request
   * (inferred). The body is shared, not copied; ETag = source ETag; Last-Modified = now. A copy to
   * another key is an ordinary (non-appendable) object; a self-copy keeps the appendable flag.
   */
  copyObject(input: CopyObjectInput): StoredObject {
    const source = this.sourceObject(input.sourceBucket, input.sourceKey);
    const target = this.bucketState(input.bucket);
    checkObjectKey(input.key);
    input.precondition?.(source);
    const directive = input.directive ?? 'COPY';
    const self = input.sourceBucket === input.bucket && input.sourceKey === input.key;
    const storageClass = input.storageClass ?? source.storageClass;
    if (self && directive === 'COPY' && storageClass === source.storageClass) {
      throw new QsError('invalid_request', 'Copying an object onto itself needs the REPLACE directive or a new storage class.');
    }
    const metadata = directive === 'COPY' ? source.metadata : normalizeMetadata(input.metadata);
    const now = wholeSeconds(this.clock());
    const record: StoredObject = {
      key: input.key,
      body: source.body,
      size: source.size,
      etag: source.etag,
      created: now,
      lastModified: now,
      contentType: metadata.standard['content-type'],
      metadata,
      storageClass,
      appendable: self && source.appendable,
    };
    this.writeObject(target, record);
    return record;
  }

  /**
   * Move (ref §5.3): the destination is the source record under a new key (metadata, ETag, class,
   * Last-Modified (inferred) and appendability preserved); the source disappears. Onto itself: no-op.
   */
  moveObject(input: MoveObjectInput): StoredObject {
    const source = this.sourceObject(input.sourceBucket, input.sourceKey);
    const sourceState = this.bucketState(input.sourceBucket);
    const target = this.bucketState(input.bucket);
    checkObjectKey(input.key);
    input.precondition?.(source);
    if (input.sourceBucket === input.bucket && input.sourceKey === input.key) return source;
    const md5State = sourceState.appendMd5.get(source.key);
    const record: StoredObject = { ...source, key: input.key };
    this.atomically(() => {
      this.removeObject(sourceState, source.key);
      this.writeObject(target, record);
    });
    if (md5State !== undefined) target.appendMd5.set(record.key, md5State);
    return record;
  }

  /**
   * AppendObject (ref §5.8): position must be 0 for a new object and the current size afterwards
   * (invalid_argument); a non-appendable object ⇒ invalid_object_state (inferred). Content-Type,
   * metadata and storage class apply on the first append only. ETag = MD5 of the whole content
   * (inferred), extended incrementally.
   */
  appendObject(bucket: string, key: string, input: AppendObjectInput): AppendObjectResult {
    const state = this.bucketState(bucket);
    checkObjectKey(key);
    const existing = state.objects.get(key);
    if (existing !== undefined && !existing.appendable) throw new QsError('invalid_object_state');
    if (!Number.isInteger(input.position) || input.position < 0) {
      throw new QsError('invalid_argument', 'position must be a non-negative integer.');
    }
    const expected = existing?.size ?? 0;
    if (input.position !== expected) {
      throw new QsError('invalid_argument', `position must equal the current size (${expected}).`);
    }
    const added = makeBody(input.body);
    this.checkSize(added.size);
    if (input.contentMd5 !== undefined) checkContentMd5(input.contentMd5, input.md5 ?? this.md5.hex(segmentsBytes(added.chunks)));
    const previousState = existing === undefined ? null : (state.appendMd5.get(key) ?? null);
    // an appendable object always has a saved state; rebuilding it from the bytes is the fallback
    const hashed =
      previousState === null && existing !== undefined
        ? this.md5.extend(null, segmentsBytes([...existing.body.chunks, ...added.chunks]))
        : this.md5.extend(previousState, segmentsBytes(added.chunks));
    const now = wholeSeconds(this.clock());
    const metadata = existing?.metadata ?? normalizeMetadata(input.metadata);
    const body = existing === undefined ? added : joinBodies([existing.body, added]);
    const record: StoredObject = {
      key,
      body,
      size: body.size,
      etag: hashed.hex,
      created: existing?.created ?? now,
      lastModified: now,
      contentType: metadata.standard['content-type'],
      metadata,
      storageClass: existing?.storageClass ?? input.storageClass ?? 'STANDARD',
      appendable: true,
    };
    this.writeObject(state, record);
    state.appendMd5.set(key, hashed.state);
    return { object: record, nextPosition: record.size };
  }

  /** Idempotent (ref §5.6); only a missing bucket fails. */
  deleteObject(bucket: string, key: string): void {
    this.removeObject(this.bucketState(bucket), key);
  }

  /** DeleteMultipleObjects core (ref §5.9): missing keys count as deleted; invalid keys are errors. */
  deleteObjects(bucket: string, keys: readonly string[]): DeleteObjectsResult {
    const state = this.bucketState(bucket);
    const deleted: string[] = [];
    const errors: { key: string; code: string; message: string }[] = [];
    this.atomically(() => {
      for (const key of keys) {
        try {
          checkObjectKey(key);
        } catch (error) {
          if (error instanceof QsError) {
            errors.push({ key, code: error.code, message: error.message });
            continue;
          }
          throw error;
        }
        this.removeObject(state, key);
        deleted.push(key);
      }
    });
    return { deleted, errors };
  }

  /**
   * ListObjects (ref §9.5, §11.14): keys after `marker` starting with `prefix`, in UTF-8 byte
   * order; with a delimiter, keys are grouped into common prefixes (each once; keys and prefixes
   * share the limit). next_marker = last returned item.
   */
  listObjects(bucket: string, input: ListObjectsInput): ListObjectsResult {
    const state = this.bucketState(bucket);
    const limit = effectiveLimit(input.limit, this.defaultListLimit, this.maxListLimit);
    if (limit === null) throw new QsError('invalid_argument', 'limit must be a non-negative integer.');
    const prefix = input.prefix ?? '';
    const marker = input.marker ?? '';
    const delimiter = input.delimiter ?? '';
    const index = state.objects;
    const afterMarker = marker === '' ? null : index.upperBound(marker);
    const atPrefix = index.lowerBound(prefix);
    const start = afterMarker !== null && cursorAfter(afterMarker, atPrefix) ? afterMarker : atPrefix;
    const page = scanListing({ index, keyOf: identity<string>, start, prefix, delimiter, marker, limit });
    const last = page.last;
    const nextMarker = last === null ? '' : last.kind === 'item' ? last.item.key : last.prefix;
    return { keys: page.items, commonPrefixes: page.commonPrefixes, hasMore: page.hasMore, nextMarker, limit };
  }
}
