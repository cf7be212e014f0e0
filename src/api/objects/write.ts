import {
  parseJsonBody,
  requestIdOf,
  type BucketRef,
  type CallOptions,
  type HeaderInput,
  type ObjectRef,
  type QsClient,
  type RequestBody,
  type WriteResult,
} from '../client.ts';
import { metadataToHeaders } from '../metadata/header-mapping.ts';
import type { ObjectMetadata } from '../metadata/types.ts';
import { sendWithProgress, type TransferProgress } from '../transfer.ts';
import { encodeKey } from '../url.ts';
import { contentMd5 } from './md5.ts';
import {
  MAX_DELETE_OBJECTS,
  deleteMultipleObjectsBodySchema,
  deleteMultipleObjectsResultSchema,
  type DeleteMultipleObjectsBody,
  type DeleteMultipleObjectsResult,
  type StorageClass,
} from './schemas.ts';

import { formatDate, type HttpDateInput } from './read.ts';

// ---------------------------------------------------------------------------------------------------
// Writing

/** `x-qs-meta-*` + standard headers for a write; Content-Type falls back to the Blob's own type. */
function writeHeaders(metadata: ObjectMetadata | undefined, body: RequestBody | undefined, storageClass: StorageClass | undefined): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = metadata ? metadataToHeaders(metadata) : {};
  if (headers['content-type'] === undefined && body instanceof Blob && body.type !== '') headers['content-type'] = body.type;
  headers['x-qs-storage-class'] = storageClass;
  return headers;
}

async function md5Header(body: RequestBody | undefined, contentMd5Option: string | boolean | undefined): Promise<string | undefined> {
  if (typeof contentMd5Option === 'string') return contentMd5Option;
  if (contentMd5Option !== true || body === undefined || body instanceof FormData) return undefined;
  return contentMd5(body);
}

export interface PutObjectInput extends ObjectRef {
  body: string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer>;
  metadata?: ObjectMetadata;
  storageClass?: StorageClass;
  /** A precomputed Content-MD5 (base64), or `true` to compute it here (ref §5.1: `bad_digest` on mismatch). */
  contentMd5?: string | boolean;
  onProgress?: (progress: TransferProgress) => void;
}

export interface EtagResult extends WriteResult {
  /** Quoted ETag header, '' when the response did not expose one. */
  etag: string;
}

/** PutObject — PUT object (ref §5.1) → 201 + ETag. Overwrites. Progress via XHR when available. */
export async function putObject(client: QsClient, input: PutObjectInput, options: CallOptions = {}): Promise<EtagResult> {
  const headers = writeHeaders(input.metadata, input.body, input.storageClass);
  headers['content-md5'] = await md5Header(input.body, input.contentMd5);
  const request = {
    operation: 'PutObject',
    method: 'PUT' as const,
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    headers,
    body: input.body,
    signal: options.signal,
  };
  const response = input.onProgress ? await sendWithProgress(client, { ...request, onProgress: input.onProgress }) : await client.send(request);
  return { etag: response.headers.get('etag') ?? '', requestId: requestIdOf(response) };
}

/** A "folder" is a zero-byte object whose key ends in '/' (ref §1.3). */
export function createFolder(client: QsClient, input: BucketRef & { prefix: string }, options: CallOptions = {}): Promise<EtagResult> {
  const key = input.prefix.endsWith('/') ? input.prefix : `${input.prefix}/`;
  return putObject(client, { zone: input.zone, bucket: input.bucket, key, body: '' }, options);
}

export interface SourceRef {
  bucket: string;
  key: string;
}

/** `/<bucket>/<key>` URL-encoded like a request path (ref §5.2: signed in its encoded form). */
export function sourceHeader(source: SourceRef): string {
  return `/${source.bucket}/${encodeKey(source.key)}`;
}

export interface CopyConditions {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: HttpDateInput;
  ifUnmodifiedSince?: HttpDateInput;
}

/** `<prefix>-if-*` headers of a copy/move (ref §5.2, §5.3) or a part copy (§8.3); unset conditions are left out. */
export function sourceConditionHeaders(prefix: 'x-qs-copy-source' | 'x-qs-move-source', c: CopyConditions | undefined): HeaderInput {
  return {
    [`${prefix}-if-match`]: c?.ifMatch,
    [`${prefix}-if-none-match`]: c?.ifNoneMatch,
    [`${prefix}-if-modified-since`]: formatDate(c?.ifModifiedSince),
    [`${prefix}-if-unmodified-since`]: formatDate(c?.ifUnmodifiedSince),
  };
}

export interface CopyObjectInput extends ObjectRef {
  source: SourceRef;
  /**
   * COPY: the destination gets the source's standard headers and metadata (`metadata` is not sent).
   * REPLACE: the destination gets exactly `metadata` — anything omitted is dropped, including
   * Content-Type (ref §5.2), so callers must send the full merged set.
   */
  directive: 'COPY' | 'REPLACE';
  metadata?: ObjectMetadata;
  storageClass?: StorageClass;
  /** Conditions on the source; failure ⇒ 412 precondition_failed (ref §5.2). */
  conditions?: CopyConditions;
}

/** The headers CopyObject sends; exported so the metadata editor can show/verify the exact request. */
export function copyObjectHeaders(input: Omit<CopyObjectInput, keyof ObjectRef>): Record<string, string | undefined> {
  const metadataHeaders = input.directive === 'REPLACE' && input.metadata ? metadataToHeaders(input.metadata) : {};
  return {
    ...metadataHeaders,
    'x-qs-copy-source': sourceHeader(input.source),
    'x-qs-metadata-directive': input.directive,
    'x-qs-storage-class': input.storageClass,
    ...sourceConditionHeaders('x-qs-copy-source', input.conditions),
  };
}

/** CopyObject — PUT dest with x-qs-copy-source (ref §5.2) → 201 + ETag. Copy onto itself + REPLACE edits metadata. */
export async function copyObject(client: QsClient, input: CopyObjectInput, options: CallOptions = {}): Promise<EtagResult> {
  const response = await client.send({
    operation: 'CopyObject',
    method: 'PUT',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    headers: copyObjectHeaders(input),
    signal: options.signal,
  });
  return { etag: response.headers.get('etag') ?? '', requestId: requestIdOf(response) };
}

export interface MoveObjectInput extends ObjectRef {
  source: SourceRef;
  conditions?: CopyConditions;
}

/** MoveObject — PUT dest with x-qs-move-source (ref §5.3) → 201; metadata kept, source removed. */
export async function moveObject(client: QsClient, input: MoveObjectInput, options: CallOptions = {}): Promise<EtagResult> {
  const response = await client.send({
    operation: 'MoveObject',
    method: 'PUT',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    headers: { 'x-qs-move-source': sourceHeader(input.source), ...sourceConditionHeaders('x-qs-move-source', input.conditions) },
    signal: options.signal,
  });
  return { etag: response.headers.get('etag') ?? '', requestId: requestIdOf(response) };
}

/** DeleteObject — DELETE object (ref §5.6) → 204, also when the key did not exist. */
export async function deleteObject(client: QsClient, ref: ObjectRef, options: CallOptions = {}): Promise<WriteResult> {
  const response = await client.send({ operation: 'DeleteObject', method: 'DELETE', zone: ref.zone, bucket: ref.bucket, key: ref.key, signal: options.signal });
  return { requestId: requestIdOf(response) };
}

export interface AppendObjectInput extends ObjectRef {
  /** 0 for the first append, then the current size (`nextAppendPosition`), ref §5.8. */
  position: number;
  body: string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer>;
  /** Honoured on the first append only (ref §5.8). */
  contentType?: string;
  storageClass?: StorageClass;
  contentMd5?: string | boolean;
}

export interface AppendResult extends WriteResult {
  nextPosition: number;
}

/** AppendObject — POST object?append&position=n (ref §5.8) → 200 + x-qs-next-append-position. */
export async function appendObject(client: QsClient, input: AppendObjectInput, options: CallOptions = {}): Promise<AppendResult> {
  const response = await client.send({
    operation: 'AppendObject',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    query: { append: null, position: input.position },
    headers: {
      'content-type': input.contentType ?? (input.body instanceof Blob && input.body.type !== '' ? input.body.type : undefined),
      'content-md5': await md5Header(input.body, input.contentMd5),
      'x-qs-storage-class': input.storageClass,
    },
    body: input.body,
    signal: options.signal,
  });
  const next = Number(response.headers.get('x-qs-next-append-position'));
  return { nextPosition: Number.isSafeInteger(next) ? next : input.position + sizeOf(input.body), requestId: requestIdOf(response) };
}

function sizeOf(body: AppendObjectInput['body']): number {
  if (typeof body === 'string') return new TextEncoder().encode(body).byteLength;
  if (body instanceof Blob) return body.size;
  return body.byteLength;
}

/** The exact DeleteMultipleObjects body (keys as plain UTF-8 JSON strings, ref §5.9). */
export function deleteMultipleObjectsBody(keys: readonly string[], quiet = false): DeleteMultipleObjectsBody {
  return deleteMultipleObjectsBodySchema.parse({ quiet, objects: keys.map((key) => ({ key })) });
}

export interface DeleteMultipleObjectsInput extends BucketRef {
  /** 1..1000 keys (ref §5.9 `too_many_objects`); callers batch larger selections. */
  keys: readonly string[];
  quiet?: boolean;
}

/** DeleteMultipleObjects — POST bucket?delete (ref §5.9) with the mandatory Content-MD5 of the body; the answer's request id beside it. */
export async function deleteMultipleObjects(client: QsClient, input: DeleteMultipleObjectsInput, options: CallOptions = {}): Promise<DeleteMultipleObjectsResult & WriteResult> {
  if (input.keys.length > MAX_DELETE_OBJECTS) throw new RangeError(`At most ${MAX_DELETE_OBJECTS} keys per DeleteMultipleObjects request`);
  const bytes = new TextEncoder().encode(JSON.stringify(deleteMultipleObjectsBody(input.keys, input.quiet)));
  const response = await client.send({
    operation: 'DeleteMultipleObjects',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    query: { delete: null },
    headers: { 'content-type': 'application/json', 'content-md5': await contentMd5(bytes) },
    body: bytes,
    signal: options.signal,
  });
  const result = await parseJsonBody(deleteMultipleObjectsResultSchema, response, { operation: 'DeleteMultipleObjects', method: 'POST', requestUrl: response.url });
  return { ...result, requestId: requestIdOf(response) };
}
