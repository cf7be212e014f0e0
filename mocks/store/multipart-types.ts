/** The store's multipart uploads, parts and inputs (see types.ts for the conventions of every store type). */
import type { MetadataInput, StorageClass, StoredMetadata } from './metadata-types.ts';
import type { BodyInput, ObjectBody } from './object-types.ts';

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
