import { NULL_BODY_STATUSES, checkResponse, type PreparedRequest, type QsClient, type RequestBody, type SendInput } from './client.ts';

/**
 * Uploads with progress. fetch exposes no upload progress, so bodies that users watch (PostObject
 * forms, multipart parts) go through XMLHttpRequest. The XHR result is turned into a standard
 * `Response` and passes through the same `checkResponse` as fetch, so ApiError mapping is identical.
 * Where XMLHttpRequest does not exist (Node: tests, the CLI emulator checks) it falls back to fetch and
 * reports a single final progress event.
 */

export interface TransferProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Total bytes of the request body (multipart form bodies include field and boundary overhead). */
  total: number;
}

export interface TransferInput extends SendInput {
  onProgress?: (progress: TransferProgress) => void;
}

function bodySize(body: RequestBody | undefined): number | undefined {
  if (body === undefined) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).byteLength;
  if (body instanceof Blob) return body.size;
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (body instanceof Uint8Array) return body.byteLength;
  return undefined;
}

/** Payload bytes of a form (fields + files), without multipart boundaries and part headers. */
function formPayloadSize(form: FormData): number {
  let total = 0;
  form.forEach((value) => {
    total += typeof value === 'string' ? new TextEncoder().encode(value).byteLength : value.size;
  });
  return total;
}

/** Parses `getAllResponseHeaders()` (CRLF-separated `name: value` lines) into Headers. */
export function parseXhrHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    try {
      headers.append(name, value);
    } catch {
      // A header name the Headers class refuses cannot be read by callers either; drop it.
    }
  }
  return headers;
}

function responseFromXhr(xhr: XMLHttpRequest): Response {
  const headers = parseXhrHeaders(xhr.getAllResponseHeaders());
  const body: ArrayBuffer | null = NULL_BODY_STATUSES.has(xhr.status) || !(xhr.response instanceof ArrayBuffer) ? null : xhr.response;
  return new Response(body, { status: xhr.status, statusText: xhr.statusText, headers });
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The transfer was aborted', 'AbortError');
}

function sendXhr(client: QsClient, prepared: PreparedRequest, onProgress: TransferInput['onProgress']): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const { signal } = prepared;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(prepared.method, prepared.url.href);
    xhr.responseType = 'arraybuffer';
    xhr.withCredentials = false;
    prepared.headers.forEach((value, name) => xhr.setRequestHeader(name, value));

    const onAbort = (): void => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => signal?.removeEventListener('abort', onAbort);

    const knownTotal = bodySize(prepared.body);
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : (knownTotal ?? event.loaded) });
      });
    }
    xhr.addEventListener('load', () => {
      cleanup();
      resolve(responseFromXhr(xhr));
    });
    xhr.addEventListener('error', () => {
      cleanup();
      reject(client.networkError(prepared, new TypeError('XMLHttpRequest network error')));
    });
    xhr.addEventListener('timeout', () => {
      cleanup();
      reject(client.networkError(prepared, new TypeError('XMLHttpRequest timed out')));
    });
    xhr.addEventListener('abort', () => {
      cleanup();
      reject(abortReason(signal));
    });
    xhr.send(prepared.body ?? null);
  });
}

/** Sends `input` like `client.send` but with upload progress. Throws ApiError / NetworkError / abort reason. */
export async function sendWithProgress(client: QsClient, input: TransferInput): Promise<Response> {
  const { onProgress } = input;
  if (typeof XMLHttpRequest === 'undefined') {
    const response = await client.send(input);
    const total = input.body instanceof FormData ? formPayloadSize(input.body) : bodySize(input.body);
    if (onProgress && total !== undefined) onProgress({ loaded: total, total });
    return response;
  }
  const prepared = await client.prepare(input);
  const response = await sendXhr(client, prepared, onProgress);
  return checkResponse(response, prepared);
}
