import type { z } from 'zod';
import type { Connection } from './connection.ts';
import { ContractError, NetworkError, apiErrorFromResponse, isAbortError, type OperationInfo } from './errors.ts';
import { PROXY_MARKER_HEADER, PROXY_MARKER_VALUE } from './proxy-marker.ts';
import { presignUrl, signRequest } from './signing.ts';
import { buildUrl, type BuiltUrl, type QueryInput } from './url.ts';

/**
 * The one place that turns an operation description into a signed HTTP request and a response into
 * either data or a typed error. Operations in the area folders only describe what to send.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS';

/** Bodies the console sends. Streams are excluded: their length is unknown and fetch needs duplex. */
export type RequestBody = string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | FormData;

export type HeaderInput = Readonly<Record<string, string | undefined>>;

export interface SendInput {
  /** QingStor operation name for errors, e.g. 'PutObject'. */
  operation: string;
  method: HttpMethod;
  /** `undefined` = connection.defaultZone, `null` = global host (service-level calls only). */
  zone?: string | null;
  bucket?: string;
  key?: string;
  query?: QueryInput;
  /** Extra request headers; `undefined` values are skipped. Names are case-insensitive. */
  headers?: HeaderInput;
  body?: RequestBody;
  signal?: AbortSignal;
  /**
   * Skip the header signature even when the connection has credentials. Used by PostObject, whose
   * authentication lives in the form fields (ref §7).
   */
  unsigned?: boolean;
  /** Non-2xx statuses that are an expected outcome rather than an error (e.g. 304). */
  acceptStatus?: readonly number[];
}

/** A request ready to hand to fetch or XHR: URL built, headers final and signed. */
export interface PreparedRequest {
  method: HttpMethod;
  url: URL;
  headers: Headers;
  body: RequestBody | undefined;
  info: OperationInfo;
  signal: AbortSignal | undefined;
  acceptStatus: readonly number[];
}

export interface PresignInput {
  method?: 'GET' | 'HEAD';
  zone?: string | null;
  bucket?: string;
  key?: string;
  /** Extra (signed) parameters such as `response-content-disposition` (ref §5.4). */
  query?: QueryInput;
  /** Lifetime in seconds from now (ref §2.5: `expires` is absolute; we compute it). */
  expiresIn: number;
}

export interface ClientOptions {
  /** Clock for x-qs-date and presign expiry; lets the UI correct a skewed local clock (ref §2.4). */
  now?: () => Date;
  /** Origin of the page, for the CORS diagnosis; defaults to `location.origin` in browsers. */
  pageOrigin?: string;
  /** Called as each request is handed to fetch (boot waits for the first listing's, see app/first-listing.ts). */
  onSend?: (prepared: PreparedRequest) => void;
}

export interface QsClient {
  readonly connection: Connection;
  /** Current time as the client uses it (x-qs-date, presign expiry). */
  now(): Date;
  url(input: Pick<SendInput, 'zone' | 'bucket' | 'key' | 'query'>): BuiltUrl;
  prepare(input: SendInput): Promise<PreparedRequest>;
  /** Sends via fetch. Resolves with the Response for 2xx (and `acceptStatus`); throws ApiError/NetworkError. */
  send(input: SendInput): Promise<Response>;
  /** `send` + JSON body parsed by `schema`; ContractError when the body does not match. */
  json<S extends z.ZodType>(schema: S, input: SendInput): Promise<z.output<S>>;
  /**
   * Pre-signed URL for a download or preview link (ref §2.5). Unsigned when the connection is anonymous.
   * Always addresses the endpoint itself, never the same-origin proxy: object content opened in the browser
   * must not be served on the console's origin.
   */
  presign(input: PresignInput): Promise<URL>;
  /** Diagnosis helpers for transfer.ts: same mapping as `send`. */
  networkError(prepared: PreparedRequest, cause: unknown): NetworkError;
}

export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Lifetime of a read's query signature (ref §2.5). The request is sent at once; the lifetime only has to
 * cover a client clock running behind the server's, and 15 minutes is what a header signature's
 * window tolerated (ref §2.4), so a clock that worked before still works.
 */
export const READ_SIGNATURE_LIFETIME_S = 15 * 60;

/**
 * Reads sent straight to the endpoint are signed in the query string; everything else in headers. Through
 * the same-origin proxy nothing is preflighted anyway, so reads keep their header signature there and
 * no credential travels in a URL the proxy sees.
 */
function signsInQuery(method: HttpMethod, built: BuiltUrl): boolean {
  return (method === 'GET' || method === 'HEAD') && built.url === built.signingUrl;
}

/** How `send` hands a prepared request to fetch (exported so tests can send exactly that from a browser). */
export function requestInit(prepared: PreparedRequest): RequestInit {
  return {
    method: prepared.method,
    headers: prepared.headers,
    body: prepared.body ?? null,
    signal: prepared.signal ?? null,
    // Credentials travel in the signature, never as cookies.
    credentials: 'omit',
    // Reads must be fresh: objects replay their stored Cache-Control (ref §5.4), and a cached answer would
    // show stale metadata or defeat the metadata editor's conflict check. `no-store` costs a read nothing:
    // it is signed in its query and sends no header a preflight would be needed for (ref §2.5). Only for
    // reads: with `no-store` fetch may add `Cache-Control: no-cache` to the request, which a PUT/copy would
    // store as object metadata; writes keep `default`, which also lets the browser cache their preflight.
    cache: prepared.method === 'GET' || prepared.method === 'HEAD' ? 'no-store' : 'default',
  };
}

export function defaultPageOrigin(): string | undefined {
  return typeof location !== 'undefined' && typeof location.origin === 'string' ? location.origin : undefined;
}

function requestInfo(operation: string, method: string, url: URL): OperationInfo {
  return { operation, method, requestUrl: url.href };
}

/**
 * Response → Response for 2xx / accepted statuses, ApiError otherwise. Shared by fetch and XHR so both
 * transports map errors identically.
 */
export async function checkResponse(response: Response, prepared: Pick<PreparedRequest, 'info' | 'acceptStatus'>): Promise<Response> {
  if (response.ok || prepared.acceptStatus.includes(response.status)) return response;
  throw await apiErrorFromResponse(response, prepared.info);
}

export function requestIdOf(response: Response): string {
  return response.headers.get('x-qs-request-id') ?? '';
}

/** Parses a JSON body with `schema`; ContractError for invalid JSON or a schema mismatch. */
export async function parseJsonBody<S extends z.ZodType>(schema: S, response: Response, info: OperationInfo): Promise<z.output<S>> {
  const text = await response.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ContractError({
      ...info,
      status: response.status,
      requestId: requestIdOf(response),
      part: 'body',
      issues: [{ code: 'custom', path: [], message: `Response body is not JSON (${text.length} characters)`, input: text.slice(0, 200) }],
    });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ContractError({ ...info, status: response.status, requestId: requestIdOf(response), part: 'body', issues: parsed.error.issues });
  }
  return parsed.data;
}

/** Parses response headers (as a lower-case name → value object) with `schema`; ContractError on mismatch. */
export function parseHeaders<S extends z.ZodType>(schema: S, response: Response, info: OperationInfo): z.output<S> {
  const record: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    record[name.toLowerCase()] = value;
  });
  const parsed = schema.safeParse(record);
  if (!parsed.success) {
    throw new ContractError({ ...info, status: response.status, requestId: requestIdOf(response), part: 'headers', issues: parsed.error.issues });
  }
  return parsed.data;
}

export function createClient(connection: Connection, options: ClientOptions = {}): QsClient {
  const now = options.now ?? (() => new Date());

  function url(input: Pick<SendInput, 'zone' | 'bucket' | 'key' | 'query'>): BuiltUrl {
    return buildUrl({ connection, zone: input.zone, bucket: input.bucket, key: input.key, query: input.query });
  }

  async function prepare(input: SendInput): Promise<PreparedRequest> {
    const built = url(input);
    let target = built.url;
    const headers = new Headers();
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (value !== undefined) headers.set(name, value);
    }
    // ref §2.1: the signed Content-Type must be byte-identical to what is sent, and a Blob body or XHR
    // would otherwise pick one itself. FormData is the exception: its boundary is generated by the
    // transport, and PostObject is authenticated by form fields, not the header signature (ref §7).
    if (input.body !== undefined && !(input.body instanceof FormData) && !headers.has('content-type')) {
      headers.set('content-type', 'application/octet-stream');
    }
    const credentials = connection.credentials;
    if (credentials && !input.unsigned && signsInQuery(input.method, built)) {
      // ref §2.5: a read signed in its query string carries no Authorization or x-qs-date header, so
      // the browser sends it as a CORS simple request, without a preflight (ref §5.4 Decision).
      target = await presignUrl({
        method: input.method,
        url: built.signingUrl,
        bucketInHost: built.bucketInHost,
        credentials,
        expires: Math.floor(now().getTime() / 1000) + READ_SIGNATURE_LIFETIME_S,
        headers,
      });
    } else if (credentials && !input.unsigned) {
      await signRequest({
        method: input.method,
        url: built.signingUrl,
        headers,
        bucketInHost: built.bucketInHost,
        credentials,
        now: now(),
      });
    }
    // Through the same-origin proxy only: it forwards nothing without this header (src/api/proxy-marker.ts).
    // Direct requests never carry it, so no bucket's CORS rule has to allow it.
    if (built.url !== built.signingUrl) headers.set(PROXY_MARKER_HEADER, PROXY_MARKER_VALUE);
    return {
      method: input.method,
      url: target,
      headers,
      body: input.body,
      // Errors name the request without its query credentials: they are shown and copied.
      info: requestInfo(input.operation, input.method, built.url),
      signal: input.signal,
      acceptStatus: input.acceptStatus ?? [],
    };
  }

  function networkError(prepared: PreparedRequest, cause: unknown): NetworkError {
    return new NetworkError({ ...prepared.info, pageOrigin: options.pageOrigin ?? defaultPageOrigin(), cause });
  }

  async function sendPrepared(prepared: PreparedRequest): Promise<Response> {
    let response: Response;
    try {
      const sending = fetch(prepared.url, requestInit(prepared));
      options.onSend?.(prepared);
      response = await sending;
    } catch (error) {
      if (isAbortError(error)) throw error;
      if (prepared.signal?.aborted) throw prepared.signal.reason;
      throw networkError(prepared, error);
    }
    return checkResponse(response, prepared);
  }

  async function send(input: SendInput): Promise<Response> {
    return sendPrepared(await prepare(input));
  }

  async function json<S extends z.ZodType>(schema: S, input: SendInput): Promise<z.output<S>> {
    const prepared = await prepare(input);
    const response = await sendPrepared(prepared);
    return parseJsonBody(schema, response, prepared.info);
  }

  async function presign(input: PresignInput): Promise<URL> {
    if (!Number.isFinite(input.expiresIn) || input.expiresIn <= 0) {
      throw new RangeError('expiresIn must be a positive number of seconds');
    }
    const built = url(input);
    const credentials = connection.credentials;
    if (!credentials) return built.signingUrl;
    const expires = Math.floor(now().getTime() / 1000) + Math.ceil(input.expiresIn);
    return presignUrl({
      method: input.method ?? 'GET',
      url: built.signingUrl,
      bucketInHost: built.bucketInHost,
      credentials,
      expires,
    });
  }

  return { connection, now, url, prepare, send, json, presign, networkError };
}

/** A bucket as operations address it. `zone` defaults to the connection's defaultZone. */
export interface BucketRef {
  zone?: string;
  bucket: string;
}

export interface ObjectRef extends BucketRef {
  key: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** What every write operation without a body returns. */
export interface WriteResult {
  requestId: string;
}
