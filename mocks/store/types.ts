/**
 * Public types of the in-memory QingStor backend (mocks/store). The handlers layer parses requests,
 * calls the Store and renders its results on the wire; these types are the contract between them.
 *
 * Conventions (read before using):
 * - Every Store method is synchronous (Store.create() is the only async step: it loads the wasm MD5).
 *   A handler can therefore read, check conditions and write without any interleaving.
 * - Records returned by the Store are immutable snapshots (`readonly` everywhere); a write creates a
 *   new record, so holding on to one is safe.
 * - ETags are stored UNQUOTED lowercase 32-hex MD5 (or null for a multipart object completed without
 *   a client ETag, ref §8.5/§11.3). Handlers add the double quotes on the wire (ref §3, §9.5).
 * - Bodies are lists of Uint8Array chunks that the Store owns: callers must not mutate arrays they
 *   passed in or received. Completing a multipart upload references the part chunks, never copies.
 * - Times are Date objects; handlers format them (RFC 1123 headers, ISO `.000Z` JSON, Unix seconds).
 */
import type { BucketInfo } from './bucket-types.ts';
import type { StorageClass } from './metadata-types.ts';
import type { PartInfo, UploadInfo } from './multipart-types.ts';
import type { BodySegment, StoredObject } from './object-types.ts';

// The records and inputs of each area, in a module of their own; this module is their one door.
export * from './metadata-types.ts';
export type * from './bucket-types.ts';
export type * from './object-types.ts';
export type * from './multipart-types.ts';

// ---------------------------------------------------------------------------------------------
// Persistence

/**
 * Told about every change of the store's records BEFORE the change is made in memory, so a persistent
 * backend (mocks/store/disk.ts) can refuse it by throwing. Calls are synchronous.
 */
export interface StoreJournal {
  putBucket(info: BucketInfo): void;
  /** Also drops the bucket's uploads and parts. */
  deleteBucket(name: string): void;
  putObject(bucket: string, record: StoredObject): void;
  deleteObject(bucket: string, key: string): void;
  putUpload(info: UploadInfo): void;
  putPart(bucket: string, uploadId: string, part: PartInfo): void;
  /** Also drops the upload's parts. */
  deleteUpload(bucket: string, uploadId: string): void;
  /** Runs `change` as one atomic change of the journal. */
  atomically(change: () => void): void;
  /**
   * Store.bulkLoadLazy of a source with an `id`: return true when the journal keeps the generated objects
   * by that id (it records only later changes of the bucket and regenerates the rest when it restores);
   * absent or false, the store journals every generated object now.
   */
  lazyObjects?(bucket: string, source: LazyObjectSource): boolean;
}

/** Where a streamed body goes while it arrives: memory (default) or a body file (--data-dir). */
export interface BodySink {
  /** Takes one chunk; a promise when the caller must wait for it before the next (undefined: go on at once). */
  write(chunk: Uint8Array): Promise<void> | undefined;
  /** Makes the body durable and returns it; call once. */
  finish(): Promise<BodySegment[]>;
  /** Drops whatever was written. */
  abort(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Options and bulk load

export interface StoreOptions {
  /** injectable clock; default () => new Date() */
  now?: () => Date;
  /** minimum size of every part but the last at Complete (ref §8.5); default 4 MiB */
  minPartSize?: number;
  /** ListObjects default limit; default 100 (ref §9.5/§12) */
  defaultListLimit?: number;
  /** ListObjects clamp; default 1000 (ref §12: configurable; handlers may pass 100) */
  maxListLimit?: number;
  /** ListMultipart parts clamp and default; default 1000 (ref §8.4) */
  maxPartsListLimit?: number;
  /** ListMultipartUploads default 200 and clamp 1000 (ref §8.7) */
  defaultUploadsListLimit?: number;
  maxUploadsListLimit?: number;
  /** buckets per owner before too_many_buckets; default unlimited */
  maxBucketsPerOwner?: number;
  /**
   * largest body of one PutObject/PostObject, one part or one append before entity_too_large (ref §5.1,
   * §5.8, §8); default 5 GiB. Configurable so that tests can reach the boundary without 5 GB.
   */
  maxObjectSize?: number;
  /**
   * largest source of one PUT-copy and largest range of one part copied with Upload Part - Copy
   * (ref §5.2, §8.3: bigger objects are copied as multipart); default maxObjectSize. Checked by the
   * handlers (handlers/copy-limit.ts); configurable so that tests can copy small objects as "large".
   */
  copyLimit?: number;
  /** Persistence of records (the standalone server with --data-dir); default none. */
  journal?: StoreJournal;
  /** Where request bodies are streamed to; default memory. */
  bodySink?: () => BodySink;
}

/** One entry of Store.bulkLoad (seeding). */
export interface BulkObjectInput {
  key: string;
  /** default empty; the same Uint8Array may be shared by many entries (hashed once) */
  body?: Uint8Array;
  /** precomputed unquoted md5 hex (skips hashing) */
  etag?: string | null;
  contentType?: string;
  lastModified?: Date;
  storageClass?: StorageClass;
  custom?: Record<string, string>;
}

/** Store.bulkLoadLazy: `count` generated entries, strictly ascending by key, built on demand. */
export interface LazyObjectSource {
  /** Names the generator (and its parameters), so a persistent journal can regenerate it; optional. */
  id?: string;
  count: number;
  /** The key of entry `index` (cheap: called once per chunk of 512 up front). */
  keyAt(index: number): string;
  entryAt(index: number): BulkObjectInput;
}
