/**
 * Connection and request limits of the standalone server, so that one misbehaving client cannot hold it and
 * a busy one is slowed down with an answer instead of being dropped:
 *
 *   - open connections per client address: past `maxConnectionsPerClient` a connection is still read, and
 *     each request on it is answered 503 `service_unavailable` with `Retry-After` and `Connection: close`;
 *   - request rate per client address: a token bucket of `maxRequestsPerSecondPerClient` (burst
 *     `requestBurstPerClient`); a request past it is answered 503 `service_unavailable` with `Retry-After`
 *     (the connection stays open when the refused request's body was small enough to be read);
 *   - a request body must keep arriving: at least `bodyMinBytesPerSecond` × `bodyTimeoutMs` / 1000 bytes in
 *     every `bodyTimeoutMs` (the time the server itself holds the body back does not count); else it is
 *     answered 408 `request_timeout` and the connection closed. A slow upload that keeps sending is never cut;
 *     a body that drips a byte now and then is, whatever came before;
 *   - a socket on which nothing arrives for `idleTimeoutMs` is closed (408 when a request on it is unanswered);
 *   - requests the HTTP parser refuses (malformed, headers too large or too slow) get a QingStor error instead
 *     of Node's bare status line.
 * Every refusal is a QingStor JSON error; no request is left without an answer by these rules.
 */
import type { Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { QsError } from './errors.ts';
import type { RequestGuard } from './server-adapter.ts';
import type { AccessLogEntry } from './server-log.ts';
import { rawError, writeAdapterError, type RawError } from './server-response.ts';

export interface ConnectionLimits {
  idleTimeoutMs: number;
  maxConnectionsPerClient: number;
  maxRequestsPerSecondPerClient: number;
  requestBurstPerClient: number;
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
}

/** What the parser error means for the client; Node's own codes for these cases. */
function clientErrorAnswer(error: Error): RawError {
  const code = 'code' in error ? error.code : undefined;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawError('request_timeout', 'The request headers did not arrive in time.');
  if (code === 'HPE_HEADER_OVERFLOW') return rawError('invalid_request', 'The request line and headers are too large.');
  // The client closed its side before the whole body arrived.
  if (code === 'HPE_INVALID_EOF_STATE') return rawError('incomplete_body', 'The connection closed before the whole body arrived.');
  return rawError('invalid_request', 'The request is not valid HTTP/1.1.');
}

/** Log entry for an answer written straight to a socket (no request was parsed: method and path are '-'). */
function rawLogEntry(answer: RawError, note: string): AccessLogEntry {
  return { time: new Date(), method: '-', path: note, status: answer.status, bytes: answer.bytes, ms: 0, requestId: answer.requestId };
}

interface Bucket {
  tokens: number;
  at: number;
}

/** How often body deadlines are checked. */
const BODY_CHECK_MS = 250;

/** Applies the limits to `server` and returns what its request listener must consult (see the module comment). */
export function guardConnections(server: Server, limits: ConnectionLimits, log?: (entry: AccessLogEntry) => void): RequestGuard {
  const open = new Map<string, number>();
  const overCap = new WeakSet<Socket>();
  const activeResponses = new WeakMap<Socket, ServerResponse>();
  const buckets = new Map<string, Bucket>();

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    if (count > limits.maxConnectionsPerClient) overCap.add(socket);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });

  /** Takes one request from the address's bucket; the seconds to wait when it is empty, else 0. */
  const take = (address: string): number => {
    const now = performance.now();
    const rate = limits.maxRequestsPerSecondPerClient;
    let bucket = buckets.get(address);
    if (!bucket) {
      bucket = { tokens: limits.requestBurstPerClient, at: now };
      buckets.set(address, bucket);
      // Buckets of addresses gone quiet are dropped now and then, so the map stays small.
      if (buckets.size > 10_000) for (const [key, b] of buckets) if (now - b.at > 60_000) buckets.delete(key);
    }
    bucket.tokens = Math.min(limits.requestBurstPerClient, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  };

  server.setTimeout(limits.idleTimeoutMs, (socket: Socket) => {
    const res = activeResponses.get(socket);
    if (res && !res.headersSent) {
      res.setHeader('connection', 'close');
      writeAdapterError(res, 'request_timeout', `Nothing arrived for ${limits.idleTimeoutMs} ms.`, res.req.method === 'HEAD');
      res.once('finish', () => socket.destroy());
      // If the client does not read the answer either, give up on it.
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    socket.destroy();
  });

  server.on('clientError', (error: Error, socket: Duplex) => {
    const res = socket instanceof Socket ? activeResponses.get(socket) : undefined;
    const code = 'code' in error ? error.code : undefined;
    if (!socket.writable || (res !== undefined && res.headersSent) || code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const answer = (): void => {
      if (!socket.writable) return;
      const refusal = clientErrorAnswer(error);
      socket.end(refusal.text);
      log?.(rawLogEntry(refusal, `(${code === undefined ? 'client error' : String(code)})`));
      // The client may keep sending; do not keep reading for it.
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    // Garbage after a complete request (a body longer than its Content-Length): that request is answered
    // first, then the error.
    if (res !== undefined && res.req.complete && !res.writableFinished) res.once('finish', answer);
    else answer();
  });

  // Body deadlines, checked together a few times a second.
  const timers = new Set<{ check(now: number): void }>();
  let ticker: ReturnType<typeof setInterval> | undefined;
  const watch = (timer: { check(now: number): void }): void => {
    timers.add(timer);
    ticker ??= setInterval(() => {
      const now = performance.now();
      for (const t of timers) t.check(now);
      if (timers.size === 0 && ticker) {
        clearInterval(ticker);
        ticker = undefined;
      }
    }, Math.min(BODY_CHECK_MS, Math.max(10, limits.bodyTimeoutMs / 4)));
    ticker.unref();
  };
  server.once('close', () => {
    if (ticker) clearInterval(ticker);
    timers.clear();
  });

  return {
    begin(req, res) {
      const socket = req.socket;
      activeResponses.set(socket, res);
      res.once('finish', () => {
        if (activeResponses.get(socket) === res) activeResponses.delete(socket);
      });
      if (overCap.has(socket)) {
        return { message: `Too many open connections from this address (at most ${limits.maxConnectionsPerClient}); retry on one of them.`, retryAfterSeconds: 1, close: true };
      }
      const wait = take(socket.remoteAddress ?? '');
      if (wait > 0) {
        return { message: `Too many requests from this address (at most ${limits.maxRequestsPerSecondPerClient} a second); retry later.`, retryAfterSeconds: wait, close: false };
      }
      return undefined;
    },
    bodyTimer(req, fail) {
      const windowMs = limits.bodyTimeoutMs;
      const least = Math.ceil((limits.bodyMinBytesPerSecond * windowMs) / 1000);
      let received = 0;
      let windowStart = performance.now();
      let windowBytes = 0;
      let last = windowStart;
      let stopped = false;
      const stop = (): void => {
        stopped = true;
        timers.delete(timer);
      };
      const timer = {
        check(now: number): void {
          if (stopped) return;
          // Time the server itself held the body back (a full buffer, a slow disk) is not the client's.
          if (req.isPaused()) windowStart += now - last;
          last = now;
          if (now - windowStart < windowMs) return;
          if (received - windowBytes >= least) {
            windowStart = now;
            windowBytes = received;
            return;
          }
          stop();
          fail(
            new QsError(
              'request_timeout',
              `The request body arrived too slowly: ${received - windowBytes} bytes in the last ${windowMs / 1000} s (at least ${least} must arrive in every ${windowMs / 1000} s).`,
            ),
          );
        },
      };
      watch(timer);
      return {
        received(bytes) {
          received += bytes;
        },
        stop,
      };
    },
  };
}
