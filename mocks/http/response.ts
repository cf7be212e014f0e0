/**
 * Response construction shared by every handler (ref §3, §11.1): each response carries `Server: QingStor`,
 * `Date` (RFC 1123) and `x-qs-request-id`; errors are the JSON envelope of ref §4, HEAD errors status only.
 */
import { formatHttpDate } from '../../src/api/protocol/http-date.ts';
import { QsError, errorBody } from '../errors.ts';

// 16 hex characters (ref §3, inferred): a random per-process prefix and a counter, unique within a run
// without asking the CSPRNG on every request.
const requestIdPrefix = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(4)), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');
let requestCounter = 0;

export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 0x1_0000_0000;
  return requestIdPrefix + requestCounter.toString(16).padStart(8, '0');
}

/** JSON `created` fields: ISO 8601 UTC with milliseconds (ref §3). */
export function isoMillis(date: Date): string {
  return date.toISOString();
}

/** ListObjects `modified`: integer Unix seconds (ref §9.5). */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}


const utf8 = new TextEncoder();

/** C0 controls except TAB, and DEL: what node:http refuses in a header value (CR/LF would split it). */
function hasHeaderControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

function beyondLatin1(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return true;
  return false;
}

/**
 * Makes text that came from a query parameter, a form field or a JSON document sendable as a response header
 * value. Control characters (CR/LF would split the header) cannot travel at all ⇒ invalid_argument. Text
 * beyond Latin-1 travels as its UTF-8 bytes, which is what a real server writes on the wire; a header value
 * with such characters would otherwise make `Headers` (and node:http) throw, i.e. a 500.
 */
export function headerSafe(value: string, what: string): string {
  if (hasHeaderControl(value)) throw new QsError('invalid_argument', `${what} must not contain control characters.`);
  if (!beyondLatin1(value)) return value;
  let bytes = '';
  for (const b of utf8.encode(value)) bytes += String.fromCharCode(b);
  return bytes;
}

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

export function emptyResponse(status: number, headers?: Record<string, string> | Headers): Response {
  const h = new Headers(headers);
  if (status !== 204 && status !== 304 && !h.has('content-length')) h.set('content-length', '0');
  return new Response(null, { status, headers: h });
}

export function errorResponse(error: QsError, requestId: string, method: string): Response {
  if (method === 'HEAD' || error.status === 304) return new Response(null, { status: error.status });
  return jsonResponse(error.status, errorBody(error, requestId));
}

/** Adds the headers every response carries; the Response must have mutable headers (constructed here). */
export function finishResponse(response: Response, requestId: string, now: Date, extra?: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  headers.set('server', 'QingStor');
  headers.set('date', formatHttpDate(now));
  headers.set('x-qs-request-id', requestId);
  if (extra) {
    for (const [name, value] of Object.entries(extra)) {
      if (name === 'vary' && headers.has('vary')) headers.set('vary', `${headers.get('vary')}, ${value}`);
      else headers.set(name, value);
    }
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
