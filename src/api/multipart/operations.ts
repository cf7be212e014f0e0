import { requestIdOf, type BucketRef, type CallOptions, type ObjectRef, type QsClient, type WriteResult } from '../client.ts';
import { metadataToHeaders } from '../metadata/header-mapping.ts';
import type { ObjectMetadata } from '../metadata/types.ts';
import { quoteEtag, unquoteEtag } from '../protocol/etag.ts';
import { sourceConditionHeaders, sourceHeader, type CopyConditions, type SourceRef } from '../objects/write.ts';
import type { StorageClass } from '../objects/schemas.ts';
import { sendWithProgress, type TransferProgress } from '../transfer.ts';
import {
  MAX_LIST_PARTS_LIMIT,
  MAX_LIST_UPLOADS_LIMIT,
  completeMultipartUploadBodySchema,
  initiateMultipartUploadSchema,
  listMultipartSchema,
  listMultipartUploadsSchema,
  partNumberSchema,
  type CompleteMultipartUploadBody,
  type InitiateMultipartUploadResult,
  type ListMultipartResult,
  type ListMultipartUploadsResult,
} from './schemas.ts';

export interface UploadRef extends ObjectRef {
  uploadId: string;
}

export interface InitiateMultipartUploadInput extends ObjectRef {
  /** Standard headers + custom metadata the completed object will carry (ref §8.1, §6). */
  metadata?: ObjectMetadata;
  storageClass?: StorageClass;
}

/** InitiateMultipartUpload — POST object?uploads (ref §8.1) → upload id. */
export function initiateMultipartUpload(client: QsClient, input: InitiateMultipartUploadInput, options: CallOptions = {}): Promise<InitiateMultipartUploadResult> {
  return client.json(initiateMultipartUploadSchema, {
    operation: 'InitiateMultipartUpload',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { uploads: null },
    headers: { ...(input.metadata ? metadataToHeaders(input.metadata) : {}), 'x-qs-storage-class': input.storageClass },
    signal: options.signal,
  });
}

export interface UploadPartInput extends UploadRef {
  partNumber: number;
  /** A `Blob.slice` of the file: never read whole into memory. */
  body: Blob | Uint8Array<ArrayBuffer>;
  /** Base64 Content-MD5, computed off the main thread by the caller (ref §8.2: `bad_digest`). */
  contentMd5?: string;
  onProgress?: (progress: TransferProgress) => void;
}

/** UploadMultipart — PUT object?upload_id&part_number (ref §8.2) → 201 + part ETag. XHR with progress. */
export async function uploadPart(client: QsClient, input: UploadPartInput, options: CallOptions = {}): Promise<{ etag: string; requestId: string }> {
  partNumberSchema.parse(input.partNumber);
  const response = await sendWithProgress(client, {
    operation: 'UploadMultipart',
    method: 'PUT',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { upload_id: input.uploadId, part_number: input.partNumber },
    headers: { 'content-type': 'application/octet-stream', 'content-md5': input.contentMd5 },
    body: input.body,
    signal: options.signal,
    onProgress: input.onProgress,
  });
  return { etag: response.headers.get('etag') ?? '', requestId: requestIdOf(response) };
}

/** A byte range of the copy source, both ends inclusive (`x-qs-copy-range: bytes=start-end`). */
export interface CopyRange {
  start: number;
  end: number;
}

export interface UploadPartCopyInput extends UploadRef {
  partNumber: number;
  /** The object whose bytes become the part (same zone; READ on its bucket). */
  source: SourceRef;
  /** Which bytes; absent = the whole source. Each part copy takes at most the copy limit (5 GB). */
  range?: CopyRange;
  /** Conditions on the source; failure ⇒ 412 precondition_failed and no part is written. */
  conditions?: CopyConditions;
}

export interface UploadPartCopyResult {
  /** The part's ETag as the server sent it (quoted). */
  etag: string;
  /** `x-qs-content-copy-range` (`bytes a-b/<source size>`): what the server copied; '' when absent. */
  copiedRange: string;
  requestId: string;
}

/** The `x-qs-copy-range` value of a range; throws RangeError for a range that is not start ≤ end, both ≥ 0 integers. */
export function copyRangeHeader(range: CopyRange): string {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start) {
    throw new RangeError(`not a byte range: ${range.start}-${range.end}`);
  }
  return `bytes=${range.start}-${range.end}`;
}

/**
 * Upload Part - Copy — PUT object?upload_id&part_number with `x-qs-copy-source` (ref §8.3) → 201 + part
 * ETag. The part's bytes are `range` of `source`, copied on the server; nothing passes through the browser.
 */
export async function uploadPartCopy(client: QsClient, input: UploadPartCopyInput, options: CallOptions = {}): Promise<UploadPartCopyResult> {
  partNumberSchema.parse(input.partNumber);
  const response = await client.send({
    operation: 'UploadPartCopy',
    method: 'PUT',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { upload_id: input.uploadId, part_number: input.partNumber },
    headers: {
      'x-qs-copy-source': sourceHeader(input.source),
      'x-qs-copy-range': input.range ? copyRangeHeader(input.range) : undefined,
      ...sourceConditionHeaders('x-qs-copy-source', input.conditions),
    },
    signal: options.signal,
  });
  return {
    etag: response.headers.get('etag') ?? '',
    copiedRange: response.headers.get('x-qs-content-copy-range') ?? '',
    requestId: requestIdOf(response),
  };
}

export interface ListPartsInput extends UploadRef {
  /** Return parts after this part number (part numbers start at 0, so omit it for the first page). */
  partNumberMarker?: number;
  /** 1..1000 (ref §8.4). */
  limit?: number;
}

/** ListMultipart — GET object?upload_id (ref §8.4). */
export function listParts(client: QsClient, input: ListPartsInput, options: CallOptions = {}): Promise<ListMultipartResult> {
  if (input.limit !== undefined && (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > MAX_LIST_PARTS_LIMIT)) {
    throw new RangeError(`limit must be an integer between 1 and ${MAX_LIST_PARTS_LIMIT}`);
  }
  return client.json(listMultipartSchema, {
    operation: 'ListMultipart',
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { upload_id: input.uploadId, part_number_marker: input.partNumberMarker, limit: input.limit },
    signal: options.signal,
  });
}

export interface CompletePart {
  partNumber: number;
  etag?: string;
}

/** The Complete body: parts sorted ascending, etags unquoted as ListMultipart shows them (ref §8.5). */
export function completeMultipartUploadBody(parts: readonly CompletePart[]): CompleteMultipartUploadBody {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  return completeMultipartUploadBodySchema.parse({
    object_parts: sorted.map((p) => (p.etag === undefined ? { part_number: p.partNumber } : { part_number: p.partNumber, etag: unquoteEtag(p.etag) })),
  });
}

export interface CompleteMultipartUploadInput extends UploadRef {
  parts: readonly CompletePart[];
  /**
   * ETag for the assembled object: the service does not compute one, it stores this value (ref §8.5).
   * Quoted automatically.
   */
  etag?: string;
}

/** CompleteMultipartUpload — POST object?upload_id (ref §8.5) → 201. */
export async function completeMultipartUpload(client: QsClient, input: CompleteMultipartUploadInput, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'CompleteMultipartUpload',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { upload_id: input.uploadId },
    headers: { 'content-type': 'application/json', etag: input.etag === undefined ? undefined : quoteEtag(input.etag) },
    body: JSON.stringify(completeMultipartUploadBody(input.parts)),
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}

/** AbortMultipartUpload — DELETE object?upload_id (ref §8.6) → 204, idempotent. */
export async function abortMultipartUpload(client: QsClient, input: UploadRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({
    operation: 'AbortMultipartUpload',
    method: 'DELETE',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { upload_id: input.uploadId },
    signal: options.signal,
  });
  return { requestId: requestIdOf(response) };
}

export interface ListMultipartUploadsInput extends BucketRef {
  prefix?: string;
  delimiter?: string;
  keyMarker?: string;
  uploadIdMarker?: string;
  /** 1..1000, server default 200 (ref §8.7). */
  limit?: number;
}

/** ListMultipartUploads — GET bucket?uploads (ref §8.7): in-progress uploads only. */
export function listMultipartUploads(client: QsClient, input: ListMultipartUploadsInput, options: CallOptions = {}): Promise<ListMultipartUploadsResult> {
  if (input.limit !== undefined && (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > MAX_LIST_UPLOADS_LIMIT)) {
    throw new RangeError(`limit must be an integer between 1 and ${MAX_LIST_UPLOADS_LIMIT}`);
  }
  return client.json(listMultipartUploadsSchema, {
    operation: 'ListMultipartUploads',
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    query: {
      uploads: null,
      prefix: input.prefix || undefined,
      delimiter: input.delimiter || undefined,
      key_marker: input.keyMarker || undefined,
      upload_id_marker: input.uploadIdMarker || undefined,
      limit: input.limit,
    },
    signal: options.signal,
  });
}

/** Whether another ListMultipartUploads page exists: `has_more` (SPEC), else a non-empty next marker (DOCS). */
export function uploadsHaveMore(page: ListMultipartUploadsResult): boolean {
  return page.has_more ?? page.next_key_marker !== '';
}
