import { QsError } from '../errors.ts';
import { EMPTY_BODY, joinBodies, makeBody, segmentsBytes } from './body.ts';
import { checkBucketName, checkObjectKey, compareKeys } from './keys.ts';
import { effectiveLimit, scanListing } from './listing.ts';
import { checkContentMd5, Md5, type Md5State } from './md5.ts';
import { cursorAfter, SortedIndex } from './sorted-index.ts';
import type { Cursor } from './sorted-index.ts';
import { STANDARD_HEADERS } from './types.ts';
import { setEntry } from '../../src/api/metadata/model.ts';
import type {
  AclGrant,
  AppendObjectInput,
  AppendObjectResult,
  BucketInfo,
  BucketPolicy,
  BucketStatistics,
  BucketStatus,
  BodySink,
  BulkObjectInput,
  LazyObjectSource,
  CompleteUploadInput,
  CopyObjectInput,
  CorsConfiguration,
  CreateBucketInput,
  DeleteObjectsResult,
  InitiateUploadInput,
  ListBucketsInput,
  ListBucketsResult,
  ListObjectsInput,
  ListObjectsResult,
  ListPartsInput,
  ListPartsResult,
  ListUploadsInput,
  ListUploadsResult,
  MetadataInput,
  MoveObjectInput,
  ObjectBody,
  PartInfo,
  PutObjectInput,
  StorageClass,
  StoredMetadata,
  StoredObject,
  StoreJournal,
  StoreOptions,
  UploadInfo,
  UploadPartInput,
} from './types.ts';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MAX_PART_NUMBER = 10000; // ref §8 / §12: part numbers 0..10000
/** ref §5.1, §8: 5 GB per single PUT, part or append. */
export const MAX_OBJECT_SIZE = 5 * 1024 * 1024 * 1024;

interface UploadState {
  info: UploadInfo;
  parts: Map<number, PartInfo>;
  /** part numbers in ascending order, for O(log n + page) ListMultipart */
  partNumbers: number[];
}

interface ClassCounter {
  count: number;
  size: number;
}

interface BucketState {
  info: BucketInfo;
  objects: SortedIndex<StoredObject, string>;
  /** MD5 states of appendable objects, so each append hashes only the new bytes */
  appendMd5: Map<string, Md5State>;
  uploads: Map<string, UploadState>;
  /** in-progress uploads sorted by key, then upload id (= creation order, see newUploadId) */
  uploadIndex: SortedIndex<UploadState, UploadState>;
  stats: Record<StorageClass, ClassCounter>;
  /** Set while `stats` still has to be counted over a lazily loaded bucket (see bulkLoadLazy). */
  statsPending?: boolean;
}

function objectKeyOf(o: StoredObject): string {
  return o.key;
}

function compareUploads(a: UploadState, b: UploadState): number {
  const byKey = compareKeys(a.info.key, b.info.key);
  if (byKey !== 0) return byKey;
  return a.info.uploadId < b.info.uploadId ? -1 : a.info.uploadId > b.info.uploadId ? 1 : 0;
}

function identity<T>(x: T): T {
  return x;
}

function uploadKeyOf(u: UploadState): string {
  return u.info.key;
}

/** Last-Modified has second precision on the wire (ref §11.4); storing it truncated keeps
 * If-Modified-Since comparisons exact. */
function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function unquoteEtag(value: string): string {
  let v = value.trim();
  if (v.startsWith('W/')) v = v.slice(2);
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  return v;
}

const defaultMetadataCache = new Map<string, StoredMetadata>();

/** Keeps only the five storable standard headers, defaults Content-Type (ref §3, §6), lower-cases custom keys. */
export function normalizeMetadata(input: MetadataInput | undefined): StoredMetadata {
  const standard: Partial<Record<(typeof STANDARD_HEADERS)[number], string>> = {};
  let contentType = DEFAULT_CONTENT_TYPE;
  if (input !== undefined) {
    for (const name of STANDARD_HEADERS) {
      const value = input.standard[name];
      if (value === undefined) continue;
      if (name === 'content-type') {
        if (value !== '') contentType = value;
      } else standard[name] = value;
    }
  }
  const custom: Record<string, string> = {};
  // Keys are data: setEntry stores `__proto__` as an entry instead of changing the record's prototype.
  if (input !== undefined) for (const [k, v] of Object.entries(input.custom)) setEntry(custom, k.toLowerCase(), v);
  return { standard: { ...standard, 'content-type': contentType }, custom };
}

/** Shared metadata objects for bulk-loaded objects (saves memory at a million keys). */
function plainMetadata(contentType: string): StoredMetadata {
  let m = defaultMetadataCache.get(contentType);
  if (m === undefined) {
    m = { standard: { 'content-type': contentType }, custom: {} };
    defaultMetadataCache.set(contentType, m);
  }
  return m;
}

function emptyStats(): Record<StorageClass, ClassCounter> {
  return { STANDARD: { count: 0, size: 0 }, STANDARD_IA: { count: 0, size: 0 } };
}

function randomHex(length: number): string {
  const bytes = new Uint8Array(Math.ceil(length / 2));
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s.slice(0, length);
}

function upperBoundNumber(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The emulator's state and semantics. All methods are synchronous and throw QsError with the
 * reference's codes; records they return are immutable snapshots. Zone checks (bucket zone vs host
 * zone), permissions, conditional headers and wire formatting belong to the handlers.
 */
export class Store {
  private readonly buckets = new Map<string, BucketState>();
  private readonly md5: Md5;
  private readonly clock: () => Date;
  private lastUploadStamp = 0;
  private readonly hashCache = new WeakMap<Uint8Array, { etag: string; body: ObjectBody }>();
  readonly minPartSize: number;
  readonly defaultListLimit: number;
  readonly maxListLimit: number;
  readonly maxPartsListLimit: number;
  readonly defaultUploadsListLimit: number;
  readonly maxUploadsListLimit: number;
  readonly maxBucketsPerOwner: number;
  readonly maxObjectSize: number;
  readonly copyLimit: number;
  private readonly journal: StoreJournal | undefined;
  private readonly sinkFactory: (() => BodySink) | undefined;

  private constructor(options: StoreOptions, md5: Md5) {
    this.md5 = md5;
    this.journal = options.journal;
    this.sinkFactory = options.bodySink;
    this.clock = options.now ?? (() => new Date());
    this.minPartSize = options.minPartSize ?? 4 * 1024 * 1024;
    this.defaultListLimit = options.defaultListLimit ?? 100;
    this.maxListLimit = options.maxListLimit ?? 1000;
    this.maxPartsListLimit = options.maxPartsListLimit ?? 1000;
    this.defaultUploadsListLimit = options.defaultUploadsListLimit ?? 200;
    this.maxUploadsListLimit = options.maxUploadsListLimit ?? 1000;
    this.maxBucketsPerOwner = options.maxBucketsPerOwner ?? Number.POSITIVE_INFINITY;
    this.maxObjectSize = options.maxObjectSize ?? MAX_OBJECT_SIZE;
    this.copyLimit = options.copyLimit ?? this.maxObjectSize;
  }

  /** Where a handler streams a request body: a body file with --data-dir, else undefined (memory). */
  newBodySink(): BodySink | undefined {
    return this.sinkFactory?.();
  }

  private atomically(change: () => void): void {
    if (this.journal) this.journal.atomically(change);
    else change();
  }

  /** ref §4 entity_too_large: one PUT/POST body, part or append above maxObjectSize. */
  private checkSize(size: number): void {
    if (size > this.maxObjectSize) {
      throw new QsError('entity_too_large', `The body has ${size} bytes; at most ${this.maxObjectSize} are allowed in one request.`);
    }
  }

  /** The only async step: loads the wasm MD5 so every other method can be synchronous. */
  static async create(options: StoreOptions = {}): Promise<Store> {
    return new Store(options, await Md5.create());
  }

  /** The injected clock (handlers use the same one for Date headers and signature windows). */
  now(): Date {
    return this.clock();
  }

  /** Lowercase hex MD5 of chunks (exposed so handlers need no second MD5 implementation). */
  md5Hex(chunks: readonly Uint8Array[]): string {
    return this.md5.hex(chunks);
  }

  // ------------------------------------------------------------------------------------------
  // buckets

  private bucketState(name: string): BucketState {
    const state = this.buckets.get(name);
    if (state === undefined) throw new QsError('bucket_not_exists');
    return state;
  }

  createBucket(input: CreateBucketInput): BucketInfo {
    checkBucketName(input.name);
    if (input.zone === '') throw new QsError('invalid_location');
    if (this.buckets.has(input.name)) throw new QsError('bucket_already_exists');
    let owned = 0;
    for (const b of this.buckets.values()) if (b.info.ownerId === input.ownerId) owned++;
    if (owned >= this.maxBucketsPerOwner) throw new QsError('too_many_buckets');
    const info: BucketInfo = {
      name: input.name,
      zone: input.zone,
      ownerId: input.ownerId,
      created: wholeSeconds(this.clock()),
      status: 'active',
      acl: [],
      cors: null,
      policy: null,
    };
    this.journal?.putBucket(info);
    this.buckets.set(input.name, {
      info,
      objects: new SortedIndex<StoredObject, string>(objectKeyOf, compareKeys),
      appendMd5: new Map(),
      uploads: new Map(),
      uploadIndex: new SortedIndex<UploadState, UploadState>(identity, compareUploads, 256),
      stats: emptyStats(),
    });
    return info;
  }

  /** Throws bucket_not_exists. */
  getBucket(name: string): BucketInfo {
    return this.bucketState(name).info;
  }

  findBucket(name: string): BucketInfo | undefined {
    return this.buckets.get(name)?.info;
  }

  /** Must be empty (bucket_not_empty); in-progress uploads are dropped with it (ref §9.3, inferred). */
  deleteBucket(name: string): void {
    const state = this.bucketState(name);
    if (state.objects.size > 0) throw new QsError('bucket_not_empty');
    this.journal?.deleteBucket(name);
    this.buckets.delete(name);
  }

  /** Buckets of one owner (optionally one zone), by name; count = total matches (ref §9.1). */
  listBuckets(input: ListBucketsInput): ListBucketsResult {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 200;
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 0) {
      throw new QsError('invalid_argument', 'offset and limit must be non-negative integers.');
    }
    const matching: BucketInfo[] = [];
    for (const b of this.buckets.values()) {
      if (b.info.ownerId !== input.ownerId) continue;
      if (input.zone !== undefined && b.info.zone !== input.zone) continue;
      matching.push(b.info);
    }
    matching.sort((a, b) => compareKeys(a.name, b.name));
    return { count: matching.length, buckets: matching.slice(offset, offset + limit) };
  }

  private updateBucket(name: string, change: Partial<Pick<BucketInfo, 'acl' | 'cors' | 'policy' | 'status'>>): BucketInfo {
    const state = this.bucketState(name);
    const info = { ...state.info, ...change };
    this.journal?.putBucket(info);
    state.info = info;
    return state.info;
  }

  /** Replaces the whole grant list (ref §9.7); the owner's implicit FULL_CONTROL is never stored. */
  putBucketAcl(name: string, acl: readonly AclGrant[]): BucketInfo {
    return this.updateBucket(name, { acl: acl.map((g) => ({ grantee: { ...g.grantee }, permission: g.permission })) });
  }

  putBucketCors(name: string, cors: CorsConfiguration): BucketInfo {
    return this.updateBucket(name, { cors });
  }

  deleteBucketCors(name: string): BucketInfo {
    return this.updateBucket(name, { cors: null });
  }

  putBucketPolicy(name: string, policy: BucketPolicy): BucketInfo {
    return this.updateBucket(name, { policy });
  }

  deleteBucketPolicy(name: string): BucketInfo {
    return this.updateBucket(name, { policy: null });
  }

  /** For tests/admin: e.g. emulate a suspended bucket (ref §9.6 status). */
  setBucketStatus(name: string, status: BucketStatus): BucketInfo {
    return this.updateBucket(name, { status });
  }

  getBucketStatistics(name: string): BucketStatistics {
    const stats = this.statsOf(this.bucketState(name));
    const s = stats.STANDARD;
    const ia = stats.STANDARD_IA;
    return {
      count: s.count + ia.count,
      size: s.size + ia.size,
      storageClasses: {
        STANDARD: { count: s.count, size: s.size, billingSize: s.size },
        STANDARD_IA: { count: ia.count, size: ia.size, billingSize: ia.size },
      },
    };
  }

  // ------------------------------------------------------------------------------------------
  // objects

  /** Inserts/replaces a record and keeps the statistics in step. */
  private writeObject(state: BucketState, record: StoredObject): void {
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

  private removeObject(state: BucketState, key: string): StoredObject | undefined {
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

  private sourceObject(bucket: string, key: string): StoredObject {
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
  private bulkRecord(entry: BulkObjectInput, now: Date): StoredObject {
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

  /** The bucket's statistics, counted over every object first if a lazy load left them pending. */
  private statsOf(state: BucketState): Record<StorageClass, ClassCounter> {
    if (state.statsPending === true) {
      const stats = emptyStats();
      for (const r of state.objects.values()) {
        const c = stats[r.storageClass];
        c.count++;
        c.size += r.size;
      }
      state.stats = stats;
      state.statsPending = false;
    }
    return state.stats;
  }

  // ------------------------------------------------------------------------------------------
  // restoring persisted records (not journaled: they come from the journal)

  /** Re-creates a bucket exactly as persisted. */
  restoreBucket(info: BucketInfo): void {
    this.buckets.set(info.name, {
      info,
      objects: new SortedIndex<StoredObject, string>(objectKeyOf, compareKeys),
      appendMd5: new Map(),
      uploads: new Map(),
      uploadIndex: new SortedIndex<UploadState, UploadState>(identity, compareUploads, 256),
      stats: emptyStats(),
    });
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

  /** Re-creates an in-progress upload with its parts; later upload ids still sort after it. */
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

  // ------------------------------------------------------------------------------------------
  // multipart

  /**
   * Upload ids are 32 lowercase hex (ref §8.1, inferred): 12 hex digits of a strictly increasing
   * millisecond stamp, then 20 random digits. Ids therefore sort in creation order, which gives
   * ListMultipartUploads its "key, then creation" order and keeps upload_id_marker meaningful
   * even after that upload is gone.
   */
  private newUploadId(now: Date): string {
    this.lastUploadStamp = Math.max(this.lastUploadStamp + 1, now.getTime());
    return this.lastUploadStamp.toString(16).padStart(12, '0').slice(-12) + randomHex(20);
  }

  initiateMultipartUpload(bucket: string, key: string, input: InitiateUploadInput): UploadInfo {
    const state = this.bucketState(bucket);
    checkObjectKey(key);
    const created = this.clock();
    const info: UploadInfo = {
      bucket,
      key,
      uploadId: this.newUploadId(created),
      created: new Date(created.getTime()),
      metadata: normalizeMetadata(input.metadata),
      storageClass: input.storageClass ?? 'STANDARD',
    };
    const upload: UploadState = { info, parts: new Map(), partNumbers: [] };
    this.journal?.putUpload(info);
    state.uploads.set(info.uploadId, upload);
    state.uploadIndex.set(upload);
    return info;
  }

  private uploadState(bucket: string, key: string, uploadId: string): { state: BucketState; upload: UploadState } {
    const state = this.bucketState(bucket);
    const upload = state.uploads.get(uploadId);
    if (upload === undefined || upload.info.key !== key) throw new QsError('upload_not_exists');
    return { state, upload };
  }

  /** Throws bucket_not_exists / upload_not_exists (also when the id belongs to another key). */
  getUpload(bucket: string, key: string, uploadId: string): UploadInfo {
    return this.uploadState(bucket, key, uploadId).upload.info;
  }

  /** UploadMultipart (ref §8.2): part 0..10000, re-upload replaces, etag = MD5 of the part. */
  uploadPart(bucket: string, key: string, uploadId: string, partNumber: number, input: UploadPartInput): PartInfo {
    const { upload } = this.uploadState(bucket, key, uploadId);
    if (!Number.isInteger(partNumber) || partNumber < 0 || partNumber > MAX_PART_NUMBER) {
      throw new QsError('invalid_argument', `part_number must be an integer from 0 to ${MAX_PART_NUMBER}.`);
    }
    const body = makeBody(input.body);
    this.checkSize(body.size);
    const etag = input.md5 ?? this.md5.hex(segmentsBytes(body.chunks));
    checkContentMd5(input.contentMd5, etag);
    const part: PartInfo = { partNumber, size: body.size, etag, created: new Date(this.clock().getTime()), body };
    this.journal?.putPart(bucket, uploadId, part);
    if (!upload.parts.has(partNumber)) {
      upload.partNumbers.splice(upperBoundNumber(upload.partNumbers, partNumber), 0, partNumber);
    }
    upload.parts.set(partNumber, part);
    return part;
  }

  /** ListMultipart (ref §8.4): parts after `partNumberMarker`, ascending; count = parts of the upload. */
  listParts(bucket: string, key: string, uploadId: string, input: ListPartsInput): ListPartsResult {
    const { upload } = this.uploadState(bucket, key, uploadId);
    const limit = effectiveLimit(input.limit, this.maxPartsListLimit, this.maxPartsListLimit);
    if (limit === null) throw new QsError('invalid_argument', 'limit must be a non-negative integer.');
    const numbers = upload.partNumbers;
    const from = input.partNumberMarker === undefined ? 0 : upperBoundNumber(numbers, input.partNumberMarker);
    const to = Math.min(numbers.length, from + limit);
    const parts: PartInfo[] = [];
    for (let i = from; i < to; i++) {
      const part = upload.parts.get(numbers[i] ?? -1);
      if (part !== undefined) parts.push(part);
    }
    return { count: numbers.length, parts, hasMore: to < numbers.length, limit };
  }

  /**
   * CompleteMultipartUpload (ref §8.5, inferred details): parts strictly ascending, every listed
   * part uploaded and its etag (if given) equal ignoring quotes, else invalid_argument; every part
   * but the last at least minPartSize, else entity_too_small. Unlisted parts are discarded. The
   * object gets the initiate-time metadata and class, its body references the part chunks (no
   * byte is copied) and its ETag is the client's value or null.
   */
  completeMultipartUpload(bucket: string, key: string, uploadId: string, input: CompleteUploadInput): StoredObject {
    const { state, upload } = this.uploadState(bucket, key, uploadId);
    if (input.parts.length === 0) throw new QsError('invalid_argument', 'object_parts must list at least one part.');
    const bodies: ObjectBody[] = [];
    let previousNumber = -1;
    for (let i = 0; i < input.parts.length; i++) {
      const ref = input.parts[i];
      if (ref === undefined) continue;
      if (!Number.isInteger(ref.partNumber) || ref.partNumber <= previousNumber) {
        throw new QsError('invalid_argument', 'object_parts must be in strictly ascending part_number order.');
      }
      previousNumber = ref.partNumber;
      const part = upload.parts.get(ref.partNumber);
      if (part === undefined) throw new QsError('invalid_argument', `Part ${ref.partNumber} was not uploaded.`);
      if (ref.etag !== undefined && unquoteEtag(ref.etag).toLowerCase() !== part.etag) {
        throw new QsError('invalid_argument', `The etag of part ${ref.partNumber} does not match.`);
      }
      if (i < input.parts.length - 1 && part.size < this.minPartSize) {
        throw new QsError('entity_too_small', `Part ${ref.partNumber} is smaller than ${this.minPartSize} bytes.`);
      }
      bodies.push(part.body);
    }
    const body = joinBodies(bodies);
    const now = wholeSeconds(this.clock());
    const clientEtag = input.etag === undefined || input.etag === null ? '' : unquoteEtag(input.etag);
    const record: StoredObject = {
      key,
      body,
      size: body.size,
      etag: clientEtag === '' ? null : clientEtag,
      created: now,
      lastModified: now,
      contentType: upload.info.metadata.standard['content-type'],
      metadata: upload.info.metadata,
      storageClass: upload.info.storageClass,
      appendable: false,
    };
    this.atomically(() => {
      this.writeObject(state, record);
      this.dropUpload(state, upload);
    });
    return record;
  }

  private dropUpload(state: BucketState, upload: UploadState): void {
    this.journal?.deleteUpload(state.info.name, upload.info.uploadId);
    state.uploads.delete(upload.info.uploadId);
    state.uploadIndex.delete(upload);
  }

  /** Idempotent (ref §8.6): unknown/completed ids are fine; only a missing bucket fails. */
  abortMultipartUpload(bucket: string, key: string, uploadId: string): void {
    const state = this.bucketState(bucket);
    const upload = state.uploads.get(uploadId);
    if (upload !== undefined && upload.info.key === key) this.dropUpload(state, upload);
  }

  /**
   * ListMultipartUploads (ref §8.7): in-progress uploads by key, then creation; `keyMarker` alone
   * skips every upload of that key, with `uploadIdMarker` it resumes after that upload. Common
   * prefixes only where uploads exist. Markers are '' once nothing more follows.
   */
  listMultipartUploads(bucket: string, input: ListUploadsInput): ListUploadsResult {
    const state = this.bucketState(bucket);
    const limit = effectiveLimit(input.limit, this.defaultUploadsListLimit, this.maxUploadsListLimit);
    if (limit === null) throw new QsError('invalid_argument', 'limit must be a non-negative integer.');
    const prefix = input.prefix ?? '';
    const delimiter = input.delimiter ?? '';
    const keyMarker = input.keyMarker ?? '';
    const uploadIdMarker = input.uploadIdMarker ?? '';
    const index = state.uploadIndex;
    const atPrefix = index.seek((u) => compareKeys(u.info.key, prefix) >= 0);
    let start: Cursor = atPrefix;
    if (keyMarker !== '') {
      const afterMarker = index.seek((u) => {
        const c = compareKeys(u.info.key, keyMarker);
        return c > 0 || (c === 0 && uploadIdMarker !== '' && u.info.uploadId > uploadIdMarker);
      });
      if (cursorAfter(afterMarker, atPrefix)) start = afterMarker;
    }
    const page = scanListing({
      index,
      keyOf: uploadKeyOf,
      start,
      prefix,
      delimiter,
      // a common prefix equal to or before the key marker was returned on an earlier page
      marker: keyMarker,
      limit,
    });
    const last = page.last;
    let nextKeyMarker = '';
    let nextUploadIdMarker = '';
    if (page.hasMore && last !== null) {
      if (last.kind === 'item') {
        nextKeyMarker = last.item.info.key;
        nextUploadIdMarker = last.item.info.uploadId;
      } else nextKeyMarker = last.prefix;
    }
    return {
      uploads: page.items.map((u) => u.info),
      commonPrefixes: page.commonPrefixes,
      hasMore: page.hasMore,
      nextKeyMarker,
      nextUploadIdMarker,
      limit,
    };
  }
}

const EMPTY_ARRAY = new Uint8Array(0);
