// @vitest-environment jsdom
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './client.ts';
import type { Connection } from './connection.ts';
import { ApiError, NetworkError } from './errors.ts';
import { parseXhrHeaders, sendWithProgress, type TransferProgress } from './transfer.ts';

// jsdom provides XMLHttpRequest, so these requests take the XHR path (msw intercepts XHR here).
const connection: Connection = {
  endpoint: 'https://qingstor.com',
  zoneInHost: true,
  style: 'path',
  credentials: { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' },
  defaultZone: 'pek3a',
};

// jsdom enforces CORS for XHR like a browser (mocks/README.md, "msw and browser facts"), so the test server answers preflights
// and exposes the headers the client reads — the same rules a QingStor bucket needs (ref §9.9).
const CORS = {
  'access-control-allow-origin': 'http://localhost:3000',
  'access-control-expose-headers': 'ETag, x-qs-request-id',
};
const preflight = http.options(/.*/, ({ request }) =>
  new HttpResponse(null, {
    status: 200,
    headers: {
      ...CORS,
      'access-control-allow-methods': 'GET, PUT, POST, DELETE, HEAD',
      'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? '',
    },
  }),
);

const server = setupServer(preflight);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('sendWithProgress over XMLHttpRequest', () => {
  it('signs, sends the body, reports progress and exposes status + headers like fetch', async () => {
    let received: { auth: string | null; type: string | null; body: string } | undefined;
    server.use(
      http.put('https://pek3a.qingstor.com/mybucket/part.bin', async ({ request }) => {
        received = { auth: request.headers.get('authorization'), type: request.headers.get('content-type'), body: await request.text() };
        return new HttpResponse(null, { status: 201, headers: { ...CORS, etag: '"abc"', 'x-qs-request-id': 'xhr-1' } });
      }),
    );
    expect(typeof XMLHttpRequest).toBe('function');
    const progress: TransferProgress[] = [];
    const response = await sendWithProgress(createClient(connection), {
      operation: 'UploadMultipart',
      method: 'PUT',
      bucket: 'mybucket',
      key: 'part.bin',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Blob(['0123456789']),
      onProgress: (p) => progress.push(p),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"abc"');
    expect(response.headers.get('x-qs-request-id')).toBe('xhr-1');
    expect(received).toMatchObject({ type: 'application/octet-stream', body: '0123456789' });
    expect(received?.auth).toMatch(/^QS EXAMPLEACCESSKEYID01:[A-Za-z0-9+/]{43}=$/);
    expect(progress.at(-1)).toEqual({ loaded: 10, total: 10 });
  });

  it('maps an error response to the same ApiError as fetch', async () => {
    server.use(
      http.put('https://pek3a.qingstor.com/mybucket/part.bin', () =>
        HttpResponse.json({ code: 'upload_not_exists', message: 'gone', request_id: 'r-404' }, { status: 404, headers: { ...CORS, 'x-qs-request-id': 'r-404' } }),
      ),
    );
    const error = await sendWithProgress(createClient(connection), { operation: 'UploadMultipart', method: 'PUT', bucket: 'mybucket', key: 'part.bin', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'upload_not_exists', requestId: 'r-404', operation: 'UploadMultipart' });
  });

  it('a response without CORS headers is unreadable: NetworkError flagged likelyCors', async () => {
    server.use(http.put('https://pek3a.qingstor.com/mybucket/part.bin', () => new HttpResponse(null, { status: 201 })));
    const error = await sendWithProgress(createClient(connection), { operation: 'UploadMultipart', method: 'PUT', bucket: 'mybucket', key: 'part.bin', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ likelyCors: true, requestOrigin: 'https://pek3a.qingstor.com' });
  });

  it('turns a network failure into NetworkError (cross-origin from the jsdom page ⇒ likelyCors)', async () => {
    server.use(http.put('https://pek3a.qingstor.com/mybucket/part.bin', () => HttpResponse.error()));
    const error = await sendWithProgress(createClient(connection), { operation: 'UploadMultipart', method: 'PUT', bucket: 'mybucket', key: 'part.bin', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ likelyCors: true, pageOrigin: location.origin });
  });

  it('aborts via AbortSignal with the signal reason', async () => {
    // The request reaches the server and is held there until the test is over: the abort comes mid-flight.
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.put('https://pek3a.qingstor.com/mybucket/part.bin', async () => {
        arrived();
        await released;
        return new HttpResponse(null, { status: 201, headers: CORS });
      }),
    );
    const controller = new AbortController();
    const pending = sendWithProgress(createClient(connection), { operation: 'UploadMultipart', method: 'PUT', bucket: 'mybucket', key: 'part.bin', body: 'x', signal: controller.signal }).catch((e: unknown) => e);
    await reached;
    controller.abort(new DOMException('user cancelled', 'AbortError'));
    const error = await pending;
    release();
    expect(error).toMatchObject({ name: 'AbortError', message: 'user cancelled' });
  });
});

describe('parseXhrHeaders', () => {
  it('parses CRLF lines, keeps values with colons, joins repeated names', () => {
    const headers = parseXhrHeaders('etag: "x"\r\nlast-modified: Wed, 10 Dec 2014 17:20:31 GMT\r\nx-qs-meta-a: 1\r\nx-qs-meta-a: 2\r\n');
    expect(headers.get('etag')).toBe('"x"');
    expect(headers.get('last-modified')).toBe('Wed, 10 Dec 2014 17:20:31 GMT');
    expect(headers.get('x-qs-meta-a')).toBe('1, 2');
  });
});
