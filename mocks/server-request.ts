/**
 * The request side of the standalone emulator's node:http ⇄ Fetch adapter (server-adapter.ts): the host and
 * raw path a request addressed, and its body read into the Fetch `Request` the handlers expect.
 */
import type { IncomingMessage } from 'node:http';
import { HOP_BY_HOP_HEADERS } from '../src/api/protocol/headers.ts';
import { QsError } from './errors.ts';

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

/** Watches one request body; `stop` once the body has arrived or the request is answered. */
export interface BodyTimer {
  received(bytes: number): void;
  stop(): void;
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

/**
 * A host name or IP literal and nothing else: no userinfo (`evil@127.0.0.1` would make the URL carry
 * credentials, which a Fetch Request refuses), no spaces or other delimiters.
 */
export function isPlainHostname(hostname: string): boolean {
  return /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)$/i.test(hostname);
}
