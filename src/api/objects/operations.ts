import {
  parseHeaders,
  requestIdOf,
  type BucketRef,
  type CallOptions,
  type HeaderInput,
  type ObjectRef,
  type QsClient,
  type RequestBody,
  type WriteResult,
} from '../client.ts';
import { NetworkError } from '../errors.ts';
import { metadataFromHeaders, metadataToHeaders, parseHttpDate, type ObjectMetadata } from '../metadata/model.ts';
import { formatHttpDate } from '../protocol/http-date.ts';
import { sendWithProgress, type TransferProgress } from '../transfer.ts';
import { encodeKey } from '../url.ts';
import { contentMd5 } from './md5.ts';
import {
  MAX_DELETE_OBJECTS,
  deleteMultipleObjectsBodySchema,
  deleteMultipleObjectsResultSchema,
  listObjectsSchema,
  objectHeadersSchema,
  type DeleteMultipleObjectsBody,
  type DeleteMultipleObjectsResult,
  type ListObjectsResult,
  type StorageClass,
} from './schemas.ts';

// ---------------------------------------------------------------------------------------------------
// Listing

export interface ListObjectsInput extends BucketRef {
  prefix?: string;
  delimiter?: string;
  /** Start after this key: the previous page's `next_marker` (ref §9.5). */
  marker?: string;
  /** The server clamps it (ref §12: max 100 on the real service); always page with `has_more`. */
  limit?: number;
}

/** Next ListObjects marker, or undefined when the listing is complete (ref §9.5). */
export function nextObjectsMarker(page: ListObjectsResult): string | undefined {
  return page.has_more && page.next_marker !== '' ? page.next_marker : undefined;
}

/** ListObjects — GET bucket (ref §9.5). */
export function listObjects(client: QsClient, input: ListObjectsInput, options: CallOptions = {}): Promise<ListObjectsResult> {
  return client.json(listObjectsSchema, {
    operation: 'ListObjects',
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    query: {
      prefix: input.prefix || undefined,
      delimiter: input.delimiter || undefined,
      marker: input.marker || undefined,
      limit: input.limit,
    },
    signal: options.signal,
  });
}

/**
 * Whether an object is stored under exactly `key`, asked as a listing (prefix `key`, limit 1) instead of a HEAD.
 * Keys list in byte order and a key sorts before every longer key it is a prefix of, so the first key listed is
 * `key` itself when it exists. The listing answers 200 either way, where the HEAD of a free key answers 404,
 * which the browser reports in its console for every file of an upload. Other failures (no right to list, the
 * network) are thrown, as a HEAD's would be: an unknown key is never taken for a free one.
 */
export async function objectExists(client: QsClient, ref: ObjectRef, options: CallOptions = {}): Promise<boolean> {
  const page = await listObjects(client, { ...(ref.zone === undefined ? {} : { zone: ref.zone }), bucket: ref.bucket, prefix: ref.key, limit: 1 }, options);
  return page.keys[0]?.key === ref.key;
}

// ---------------------------------------------------------------------------------------------------
// Reading

/** HTTP dates accept a Date (formatted RFC 1123) or an already formatted string. */
export type HttpDateInput = Date | string;

function formatDate(value: HttpDateInput | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : formatHttpDate(value);
}

export interface ReadConditions {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: HttpDateInput;
  ifUnmodifiedSince?: HttpDateInput;
}

function readConditionHeaders(c: ReadConditions | undefined): HeaderInput {
  return {
    'if-match': c?.ifMatch,
    'if-none-match': c?.ifNoneMatch,
    'if-modified-since': formatDate(c?.ifModifiedSince),
    'if-unmodified-since': formatDate(c?.ifUnmodifiedSince),
  };
}

/** HeadObject/GetObject headers as one typed object (ref §5.4, §5.5). */
export interface ObjectHead {
  bucket: string;
  key: string;
  /** Full object size (Content-Length of HEAD). */
  size: number;
  /** Content-Type as stored (parameters kept), default application/octet-stream (ref §11.5). */
  contentType: string;
  /** Quoted ETag exactly as sent; absent for multipart objects completed without one (ref §8.5). */
  etag?: string;
  lastModified?: Date;
  /** The Last-Modified header verbatim, for `If-Unmodified-Since` round trips. */
  lastModifiedRaw?: string;
  /**
   * The server's clock when it answered (the Date header), with the local time it arrived, so a caller
   * can tell "now" on the server's clock. Absent when the browser may not read Date (CORS).
   */
  serverClock?: { serverDate: Date; receivedAt: number };
  storageClass: string;
  /** `appendable` for objects written by AppendObject (ref §5.8). */
  objectType?: string;
  nextAppendPosition?: number;
  encryptionAlgorithm?: string;
  versionId?: string;
  deleteMarker?: boolean;
  contentLanguage?: string;
  /** Five storable standard headers + custom `x-qs-meta-*` (keys lower-case, no prefix). */
  metadata: ObjectMetadata;
  /**
   * Set by headObjectReadable when the browser refused the object's stored Content-Encoding: the head
   * was read with that header overridden, so its stored value is unknown (and left out of `metadata`).
   */
  refused?: 'content-encoding';
  requestId: string;
}

/** Response headers → ObjectHead; ContractError when a typed header is malformed. */
export function objectHeadFromResponse(response: Response, ref: ObjectRef, operation: string, method: string): ObjectHead {
  const h = parseHeaders(objectHeadersSchema, response, { operation, method, requestUrl: response.url });
  const head: ObjectHead = {
    bucket: ref.bucket,
    key: ref.key,
    size: h['content-length'] ?? 0,
    contentType: h['content-type'] ?? 'application/octet-stream',
    storageClass: h['x-qs-storage-class'] ?? 'STANDARD',
    metadata: metadataFromHeaders(response.headers),
    requestId: h['x-qs-request-id'] ?? '',
  };
  if (h.etag !== undefined) head.etag = h.etag;
  if (h['last-modified'] !== undefined) {
    head.lastModifiedRaw = h['last-modified'];
    head.lastModified = new Date(h['last-modified']);
  }
  const date = parseHttpDate(response.headers.get('date') ?? '');
  if (date) head.serverClock = { serverDate: date, receivedAt: Date.now() };
  if (h['x-qs-object-type'] !== undefined) head.objectType = h['x-qs-object-type'];
  if (h['x-qs-next-append-position'] !== undefined) head.nextAppendPosition = h['x-qs-next-append-position'];
  if (h['x-qs-encryption-customer-algorithm'] !== undefined) head.encryptionAlgorithm = h['x-qs-encryption-customer-algorithm'];
  if (h['x-qs-version-id'] !== undefined) head.versionId = h['x-qs-version-id'];
  if (h['x-qs-delete-marker'] !== undefined) head.deleteMarker = h['x-qs-delete-marker'];
  if (h['content-language'] !== undefined) head.contentLanguage = h['content-language'];
  return head;
}

export interface HeadObjectInput extends ObjectRef {
  conditions?: ReadConditions;
  /** `response-content-encoding`: replaces the stored Content-Encoding in this answer (signed requests only). */
  overrideContentEncoding?: string;
}

/** HeadObject — HEAD object (ref §5.5). Errors carry no body: ApiError codes come from the status. */
export async function headObject(client: QsClient, input: HeadObjectInput, options: CallOptions = {}): Promise<ObjectHead> {
  const response = await client.send({
    operation: 'HeadObject',
    method: 'HEAD',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    headers: readConditionHeaders(input.conditions),
    ...(input.overrideContentEncoding !== undefined ? { query: { 'response-content-encoding': input.overrideContentEncoding } } : {}),
    signal: options.signal,
  });
  return objectHeadFromResponse(response, input, 'HeadObject', 'HEAD');
}

/**
 * HeadObject as a browser can read it. A stored Content-Encoding the browser cannot decode ("a b",
 * "\"x\"") makes it fail every request for the object with a network error, which looks exactly like a
 * CORS block. On a network error this asks once more with the Content-Encoding overridden
 * (`response-content-encoding=identity`); if that answer arrives, the object is readable except for that
 * header, and the head says so (`refused`) with the header left out — its stored value cannot be known.
 * If the second request fails too, the first error stands.
 */
export async function headObjectReadable(client: QsClient, input: HeadObjectInput, options: CallOptions = {}): Promise<ObjectHead> {
  try {
    return await headObject(client, input, options);
  } catch (error) {
    if (!(error instanceof NetworkError) || client.connection.credentials === undefined) throw error;
    let probe: ObjectHead;
    try {
      probe = await headObject(client, { ...input, overrideContentEncoding: 'identity' }, options);
    } catch {
      throw error;
    }
    const { 'content-encoding': _unknown, ...standard } = probe.metadata.standard;
    return { ...probe, metadata: { ...probe.metadata, standard }, refused: 'content-encoding' };
  }
}

export interface GetObjectInput extends ObjectRef {
  /** `bytes=a-b`, `bytes=a-` or `bytes=-n` (ref §3). */
  range?: string;
  conditions?: ReadConditions;
}

export interface GetObjectResult {
  head: ObjectHead;
  /** 206 when a range was served. */
  status: number;
  contentRange?: string;
  body: Blob;
}

/** GetObject — GET object (ref §5.4) into a Blob, e.g. for a preview. Use getObjectUrl for downloads. */
export async function getObject(client: QsClient, input: GetObjectInput, options: CallOptions = {}): Promise<GetObjectResult> {
  const response = await client.send({
    operation: 'GetObject',
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    headers: { range: input.range, ...readConditionHeaders(input.conditions) },
    signal: options.signal,
  });
  const head = objectHeadFromResponse(response, input, 'GetObject', 'GET');
  const result: GetObjectResult = { head, status: response.status, body: await response.blob() };
  const contentRange = response.headers.get('content-range');
  if (contentRange !== null) result.contentRange = contentRange;
  return result;
}

/**
 * `attachment` Content-Disposition for a download name, non-ASCII safe, as DOCS suggest for
 * `response-content-disposition` (ref §5.4).
 */
export function attachmentDisposition(filename: string): string {
  const encoded = encodeURIComponent(filename);
  return `attachment; filename="${encoded}"; filename*=utf-8''${encoded}`;
}

export interface GetObjectUrlInput extends ObjectRef {
  /** Link lifetime in seconds. */
  expiresIn: number;
  /** Force a download with this file name (signed `response-content-disposition`). */
  downloadName?: string;
  /** Override the served Content-Type (signed `response-content-type`). */
  responseContentType?: string;
  /** Show in the browser rather than save (signed `response-content-disposition: inline`); ignored with downloadName. */
  inline?: boolean;
}

/**
 * Pre-signed GET link (ref §2.5). Anonymous connections get the plain URL (works for public-read
 * buckets only), without response-* overrides, which anonymous requests may not use (ref §5.4).
 */
export function getObjectUrl(client: QsClient, input: GetObjectUrlInput): Promise<URL> {
  const signed = client.connection.credentials !== undefined;
  return client.presign({
    method: 'GET',
    zone: input.zone,
    bucket: input.bucket,
    key: input.key,
    expiresIn: input.expiresIn,
    query: signed
      ? {
          'response-content-disposition':
            input.downloadName !== undefined ? attachmentDisposition(input.downloadName) : input.inline === true ? 'inline' : undefined,
          'response-content-type': input.responseContentType,
        }
      : undefined,
  });
}

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

/** DeleteMultipleObjects — POST bucket?delete (ref §5.9) with the mandatory Content-MD5 of the body. */
export async function deleteMultipleObjects(client: QsClient, input: DeleteMultipleObjectsInput, options: CallOptions = {}): Promise<DeleteMultipleObjectsResult> {
  if (input.keys.length > MAX_DELETE_OBJECTS) throw new RangeError(`At most ${MAX_DELETE_OBJECTS} keys per DeleteMultipleObjects request`);
  const bytes = new TextEncoder().encode(JSON.stringify(deleteMultipleObjectsBody(input.keys, input.quiet)));
  return client.json(deleteMultipleObjectsResultSchema, {
    operation: 'DeleteMultipleObjects',
    method: 'POST',
    zone: input.zone,
    bucket: input.bucket,
    query: { delete: null },
    headers: { 'content-type': 'application/json', 'content-md5': await contentMd5(bytes) },
    body: bytes,
    signal: options.signal,
  });
}
