/** The Store's internal state records and the helpers every resource of it shares. */
import { compareKeys } from './keys.ts';
import { type Md5State } from './md5.ts';
import { SortedIndex } from './sorted-index.ts';
import { setEntry } from '../../src/api/metadata/header-mapping.ts';
import { STANDARD_METADATA_HEADERS, type StandardHeader } from '../../src/api/protocol/headers.ts';
import type {
  BucketInfo,
  MetadataInput,
  PartInfo,
  StorageClass,
  StoredMetadata,
  StoredObject,
  UploadInfo,
} from './types.ts';

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface UploadState {
  info: UploadInfo;
  parts: Map<number, PartInfo>;
  /** part numbers in ascending order, for O(log n + page) ListMultipart */
  partNumbers: number[];
}

export interface ClassCounter {
  count: number;
  size: number;
}

export interface BucketState {
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

/** The empty in-memory state of a bucket, new or restored. */
export function newBucketState(info: BucketInfo): BucketState {
  return {
    info,
    objects: new SortedIndex<StoredObject, string>(objectKeyOf, compareKeys),
    appendMd5: new Map(),
    uploads: new Map(),
    uploadIndex: new SortedIndex<UploadState, UploadState>(identity, compareUploads, 256),
    stats: emptyStats(),
  };
}

export function objectKeyOf(o: StoredObject): string {
  return o.key;
}

export function compareUploads(a: UploadState, b: UploadState): number {
  const byKey = compareKeys(a.info.key, b.info.key);
  if (byKey !== 0) return byKey;
  return a.info.uploadId < b.info.uploadId ? -1 : a.info.uploadId > b.info.uploadId ? 1 : 0;
}

export function identity<T>(x: T): T {
  return x;
}

export function uploadKeyOf(u: UploadState): string {
  return u.info.key;
}

/** Last-Modified has second precision on the wire (ref §11.4); storing it truncated keeps
 * If-Modified-Since comparisons exact. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}


const defaultMetadataCache = new Map<string, StoredMetadata>();

/** Keeps only the five storable standard headers, defaults Content-Type (ref §3, §6), lower-cases custom keys. */
export function normalizeMetadata(input: MetadataInput | undefined): StoredMetadata {
  const standard: Partial<Record<StandardHeader, string>> = {};
  let contentType = DEFAULT_CONTENT_TYPE;
  if (input !== undefined) {
    for (const name of STANDARD_METADATA_HEADERS) {
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
export function plainMetadata(contentType: string): StoredMetadata {
  let m = defaultMetadataCache.get(contentType);
  if (m === undefined) {
    m = { standard: { 'content-type': contentType }, custom: {} };
    defaultMetadataCache.set(contentType, m);
  }
  return m;
}

export function emptyStats(): Record<StorageClass, ClassCounter> {
  return { STANDARD: { count: 0, size: 0 }, STANDARD_IA: { count: 0, size: 0 } };
}

export function randomHex(length: number): string {
  const bytes = new Uint8Array(Math.ceil(length / 2));
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s.slice(0, length);
}

export function upperBoundNumber(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export const EMPTY_ARRAY = new Uint8Array(0);
