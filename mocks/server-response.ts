/**
 * The response side of the standalone emulator's node:http ⇄ Fetch adapter (server-adapter.ts): a Fetch
 * `Response` written to the socket, and the QingStor errors the adapter writes itself (ref §4, §11.1).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { HOP_BY_HOP_HEADERS } from '../src/api/protocol/headers.ts';
import { formatHttpDate } from '../src/api/protocol/http-date.ts';
import { ERROR_CATALOG, ERROR_HELP_URL, type QsErrorCode } from './errors.ts';

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

/** What went out on a response written here: its request id and body bytes, for the access log. */
export function sentOn(res: ServerResponse): { requestId: string; bytes: number } | undefined {
  return sent.get(res);
}
