import { createHmac } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, READ_SIGNATURE_LIFETIME_S } from './client.ts';
import type { Connection } from './connection.ts';
import { ApiError, ContractError, NetworkError } from './errors.ts';

// Independent reference implementation of ref §2.1 via node:crypto, so the client's signature is not
// only checked against the module that produced it.
function hmac(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}

const credentials = { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' };
const fixedNow = new Date('2024-01-01T00:00:00Z');
const pathConn: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', credentials, defaultZone: 'pek3a' };
const vhostConn: Connection = { ...pathConn, style: 'virtual-host' };

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
let seen: Seen[] = [];

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen = [];
});
afterAll(() => server.close());

function record(status = 200, body: string | null = '{}', headers: Record<string, string> = { 'content-type': 'application/json', 'x-qs-request-id': 'req0000000000001' }) {
  return http.all(/.*/, async ({ request }) => {
    seen.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers.entries()),
      body: request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text(),
    });
    return new HttpResponse(body, { status, headers });
  });
}

describe('createClient().send — URL and signature', () => {
  it('path style: signs PUT with content-type, metadata and a unicode key (verifiable string to sign)', async () => {
    server.use(record(201, null, { etag: '"5eb63bbbe01eeed093cb22bb8f5acdc3"', 'x-qs-request-id': 'r1' }));
    const client = createClient(pathConn, { now: () => fixedNow });
    const response = await client.send({
      operation: 'PutObject',
      method: 'PUT',
      bucket: 'mybucket',
      key: 'photos/中文 file.jpg',
      headers: { 'Content-Type': 'image/jpeg', 'X-QS-Meta-Author': 'Alice' },
      body: 'hello world',
    });
    expect(response.status).toBe(201);
    const req = seen[0]!;
    expect(req.url).toBe('https://pek3a.qingstor.com/mybucket/photos/%E4%B8%AD%E6%96%87%20file.jpg');
    expect(req.headers['content-type']).toBe('image/jpeg');
    expect(req.headers['x-qs-date']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(req.body).toBe('hello world');
    const expected = hmac(
      credentials.secretAccessKey,
      'PUT\n\nimage/jpeg\n\nx-qs-date:Mon, 01 Jan 2024 00:00:00 GMT\nx-qs-meta-author:Alice\n/mybucket/photos/%E4%B8%AD%E6%96%87%20file.jpg',
    );
    expect(req.headers.authorization).toBe(`QS EXAMPLEACCESSKEYID01:${expected}`);
  });

  it('virtual-host style signs /<bucket>/ for ListObjects and ignores non-sub-resource params (ref §2.8 V4), in the header through the proxy', async () => {
    server.use(record());
    const client = createClient({ ...vhostConn, proxy: 'http://localhost:8080/_qs' }, { now: () => fixedNow });
    await client.send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket', query: { delimiter: '/', limit: 100, prefix: 'photos/' } });
    const req = seen[0]!;
    expect(req.url).toBe('http://localhost:8080/_qs/mybucket.pek3a.qingstor.com/?delimiter=%2F&limit=100&prefix=photos%2F');
    // Published vector V4 (vhost): 2DNkIeIigJnohGXzM9X41BFfvIAvOUfd8J1Ba3anAc4=
    expect(req.headers.authorization).toBe('QS EXAMPLEACCESSKEYID01:2DNkIeIigJnohGXzM9X41BFfvIAvOUfd8J1Ba3anAc4=');
  });

  it('a direct read is signed in its query string and carries no header of its own: a CORS simple request (ref §2.5)', async () => {
    server.use(record());
    const client = createClient(pathConn, { now: () => fixedNow });
    const expires = fixedNow.getTime() / 1000 + READ_SIGNATURE_LIFETIME_S;
    const list = { operation: 'ListObjects', method: 'GET' as const, bucket: 'mybucket', query: { delimiter: '/', limit: 100, prefix: 'photos/' } };
    const prepared = await client.prepare(list);
    expect([...prepared.headers.keys()]).toEqual([]);
    await client.send(list);
    const url = new URL(seen[0]!.url);
    expect(url.origin + url.pathname).toBe('https://pek3a.qingstor.com/mybucket');
    expect(url.search).toBe(`?delimiter=%2F&limit=100&prefix=photos%2F&access_key_id=EXAMPLEACCESSKEYID01&expires=${expires}&signature=${encodeURIComponent(url.searchParams.get('signature') ?? '')}`);
    // Paging parameters are not part of the resource (ref §2.3): `GET`, the expiry, the bucket.
    expect(url.searchParams.get('signature')).toBe(hmac(credentials.secretAccessKey, `GET\n\n\n${expires}\n/mybucket`));
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['x-qs-date']).toBeUndefined();

    // A HEAD in virtual-host style, with a signed sub-resource: the resource has the bucket and the override.
    await createClient(vhostConn, { now: () => fixedNow }).send({ operation: 'HeadObject', method: 'HEAD', bucket: 'mybucket', key: 'docs/a b.txt', query: { 'response-content-encoding': 'identity' } });
    const head = new URL(seen[1]!.url);
    expect(head.origin + head.pathname).toBe('https://mybucket.pek3a.qingstor.com/docs/a%20b.txt');
    expect(head.searchParams.get('signature')).toBe(hmac(credentials.secretAccessKey, `HEAD\n\n\n${expires}\n/mybucket/docs/a%20b.txt?response-content-encoding=identity`));
    expect(seen[1]!.headers.authorization).toBeUndefined();
  });

  it('a ranged read keeps its Range (a safelisted header) and nothing else; writes stay signed in headers', async () => {
    const client = createClient(pathConn, { now: () => fixedNow });
    const ranged = await client.prepare({ operation: 'GetObject', method: 'GET', bucket: 'mybucket', key: 'k', headers: { range: 'bytes=0-99' } });
    expect([...ranged.headers]).toEqual([['range', 'bytes=0-99']]);
    expect(ranged.url.searchParams.has('signature')).toBe(true);
    const write = await client.prepare({ operation: 'PutObject', method: 'PUT', bucket: 'mybucket', key: 'k', body: 'x' });
    expect(write.url.search).toBe('');
    expect(write.headers.get('authorization')).toMatch(/^QS EXAMPLEACCESSKEYID01:/);
    expect(write.headers.get('x-qs-date')).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
  });

  it('errors name the request without its query credentials', async () => {
    server.use(record(404, JSON.stringify({ code: 'object_not_exists', message: 'gone', request_id: 'r' }), { 'content-type': 'application/json' }));
    const error = await createClient(pathConn).send({ operation: 'GetObject', method: 'GET', bucket: 'mybucket', key: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', requestUrl: 'https://pek3a.qingstor.com/mybucket/x' });
    expect(new URL(seen[0]!.url).searchParams.has('signature')).toBe(true);
  });

  it('signs bare sub-resources (?acl) and sets Content-Type explicitly for bodies without one', async () => {
    server.use(record());
    const client = createClient(pathConn, { now: () => fixedNow });
    await client.send({ operation: 'PutBucketACL', method: 'PUT', bucket: 'mybucket', query: { acl: null }, body: new Blob(['{}'], { type: 'text/html' }) });
    const req = seen[0]!;
    expect(req.url).toBe('https://pek3a.qingstor.com/mybucket?acl');
    expect(req.headers['content-type']).toBe('application/octet-stream');
    const expected = hmac(credentials.secretAccessKey, 'PUT\n\napplication/octet-stream\n\nx-qs-date:Mon, 01 Jan 2024 00:00:00 GMT\n/mybucket?acl');
    expect(req.headers.authorization).toBe(`QS EXAMPLEACCESSKEYID01:${expected}`);
  });

  it('reads bypass the HTTP cache but writes never carry a Cache-Control the server would store as metadata', async () => {
    server.use(record());
    const client = createClient(pathConn);
    await client.send({ operation: 'PutObject', method: 'PUT', bucket: 'mybucket', key: 'k', body: 'x' });
    await client.send({ operation: 'CopyObject', method: 'PUT', bucket: 'mybucket', key: 'k2', headers: { 'x-qs-copy-source': '/mybucket/k' } });
    await client.send({ operation: 'HeadObject', method: 'HEAD', bucket: 'mybucket', key: 'k' });
    expect(seen.map((r) => [r.method, r.headers['cache-control'] ?? null])).toEqual([
      ['PUT', null],
      ['PUT', null],
      ['HEAD', 'no-cache'],
    ]);
  });

  it('anonymous connections send neither authorization nor x-qs-date', async () => {
    server.use(record());
    const client = createClient({ ...pathConn, credentials: undefined });
    await client.send({ operation: 'GetObject', method: 'GET', bucket: 'public-bucket', key: 'a.txt' });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['x-qs-date']).toBeUndefined();
  });

  it('through the serve proxy the header signature covers the direct resource', async () => {
    server.use(record());
    const client = createClient({ ...pathConn, proxy: 'http://localhost:8080/_qs' }, { now: () => fixedNow });
    await client.send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket', query: { delimiter: '/', limit: 100, prefix: 'photos/' } });
    expect(seen[0]!.url).toBe('http://localhost:8080/_qs/pek3a.qingstor.com/mybucket?delimiter=%2F&limit=100&prefix=photos%2F');
    // Same signature as the direct path-style request (vector V4 path).
    expect(seen[0]!.headers.authorization).toBe('QS EXAMPLEACCESSKEYID01:/rxtjH6LNUJCjXREZyUj84aE4gbY3++uaxBsBbf0g9o=');
    // The proxy's marker goes with every proxied call, and is not signed.
    expect(seen[0]!.headers['x-qsc-proxy']).toBe('1');
  });

  it('direct requests carry no proxy marker (no bucket CORS rule has to allow it)', async () => {
    server.use(record());
    await createClient(pathConn).send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket' });
    expect(seen[0]!.headers['x-qsc-proxy']).toBeUndefined();
  });

  it('global host for service-level calls with zone null', async () => {
    server.use(record());
    await createClient(pathConn).send({ operation: 'GetLocations', method: 'GET', zone: null, query: { location: null } });
    expect(seen[0]!.url).toMatch(/^https:\/\/qingstor\.com\/\?location&access_key_id=EXAMPLEACCESSKEYID01&expires=\d+&signature=/);
  });
});

describe('error mapping', () => {
  it('maps a QingStor JSON error body to ApiError', async () => {
    server.use(record(404, JSON.stringify({ code: 'object_not_exists', message: 'gone', request_id: 'body-id', url: 'https://docs/err' }), {
      'content-type': 'application/json', 'x-qs-request-id': 'hdr-id',
    }));
    const error = await createClient(pathConn).send({ operation: 'GetObject', method: 'GET', bucket: 'mybucket', key: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'object_not_exists', message: 'gone', requestId: 'hdr-id', url: 'https://docs/err', fromBody: true, operation: 'GetObject', method: 'GET' });
  });

  it('HEAD errors have no body: code from the status, request id from the header', async () => {
    server.use(record(404, null, { 'x-qs-request-id': 'head-404' }));
    const error = await createClient(pathConn).send({ operation: 'HeadObject', method: 'HEAD', bucket: 'mybucket', key: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 404, code: 'not_found', requestId: 'head-404', fromBody: false, operation: 'HeadObject' });
  });

  it('a proxy error page without JSON still becomes an ApiError', async () => {
    server.use(record(502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' }));
    const error = await createClient(pathConn).send({ operation: 'ListBuckets', method: 'GET' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 502, code: 'bad_gateway', requestId: '', fromBody: false });
  });

  it('uses the body request_id when the header is not exposed', async () => {
    server.use(record(403, JSON.stringify({ code: 'permission_denied', message: 'no', request_id: 'only-body' }), { 'content-type': 'application/json' }));
    const error = await createClient(pathConn).send({ operation: 'ListObjects', method: 'GET', bucket: 'b-bucket' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'permission_denied', requestId: 'only-body' });
  });

  it('accepts listed non-2xx statuses', async () => {
    server.use(record(304, null, { etag: '"x"' }));
    const response = await createClient(pathConn).send({ operation: 'GetObject', method: 'GET', bucket: 'b-bucket', key: 'k', acceptStatus: [304] });
    expect(response.status).toBe(304);
  });

  it('a fetch TypeError to another origin is a NetworkError flagged likelyCors', async () => {
    server.use(http.all(/.*/, () => HttpResponse.error()));
    const cross = await createClient(pathConn, { pageOrigin: 'http://localhost:5173' })
      .send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket' }).catch((e: unknown) => e);
    expect(cross).toBeInstanceOf(NetworkError);
    expect(cross).toMatchObject({ likelyCors: true, requestOrigin: 'https://pek3a.qingstor.com', operation: 'ListObjects' });
    expect((cross as NetworkError).hint).toMatch(/CORS/);

    const same = await createClient(pathConn, { pageOrigin: 'https://pek3a.qingstor.com' })
      .send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket' }).catch((e: unknown) => e);
    expect(same).toMatchObject({ name: 'NetworkError', likelyCors: false });
    const node = await createClient(pathConn).send({ operation: 'ListObjects', method: 'GET', bucket: 'mybucket' }).catch((e: unknown) => e);
    expect(node).toMatchObject({ name: 'NetworkError', likelyCors: false });
  });

  it('an aborted request rejects with the abort reason, not a NetworkError', async () => {
    // The server answers only after the test is over: the abort always comes first.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(http.all(/.*/, async () => {
      await released;
      return HttpResponse.json({});
    }));
    const controller = new AbortController();
    const pending = createClient(pathConn).send({ operation: 'ListBuckets', method: 'GET', signal: controller.signal }).catch((e: unknown) => e);
    const reason = new DOMException('user cancelled', 'AbortError');
    controller.abort(reason);
    const error = await pending;
    release();
    expect(error).toBe(reason);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

describe('json() and ContractError', () => {
  const schema = z.object({ count: z.int(), names: z.array(z.string()) });

  it('returns parsed data', async () => {
    server.use(record(200, JSON.stringify({ count: 1, names: ['a'], extra: true })));
    await expect(createClient(pathConn).json(schema, { operation: 'X', method: 'GET' })).resolves.toEqual({ count: 1, names: ['a'] });
  });

  it('throws ContractError with zod issues on a mismatch', async () => {
    server.use(record(200, JSON.stringify({ count: '1', names: 'a' })));
    const error = await createClient(pathConn).json(schema, { operation: 'ListThings', method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    const contract = error as ContractError;
    expect(contract.issues.map((i) => i.path.join('.')).sort()).toEqual(['count', 'names']);
    expect(contract).toMatchObject({ operation: 'ListThings', part: 'body', status: 200, requestId: 'req0000000000001' });
  });

  it('throws ContractError for a body that is not JSON', async () => {
    server.use(record(200, 'not json'));
    const error = await createClient(pathConn).json(schema, { operation: 'X', method: 'GET' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).message).toMatch(/not JSON/);
  });
});

describe('presign', () => {
  it('builds a download link whose signature covers GET, expires and the resource (ref §2.5)', async () => {
    const client = createClient(vhostConn, { now: () => fixedNow });
    const url = await client.presign({ bucket: 'mybucket', key: 'docs/report.pdf', expiresIn: 600, query: { 'response-content-disposition': 'attachment; filename="report.pdf"' } });
    const expires = fixedNow.getTime() / 1000 + 600;
    expect(url.origin + url.pathname).toBe('https://mybucket.pek3a.qingstor.com/docs/report.pdf');
    expect(url.searchParams.get('access_key_id')).toBe(credentials.accessKeyId);
    expect(url.searchParams.get('expires')).toBe(String(expires));
    const expected = hmac(credentials.secretAccessKey, `GET\n\n\n${expires}\n/mybucket/docs/report.pdf?response-content-disposition=attachment; filename="report.pdf"`);
    expect(url.searchParams.get('signature')).toBe(expected);
  });

  it('returns the plain URL for anonymous connections and rejects non-positive expiry', async () => {
    const anonymous = createClient({ ...pathConn, credentials: undefined });
    expect((await anonymous.presign({ bucket: 'b-bucket', key: 'a b', expiresIn: 60 })).href).toBe('https://pek3a.qingstor.com/b-bucket/a%20b');
    await expect(anonymous.presign({ bucket: 'b-bucket', key: 'a', expiresIn: 0 })).rejects.toThrow(RangeError);
  });

  it('through the proxy: the link still goes to the endpoint itself, never to the console origin', async () => {
    const client = createClient({ ...pathConn, proxy: 'http://localhost:8080/_qs' }, { now: () => fixedNow });
    const url = await client.presign({ bucket: 'b-bucket', key: 'k', expiresIn: 60 });
    expect(url.origin).toBe('https://pek3a.qingstor.com');
    expect(url.pathname).toBe('/b-bucket/k');
    const anonymous = createClient({ ...pathConn, credentials: undefined, proxy: 'http://localhost:8080/_qs' });
    expect((await anonymous.presign({ bucket: 'b-bucket', key: 'k', expiresIn: 60 })).href).toBe('https://pek3a.qingstor.com/b-bucket/k');
    const expires = fixedNow.getTime() / 1000 + 60;
    expect(url.searchParams.get('signature')).toBe(hmac(credentials.secretAccessKey, `GET\n\n\n${expires}\n/b-bucket/k`));
  });
});
