// @vitest-environment jsdom
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/api/client.ts';
import type { Connection } from '../src/api/connection.ts';
import { sendWithProgress, type TransferProgress } from '../src/api/transfer.ts';
import { interceptDemoXhr, withBodyStream, type DemoXhrInterception } from './browser-xhr.ts';

/**
 * The in-page XHR interceptor of demo mode, driven through jsdom's XMLHttpRequest, which it patches: demo
 * answers reach the console's transfer code with status, headers and upload progress at `load`.
 *
 * What jsdom does not reproduce: in Chromium the interceptor fires `load` of an answer without a body before
 * its header getters exist, which `withBodyStream` avoids. Here the first two tests pass with or without it;
 * the demo upload journey (e2e/uploads.spec.ts) is the check that fails without it (PostObject's 201 then
 * has no readable ETag and the upload fails). The last test pins what `withBodyStream` returns.
 */

const DOMAIN = 'qingstor.invalid';
const connection: Connection = {
  endpoint: `https://${DOMAIN}`,
  zoneInHost: true,
  style: 'path',
  credentials: { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' },
  defaultZone: 'pek3a',
};

// jsdom enforces CORS for XHR like a browser (mocks/README.md, "msw and browser facts"): its preflight
// reaches the interceptor too, so these handlers answer it and expose the headers, as the demo's CORS does.
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, x-qs-request-id' };
const preflight = http.options(/.*/, ({ request }) =>
  new HttpResponse(null, {
    status: 200,
    headers: { ...CORS, 'access-control-allow-methods': 'GET, PUT, POST, DELETE, HEAD', 'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? '' },
  }),
);

let interception: DemoXhrInterception | undefined;
afterEach(() => {
  interception?.dispose();
  interception = undefined;
});

/** Plain XHR: what the response headers read at `load`. */
function headersAtLoad(method: string, url: string): Promise<{ status: number; etag: string | null; all: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.addEventListener('load', () => resolve({ status: xhr.status, etag: xhr.getResponseHeader('etag'), all: xhr.getAllResponseHeaders() }));
    xhr.addEventListener('error', () => reject(new Error('xhr error')));
    xhr.send();
  });
}

describe('demo-mode XHR answers', () => {
  it('a 201 without a body: the console reads its ETag at load, and upload progress arrives', async () => {
    interception = interceptDemoXhr(
      [preflight, http.put(`https://pek3a.${DOMAIN}/bucket/part.bin`, () => new HttpResponse(null, { status: 201, headers: { ...CORS, etag: '"abc"', 'x-qs-request-id': 'r1' } }))],
      DOMAIN,
    );
    const progress: TransferProgress[] = [];
    const response = await sendWithProgress(createClient(connection), {
      operation: 'UploadMultipart',
      method: 'PUT',
      bucket: 'bucket',
      key: 'part.bin',
      body: new Blob(['0123456789']),
      onProgress: (p) => progress.push(p),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"abc"');
    expect(response.headers.get('x-qs-request-id')).toBe('r1');
    expect(progress.at(-1)).toEqual({ loaded: 10, total: 10 });
  });

  it('a 204 (a status that may not carry a body) has its headers at load too', async () => {
    interception = interceptDemoXhr([preflight, http.delete(`https://pek3a.${DOMAIN}/bucket/k`, () => new HttpResponse(null, { status: 204, headers: { ...CORS, etag: '"gone"' } }))], DOMAIN);
    const seen = await headersAtLoad('DELETE', `https://pek3a.${DOMAIN}/bucket/k`);
    expect(seen).toMatchObject({ status: 204, etag: '"gone"' });
    expect(seen.all).toContain('etag: "gone"');
  });

  it('an answer with a body is passed through unchanged', async () => {
    const original = HttpResponse.json({ ok: true }, { status: 200 });
    expect(withBodyStream(original)).toBe(original);
    const empty = withBodyStream(new Response(null, { status: 201, headers: { etag: '"x"' } }));
    expect(empty.body).not.toBeNull();
    expect(empty.headers.get('etag')).toBe('"x"');
    expect(await empty.text()).toBe('');
  });
});
