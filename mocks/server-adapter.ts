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
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getResponse, type RequestHandler } from 'msw';
import { QsError } from './errors.ts';
import { redactTarget, type AccessLogEntry } from './server-log.ts';
import { isPlainHostname, requestTarget, toFetchRequest, type BodyTimer, type BodyWatch } from './server-request.ts';
import { sentOn, writeAdapterError, writeFetchResponse } from './server-response.ts';

/** Why a request is refused before it runs, and when the client may try again. */
export interface Refusal {
  message: string;
  retryAfterSeconds: number;
  /** The connection is closed after the answer (an over-the-cap connection). */
  close: boolean;
}

/** What the request listener asks of the limits (mocks/server-guard.ts guardConnections makes one). */
export interface RequestGuard {
  /** Registers the response being written on the request's socket; a refusal when the request must not run. */
  begin(req: IncomingMessage, res: ServerResponse): Refusal | undefined;
  /** Starts the body deadline of a request with a body; `fail` is called with request_timeout when it passes. */
  bodyTimer(req: IncomingMessage, fail: (error: QsError) => void): BodyTimer;
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

/** Answers one Fetch request; undefined = nothing matched. */
export type Responder = (request: Request) => Promise<Response | undefined>;

/** A responder that runs msw request handlers, exactly as msw's own adapters would. */
export function mswResponder(handlers: readonly RequestHandler[]): Responder {
  const list = [...handlers];
  return (request) => getResponse(list, request);
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
      const info = sentOn(res);
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
