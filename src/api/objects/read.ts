import { parseHeaders, type CallOptions, type HeaderInput, type ObjectRef, type QsClient } from '../client.ts';
import { NetworkError } from '../errors.ts';
import { metadataFromHeaders } from '../metadata/header-mapping.ts';
import type { ObjectMetadata } from '../metadata/types.ts';
import { parseHttpDate } from '../protocol/http-date.ts';
import { formatHttpDate } from '../protocol/http-date.ts';
import { objectHeadersSchema } from './schemas.ts';

// ---------------------------------------------------------------------------------------------------
// Reading

/** HTTP dates accept a Date (formatted RFC 1123) or an already formatted string. */
export type HttpDateInput = Date | string;

export function formatDate(value: HttpDateInput | undefined): string | undefined {
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
