/**
 * node:http ⇄ Fetch adapter for the standalone emulator: turns an IncomingMessage into the absolute-URL
 * `Request` the emulator's handlers expect, asks a responder for the `Response` (the emulator's request
 * function directly, or msw's `getResponse` over the handlers, see server.ts), and writes it back.
 *
 * Addressing (ref §1.1): the handlers decide zone and bucket from the URL's hostname, so the URL is built
 * from the host the client addressed (Host header, or the authority of an absolute-form proxy request),
 * with the port dropped: `pek3a.qingstor.local:9000` and `pek3a.qingstor.local` are the same zone host,
 * and `127.0.0.1:9000` falls through to path style in the default zone. The path and query are copied
 * byte for byte from the request line because signatures cover the raw, still percent-encoded path
 * (ref §1.3, §2.3). The one thing this cannot preserve is what WHATWG URL parsing itself rewrites in a
 * raw path (unescaped `"`, space, `<`, `>`, backtick, `{`, `}`, `^` get percent-encoded; `\` becomes `/`;
 * `.`/`..` segments are resolved): clients that percent-encode keys, as every QingStor SDK does, are not
 * affected.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { getResponse, type RequestHandler } from 'msw';
import { HOP_BY_HOP_HEADERS } from '../src/api/protocol/headers.ts';
import { formatHttpDate } from '../src/api/protocol/http-date.ts';
import { ERROR_CATALOG, ERROR_HELP_URL, QsError, type QsErrorCode } from './errors.ts';

/**
 * Bodies up to this size (known from Content-Length) are collected into one Buffer before the handlers
 * run: a web ReadableStream costs several microtask hops per chunk, which dominates small PUTs. Anything
 * larger, or of unknown length (chunked), is streamed into the Request with `duplex: 'half'`.
 */
const BUFFER_BODY_LIMIT = 64 * 1024;

export interface RequestTarget {
  /** Hostname the client addressed, lower-case, without port (IPv6 keeps its brackets). */
  hostname: string;
  /** Host as addressed, including the port if one was given. */
  authority: string;
  /** Raw path and query from the request line, never decoded or normalised. */
  pathAndQuery: string;
}

function splitAuthority(authority: string): string {
  // `[::1]:9000` → `[::1]`; `host:9000` → `host`; `host` → `host`.
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    return end < 0 ? authority : authority.slice(0, end + 1);
  }
  const colon = authority.lastIndexOf(':');
  return colon < 0 ? authority : authority.slice(0, colon);
}

/**
 * Works out which host a request addressed and its raw path+query. Accepts origin-form
 * (`GET /bucket/key` + Host) and absolute-form (`GET http://bucket.zone.domain/key`, as sent to an HTTP
 * proxy). Returns null for anything else (`*`, authority-form CONNECT).
 */
export function requestTarget(rawUrl: string, hostHeader: string | undefined, fallbackHost: string): RequestTarget | null {
  if (rawUrl.startsWith('/')) {
    const authority = (hostHeader ?? '').trim() || fallbackHost;
    return { hostname: splitAuthority(authority).toLowerCase(), authority, pathAndQuery: rawUrl };
  }
  const scheme = /^https?:\/\//i.exec(rawUrl);
  if (!scheme) return null;
  const rest = rawUrl.slice(scheme[0].length);
  let end = rest.length;
  for (const sep of ['/', '?', '#']) {
    const i = rest.indexOf(sep);
    if (i >= 0 && i < end) end = i;
  }
  const authority = rest.slice(0, end).replace(/^[^@]*@/, '');
  if (authority === '') return null;
  let pathAndQuery = rest.slice(end);
  if (pathAndQuery === '' || pathAndQuery.startsWith('?')) pathAndQuery = `/${pathAndQuery}`;
  return { hostname: splitAuthority(authority).toLowerCase(), authority, pathAndQuery };
}

/** Why a request is refused before it runs, and when the client may try again. */
export interface Refusal {
  message: string;
  retryAfterSeconds: number;
  /** The connection is closed after the answer (an over-the-cap connection). */
  close: boolean;
}

/** Watches one request body; `stop` once the body has arrived or the request is answered. */
export interface BodyTimer {
  received(bytes: number): void;
  stop(): void;
}

/** What the request listener asks of the limits (mocks/server-guard.ts guardConnections makes one). */
export interface RequestGuard {
  /** Registers the response being written on the request's socket; a refusal when the request must not run. */
  begin(req: IncomingMessage, res: ServerResponse): Refusal | undefined;
  /** Starts the body deadline of a request with a body; `fail` is called with request_timeout when it passes. */
  bodyTimer(req: IncomingMessage, fail: (error: QsError) => void): BodyTimer;
}

/** Where a request body reports its progress and how it is cut off when it arrives too slowly. */
export interface BodyWatch {
  start(fail: (error: QsError) => void): BodyTimer;
}

const NO_TIMER: BodyTimer = { received: () => undefined, stop: () => undefined };

/** Reads a small body with plain events (a Readable's async iterator costs several promises per chunk). */
function collect(req: IncomingMessage, watch: BodyWatch | undefined): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = watch?.start(reject) ?? NO_TIMER;
    req.on('data', (chunk: Buffer) => {
      timer.received(chunk.byteLength);
      chunks.push(chunk);
    });
    req.on('error', (error) => {
      timer.stop();
      reject(error);
    });
    req.on('end', () => {
      timer.stop();
      const all = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
      // Node's socket buffers are never SharedArrayBuffer-backed; the check narrows the type without a cast.
      resolve(all.buffer instanceof ArrayBuffer ? new Uint8Array(all.buffer, all.byteOffset, all.byteLength) : new Uint8Array(all));
    });
  });
}

/**
 * The request body as a web stream that keeps up to STREAM_BUFFER bytes read ahead of the handler: while
 * the handler hashes one chunk the socket goes on receiving the next ones, instead of being paused until
 * the handler asks (which left the server idle for half of a 1 GiB PUT). Past the buffer the socket is
 * paused, so memory stays bounded whatever the client sends.
 */
const STREAM_BUFFER = 4 * 1024 * 1024;

function bodyStream(req: IncomingMessage, watch: BodyWatch | undefined): ReadableStream<Uint8Array> {
  let finished = false;
  let timer = NO_TIMER;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: Error): void => {
          timer.stop();
          if (finished) return;
          finished = true;
          controller.error(error);
        };
        timer = watch?.start(fail) ?? NO_TIMER;
        req.on('data', (chunk: Buffer) => {
          if (finished) return;
          timer.received(chunk.byteLength);
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          timer.stop();
          if (finished) return;
          finished = true;
          controller.close();
        });
        req.once('error', fail);
        req.once('close', () => {
          if (!req.complete) fail(new Error('aborted'));
        });
      },
      pull() {
        if (req.isPaused()) req.resume();
      },
      cancel() {
        // The handler stopped reading (e.g. a body over a limit): leave the rest unread; the adapter closes
        // the connection after its answer.
        timer.stop();
        finished = true;
        req.pause();
      },
    },
    { highWaterMark: STREAM_BUFFER, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Builds the Fetch Request the handlers see. The body is buffered when small, streamed otherwise. No
 * AbortSignal is attached (undici links every signal into a FinalizationRegistry, a measurable cost per
 * request): a client that disconnects mid-upload errors the body stream, which fails the handler's read.
 */
export async function toFetchRequest(req: IncomingMessage, target: RequestTarget, watch?: BodyWatch): Promise<Request> {
  const headers: Array<[string, string]> = [];
  const raw = req.rawHeaders;
  let contentLength: string | undefined;
  let chunked = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    if (name === 'content-length') contentLength = value;
    else if (name === 'transfer-encoding') chunked = true;
    if (HOP_BY_HOP_HEADERS.has(name) || name === 'host') continue;
    headers.push([name, value]);
  }
  // An absolute-form request's authority wins over its Host header (RFC 9112 §3.2.2).
  headers.push(['host', target.authority]);
  const url = `http://${target.hostname}${target.pathAndQuery}`;
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && (chunked || (contentLength !== undefined && contentLength !== '0'));
  if (!hasBody) {
    // Drain anything the client sent anyway so the connection can be reused.
    if (!req.complete) req.resume();
    return new Request(url, { method, headers });
  }
  const length = Number(contentLength);
  if (!chunked && Number.isFinite(length) && length <= BUFFER_BODY_LIMIT) {
    return new Request(url, { method, headers, body: await collect(req, watch) });
  }
  const body = bodyStream(req, watch);
  // `duplex` is required by undici for stream bodies but missing from the DOM lib's RequestInit.
  const init: RequestInit & { duplex: 'half' } = { method, headers, body, duplex: 'half' };
  return new Request(url, init);
}

/** What went out on each response, for the access log (headers written as a list are not readable back). */
const sent = new WeakMap<ServerResponse, { requestId: string; bytes: number }>();

/** Responses without a Content-Length whose body ends within this many bytes are sent with one. */
const SMALL_RESPONSE_LIMIT = 64 * 1024;

function responseHeaderList(response: Response): string[] {
  const headers: string[] = [];
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie' || HOP_BY_HOP_HEADERS.has(name)) continue;
    headers.push(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  return headers;
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = (): void => {
      res.off('drain', finish);
      res.off('close', finish);
      resolve();
    };
    res.on('drain', finish);
    res.on('close', finish);
  });
}

/**
 * Writes a Fetch Response to the socket, streaming the body with backpressure. A small body of unknown
 * length (JSON documents, errors) is collected first so that it goes out with a Content-Length like the
 * real service's, instead of chunked.
 */
export async function writeFetchResponse(res: ServerResponse, response: Response, isHead: boolean): Promise<void> {
  const headers = responseHeaderList(response);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  sent.set(res, { requestId: response.headers.get('x-qs-request-id') ?? '', bytes: isHead || !Number.isFinite(declared) ? 0 : declared });
  const body = response.body;
  if (isHead || body === null) {
    if (body !== null) await body.cancel().catch(() => undefined);
    // Without a length, Node ends a HEAD response by closing the connection; a HEAD that carries no object
    // length (an error) has no body at all, so say 0 and keep the connection alive.
    if (isHead && !response.headers.has('content-length')) headers.push('content-length', '0');
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.end();
    return;
  }
  const reader = body.getReader();
  try {
    let pending: Uint8Array[] = [];
    if (!response.headers.has('content-length')) {
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          headers.push('content-length', String(size));
          sent.set(res, { requestId: response.headers.get('x-qs-request-id') ?? '', bytes: size });
          res.writeHead(response.status, response.statusText || undefined, headers);
          for (const chunk of pending) res.write(chunk);
          res.end();
          return;
        }
        pending.push(value);
        size += value.byteLength;
        if (size > SMALL_RESPONSE_LIMIT) break;
      }
    }
    res.writeHead(response.status, response.statusText || undefined, headers);
    for (const chunk of pending) res.write(chunk);
    pending = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      if (!res.write(value)) await waitForDrain(res);
    }
    res.end();
  } finally {
    reader.releaseLock();
  }
}

let fallbackCounter = 0;

/** A QingStor-style error written by the adapter itself (ref §4, §11.1): JSON envelope, request id, Server. */
export function writeAdapterError(res: ServerResponse, code: QsErrorCode, message: string, isHead: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const [status] = ERROR_CATALOG[code];
  fallbackCounter = (fallbackCounter + 1) % 0x1_0000_0000;
  const requestId = `srv${Date.now().toString(16)}${fallbackCounter.toString(16).padStart(8, '0')}`;
  const body = JSON.stringify({ code, message, request_id: requestId, url: ERROR_HELP_URL });
  sent.set(res, { requestId, bytes: isHead ? 0 : Buffer.byteLength(body) });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    server: 'QingStor',
    date: formatHttpDate(new Date()),
    'x-qs-request-id': requestId,
  });
  res.end(isHead ? undefined : body);
}

/**
 * A host name or IP literal and nothing else: no userinfo (`evil@127.0.0.1` would make the URL carry
 * credentials, which a Fetch Request refuses), no spaces or other delimiters.
 */
export function isPlainHostname(hostname: string): boolean {
  return /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)$/i.test(hostname);
}

/** Methods the Fetch `Request` constructor refuses (Fetch standard "forbidden method"). */
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function clientWentAway(req: IncomingMessage, error: unknown): boolean {
  if (req.complete) return false;
  if (req.destroyed) return true;
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return error.message === 'aborted' || code === 'ECONNRESET';
}

/**
 * A complete QingStor error response as raw bytes, for a socket that has no ServerResponse (a CONNECT, a
 * request Node's parser refused, a connection over the per-address cap). Always closes the connection.
 */
export function rawErrorResponse(code: QsErrorCode, message: string): string {
  return rawError(code, message).text;
}

export interface RawError {
  text: string;
  status: number;
  requestId: string;
  bytes: number;
}

export function rawError(code: QsErrorCode, message: string): RawError {
  const [status] = ERROR_CATALOG[code];
  fallbackCounter = (fallbackCounter + 1) % 0x1_0000_0000;
  const requestId = `srv${Date.now().toString(16)}${fallbackCounter.toString(16).padStart(8, '0')}`;
  const body = JSON.stringify({ code, message, request_id: requestId, url: ERROR_HELP_URL });
  const text = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'server: QingStor',
    `date: ${formatHttpDate(new Date())}`,
    `x-qs-request-id: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
  return { text, status, requestId, bytes: Buffer.byteLength(body) };
}

/**
 * Raw answer to an HTTP CONNECT (node:http hands those to a separate 'connect' event, not the request
 * listener): the emulator is no proxy, so 405 method_not_allowed in the QingStor envelope, then close.
 */
export function connectRefusal(): string {
  return rawErrorResponse('method_not_allowed', 'CONNECT is not allowed.');
}

/** Answers one Fetch request; undefined = nothing matched. */
export type Responder = (request: Request) => Promise<Response | undefined>;

/** A responder that runs msw request handlers, exactly as msw's own adapters would. */
export function mswResponder(handlers: readonly RequestHandler[]): Responder {
  const list = [...handlers];
  return (request) => getResponse(list, request);
}

/** One access-log entry: one per request the server answered. */
export interface AccessLogEntry {
  time: Date;
  method: string;
  /** Request target as sent, with a pre-signed URL's signature value replaced by `***`. */
  path: string;
  status: number;
  /** Response body bytes. */
  bytes: number;
  ms: number;
  requestId: string;
  /** For a refused signature: the string-to-sign the server computed (never the secret). */
  stringToSign?: string;
}

/** A pre-signed URL's signature is a bearer credential until it expires: never written to a log. */
export function redactTarget(target: string): string {
  return target.replace(/([?&]signature=)[^&#]*/gi, '$1***');
}

/** `2026-01-01T00:00:00.000Z GET /bucket/key 200 1234B 3.1ms id=…` (+ the string-to-sign, JSON-quoted). */
export function formatAccessLine(entry: AccessLogEntry): string {
  const base = `${entry.time.toISOString()} ${entry.method} ${entry.path} ${entry.status} ${entry.bytes}B ${entry.ms.toFixed(1)}ms id=${entry.requestId}`;
  return entry.stringToSign === undefined ? base : `${base} string-to-sign=${JSON.stringify(entry.stringToSign)}`;
}

export function formatAccessJson(entry: AccessLogEntry): string {
  return JSON.stringify({
    time: entry.time.toISOString(),
    method: entry.method,
    path: entry.path,
    status: entry.status,
    bytes: entry.bytes,
    ms: Math.round(entry.ms * 10) / 10,
    request_id: entry.requestId,
    ...(entry.stringToSign !== undefined ? { string_to_sign: entry.stringToSign } : {}),
  });
}

/** The string-to-sign behind a refused signature, per response being written. */
const signatureNotes = new WeakMap<ServerResponse, string>();

export interface ListenerOptions {
  respond: Responder;
  /** Called once per answered request (the access log); never given a secret. */
  log?: (entry: AccessLogEntry) => void;
  /** Reads the string-to-sign the handlers computed for a refused signature, if any. */
  stringToSignOf?: (response: Response) => string | undefined;
  /** Host used when a request carries no Host header (HTTP/1.0). */
  fallbackHost: string;
  /** Called with unexpected failures (a handler threw); never with request data or secrets. */
  onError?: (error: unknown) => void;
  /** The connection and request limits (mocks/server-guard.ts); none when absent. */
  guard?: RequestGuard;
}

/** The `request` listener of the standalone emulator's node:http server. */
export function createRequestListener(options: ListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { respond } = options;
  return (req, res) => {
    const refusal = options.guard?.begin(req, res);
    const started = performance.now();
    res.once('finish', () => {
      if (!options.log) return;
      const info = sent.get(res);
      const stringToSign = signatureNotes.get(res);
      options.log({
        time: new Date(),
        method: req.method ?? '',
        path: redactTarget(req.url ?? ''),
        status: res.statusCode,
        bytes: info?.bytes ?? 0,
        ms: performance.now() - started,
        requestId: info?.requestId ?? '',
        ...(stringToSign !== undefined ? { stringToSign } : {}),
      });
    });
    if (refusal) {
      refuse(req, res, refusal);
      return;
    }
    void handle(req, res).catch((error: unknown) => {
      if (error instanceof QsError) {
        // A limit of the adapter itself (a body arriving too slowly): its own QingStor error.
        if (!req.complete) res.setHeader('connection', 'close');
        writeAdapterError(res, error.code, error.message, req.method === 'HEAD');
        return;
      }
      if (clientWentAway(req, error)) {
        // The client hung up mid-body: nothing was written and it is not the emulator's failure (ref §4
        // incomplete_body); the answer reaches nobody if the socket is gone.
        writeAdapterError(res, 'incomplete_body', 'The connection closed before the whole body arrived.', req.method === 'HEAD');
        return;
      }
      options.onError?.(error);
      writeAdapterError(res, 'internal_error', 'The emulator failed to answer this request.', req.method === 'HEAD');
    });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const isHead = req.method === 'HEAD';
    if (FETCH_FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())) {
      // A Fetch Request cannot even carry these methods; they name no QingStor operation (ref §4).
      req.resume();
      writeAdapterError(res, 'method_not_allowed', `${req.method ?? ''} is not allowed.`, isHead);
      return;
    }
    const target = requestTarget(req.url ?? '/', req.headers.host, options.fallbackHost);
    if (!target) {
      req.resume();
      writeAdapterError(res, 'invalid_request', 'The request target must be a path or an absolute http URL.', isHead);
      return;
    }
    if (!isPlainHostname(target.hostname) || !URL.canParse(`http://${target.hostname}${target.pathAndQuery}`)) {
      req.resume();
      writeAdapterError(res, 'invalid_request', 'The addressed host is not a valid host name.', isHead);
      return;
    }
    const guard = options.guard;
    const watch: BodyWatch | undefined = guard ? { start: (fail) => guard.bodyTimer(req, fail) } : undefined;
    const request = await toFetchRequest(req, target, watch);
    const response = await respond(request);
    if (!response) {
      req.resume();
      writeAdapterError(res, 'invalid_request', 'No QingStor operation matches this request.', isHead);
      return;
    }
    const note = options.stringToSignOf?.(response);
    if (note !== undefined) signatureNotes.set(res, note);
    // Answered before the body was read (refused early): do not read the rest of it for the next request.
    if (!req.complete) res.setHeader('connection', 'close');
    await writeFetchResponse(res, response, isHead);
  }
}

/** Bodies of refused requests up to this size are read (and dropped), so the connection can serve the next one. */
const REFUSED_BODY_DRAIN = 64 * 1024;

/**
 * Answers a request the limits refused: 503 service_unavailable with Retry-After. A small body is read first
 * so that the client sees the answer (and, under the rate limit, keeps its connection); a large one is not
 * read, and the connection closes after the answer.
 */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const answer = (close: boolean): void => {
    res.setHeader('retry-after', String(refusal.retryAfterSeconds));
    if (close) res.setHeader('connection', 'close');
    writeAdapterError(res, 'service_unavailable', refusal.message, req.method === 'HEAD');
  };
  const length = Number(req.headers['content-length'] ?? 0);
  if (req.complete || (!req.headers['transfer-encoding'] && Number.isFinite(length) && length <= REFUSED_BODY_DRAIN)) {
    req.resume();
    if (req.complete) answer(refusal.close);
    else {
      req.once('end', () => answer(refusal.close));
      req.once('error', () => res.destroy());
    }
    return;
  }
  answer(true);
}
