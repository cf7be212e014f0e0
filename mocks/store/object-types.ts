/** The store's object records, bodies and inputs (see types.ts for the conventions of every store type). */
import type { MetadataInput, StorageClass, StoredMetadata } from './metadata-types.ts';

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
