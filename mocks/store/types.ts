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
import type { StandardHeader } from '../../src/api/protocol/headers.ts';

export const STORAGE_CLASSES = ['STANDARD', 'STANDARD_IA'] as const;
export type StorageClass = (typeof STORAGE_CLASSES)[number];

/** The five storable standard headers (ref §6), lower-case: STANDARD_METADATA_HEADERS of the protocol module. */
export type StandardHeaderName = StandardHeader;

/**
 * Object metadata as the handlers pass it in; structurally identical to `ObjectMetadata` of
 * src/api/metadata/model.ts, so `metadataFromHeaders(request.headers)` can be passed directly.
 * Custom keys are WITHOUT the `x-qs-meta-` prefix; the Store lower-cases them (ref §11.6).
 * Validation of the custom metadata rules (ref §6) is the handlers' job (checkCustomMetadata).
 */
export interface MetadataInput {
  standard: Partial<Record<StandardHeaderName, string>>;
  custom: Record<string, string>;
}

/** Stored metadata: `standard['content-type']` is always present (default application/octet-stream, ref §3). */
export interface StoredMetadata {
  readonly standard: Readonly<Partial<Record<StandardHeaderName, string>>> & { readonly 'content-type': string };
  readonly custom: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------
// Buckets

export type AclPermission = 'READ' | 'WRITE' | 'FULL_CONTROL';
export type AclGrantee = { readonly type: 'user'; readonly id: string } | { readonly type: 'group'; readonly name: 'QS_ALL_USERS' };
/** One ACL entry (ref §9.7). The owner's implicit FULL_CONTROL is NOT stored in the list. */
export interface AclGrant {
  readonly grantee: AclGrantee;
  readonly permission: AclPermission;
}

/** One CORS rule, ref §9.9 wire shape (snake_case), stored verbatim after the handlers validated it. */
export interface CorsRule {
  readonly allowed_origin: string;
  readonly allowed_methods: readonly string[];
  readonly allowed_headers?: readonly string[];
  readonly expose_headers?: readonly string[];
  readonly max_age_seconds?: number;
}
export interface CorsConfiguration {
  readonly cors_rules: readonly CorsRule[];
  readonly resp_vary?: string;
}

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
/** Bucket policy document (ref §9.8), stored and returned verbatim. */
export type BucketPolicy = { readonly [key: string]: JsonValue };

export type BucketStatus = 'active' | 'suspended';

/** One lifecycle rule (ref §9.10): a prefix filter and exactly one action. */
export interface LifecycleRule {
  readonly id: string;
  readonly status: 'enabled' | 'disabled';
  readonly filter: { readonly prefix?: string };
  readonly expiration?: { readonly days: number };
  readonly abort_incomplete_multipart_upload?: { readonly days_after_initiation: number };
  readonly transition?: { readonly days?: number; readonly storage_class: 'STANDARD' | 'STANDARD_IA' };
}
export interface LifecycleConfiguration {
  readonly rule: readonly LifecycleRule[];
  /** When the rules were last written (ms since the epoch): they act from 24 hours later (ref §9.10). */
  readonly updated: number;
}

export interface BucketInfo {
  readonly name: string;
  /** zone id, e.g. 'pek3a' */
  readonly zone: string;
  readonly ownerId: string;
  readonly created: Date;
  readonly status: BucketStatus;
  /** explicit grants only; owner has implicit FULL_CONTROL (ref §9.7) */
  readonly acl: readonly AclGrant[];
  /** null = never configured (GET ?cors then answers {"cors_rules": []}, ref §9.9) */
  readonly cors: CorsConfiguration | null;
  /** null = no policy */
  readonly policy: BucketPolicy | null;
  /** null = no lifecycle rules (GET ?lifecycle then answers {"rule": []}, ref §9.10) */
  readonly lifecycle: LifecycleConfiguration | null;
}

export interface CreateBucketInput {
  name: string;
  zone: string;
  ownerId: string;
}

export interface ListBucketsInput {
  ownerId: string;
  zone?: string;
  /** default 0 */
  offset?: number;
  /** default 200 (ref §9.1); no upper clamp */
  limit?: number;
}
export interface ListBucketsResult {
  /** total number of matching buckets (not the page size), ref §9.1 */
  readonly count: number;
  /** ordered by name */
  readonly buckets: readonly BucketInfo[];
}

export interface StorageClassStats {
  readonly count: number;
  readonly size: number;
  /** mock: billing_size = size (ref §9.6) */
  readonly billingSize: number;
}
/** ref §9.6. Counts completed objects only (in-progress multipart parts are not included). */
export interface BucketStatistics {
  readonly count: number;
  readonly size: number;
  readonly storageClasses: Readonly<Record<StorageClass, StorageClassStats>>;
}

// ---------------------------------------------------------------------------------------------
// Objects

/**
 * Bytes [offset, offset + byteLength) of a body file on disk (the standalone server with --data-dir).
 * Files are written once and never changed, so a segment can be shared by objects, parts and copies.
 */
export interface FileSegment {
  readonly file: string;
  readonly offset: number;
  readonly byteLength: number;
}

/** A piece of a body: bytes in memory, or a range of a body file. */
export type BodySegment = Uint8Array | FileSegment;

/** An object's bytes: chunks in order; `offsets[i]` is the byte offset of `chunks[i]`. */
export interface ObjectBody {
  readonly chunks: readonly BodySegment[];
  readonly offsets: readonly number[];
  readonly size: number;
}

/** Bytes handed to the Store: one array or a list of chunks (taken over without copying). */
export type BodyInput = Uint8Array | readonly BodySegment[];

export interface StoredObject {
  readonly key: string;
  readonly body: ObjectBody;
  readonly size: number;
  /** unquoted lowercase 32-hex MD5, or null (multipart completed without client ETag). Handlers quote it. */
  readonly etag: string | null;
  /** when this version was first written (append keeps it); ms precision truncated to seconds */
  readonly created: Date;
  /** whole seconds (ref §11.4) */
  readonly lastModified: Date;
  /** = metadata.standard['content-type'] */
  readonly contentType: string;
  readonly metadata: StoredMetadata;
  readonly storageClass: StorageClass;
  /** created by AppendObject (ref §5.8); HEAD then adds x-qs-object-type / x-qs-next-append-position */
  readonly appendable: boolean;
}

export interface PutObjectInput {
  body: BodyInput;
  metadata?: MetadataInput;
  /** default STANDARD */
  storageClass?: StorageClass;
  /** base64 Content-MD5 header value; mismatch ⇒ bad_digest (ref §5.1) */
  contentMd5?: string;
  /** lowercase hex MD5 of `body`, when the caller computed it while the body arrived (else the store hashes it) */
  md5?: string;
}

export interface CopyObjectInput {
  sourceBucket: string;
  sourceKey: string;
  bucket: string;
  key: string;
  /** default 'COPY' (ref §5.2) */
  directive?: 'COPY' | 'REPLACE';
  /** used with REPLACE (missing ⇒ empty metadata, content-type default) */
  metadata?: MetadataInput;
  /** destination storage class; default: the source's class (inferred, both directives) */
  storageClass?: StorageClass;
  /** called with the source before anything is written; throw (e.g. precondition_failed) to abort */
  precondition?: (source: StoredObject) => void;
}

export interface MoveObjectInput {
  sourceBucket: string;
  sourceKey: string;
  bucket: string;
  key: string;
  precondition?: (source: StoredObject) => void;
}

export interface AppendObjectInput {
  position: number;
  body: BodyInput;
  /** honoured on the first append only (ref §5.8) */
  metadata?: MetadataInput;
  storageClass?: StorageClass;
  contentMd5?: string;
  /** lowercase hex MD5 of `body`, when the caller computed it while the body arrived (else the store hashes it) */
  md5?: string;
}
export interface AppendObjectResult {
  readonly object: StoredObject;
  /** = new size, for x-qs-next-append-position */
  readonly nextPosition: number;
}

export interface DeleteObjectsResult {
  /** keys reported deleted (including ones that did not exist, ref §5.9) */
  readonly deleted: readonly string[];
  readonly errors: readonly { readonly key: string; readonly code: string; readonly message: string }[];
}

export interface ListObjectsInput {
  prefix?: string;
  /** '' or undefined = no grouping */
  delimiter?: string;
  marker?: string;
  /** undefined or 0 ⇒ options.defaultListLimit; > options.maxListLimit ⇒ clamped; negative/non-integer ⇒ invalid_argument */
  limit?: number;
}
export interface ListObjectsResult {
  readonly keys: readonly StoredObject[];
  readonly commonPrefixes: readonly string[];
  readonly hasMore: boolean;
  /** last returned item (key or common prefix), '' if nothing returned (ref §9.5) */
  readonly nextMarker: string;
  /** the effective (defaulted/clamped) limit */
  readonly limit: number;
}

// ---------------------------------------------------------------------------------------------
// Multipart

export interface InitiateUploadInput {
  metadata?: MetadataInput;
  storageClass?: StorageClass;
}

export interface UploadInfo {
  readonly bucket: string;
  readonly key: string;
  /** 32 lowercase hex; ids of one store sort in creation order */
  readonly uploadId: string;
  /** ms precision (ref §3 ISO `.sssZ`) */
  readonly created: Date;
  readonly metadata: StoredMetadata;
  readonly storageClass: StorageClass;
}

export interface PartInfo {
  readonly partNumber: number;
  readonly size: number;
  /** unquoted lowercase MD5 hex */
  readonly etag: string;
  readonly created: Date;
  readonly body: ObjectBody;
}

export interface UploadPartInput {
  body: BodyInput;
  contentMd5?: string;
  /** lowercase hex MD5 of `body`, when the caller computed it while the body arrived (else the store hashes it) */
  md5?: string;
}

export interface ListPartsInput {
  /** return parts with a number greater than this */
  partNumberMarker?: number;
  /** undefined/0 ⇒ options.maxPartsListLimit (1000); larger ⇒ clamped; negative/non-integer ⇒ invalid_argument */
  limit?: number;
}
export interface ListPartsResult {
  /** number of parts of the whole upload (ref §8.4, inferred) */
  readonly count: number;
  readonly parts: readonly PartInfo[];
  readonly hasMore: boolean;
  readonly limit: number;
}

export interface CompletePartRef {
  partNumber: number;
  /** optional; quotes are ignored when comparing */
  etag?: string;
}
export interface CompleteUploadInput {
  parts: readonly CompletePartRef[];
  /** value of the request's ETag header (quoted or not); stored unquoted; absent ⇒ object etag null */
  etag?: string | null;
}

export interface ListUploadsInput {
  prefix?: string;
  delimiter?: string;
  keyMarker?: string;
  uploadIdMarker?: string;
  /** undefined/0 ⇒ options.defaultUploadsListLimit (200); > options.maxUploadsListLimit (1000) ⇒ clamped */
  limit?: number;
}
export interface ListUploadsResult {
  readonly uploads: readonly UploadInfo[];
  readonly commonPrefixes: readonly string[];
  readonly hasMore: boolean;
  /** last key or common prefix of the page; '' when !hasMore (ref §8.7) */
  readonly nextKeyMarker: string;
  /** upload id of the last returned upload when it is the last item; '' otherwise or when !hasMore */
  readonly nextUploadIdMarker: string;
  readonly limit: number;
}

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
  write(chunk: Uint8Array): Promise<void>;
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
