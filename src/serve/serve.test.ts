import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse as ClientResponse } from '../../mocks/server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../../mocks/server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from '../../mocks/server.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { consoleCsp, consoleSecurityHeaders } from './headers.ts';
import { precompressDir } from './precompress.ts';
import { PROXY_MARKER_HEADER, PROXY_MARKER_VALUE, parseProxyTarget } from './proxy.ts';
import { startServe, type RunningServe } from './serve.ts';

/** What the console's API client adds to every proxied call. */
const MARKER = { [PROXY_MARKER_HEADER]: PROXY_MARKER_VALUE };

const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join('\n');

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyLength: number;
  bodySha256: string;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends a request with the request-target exactly as given (fetch would normalise it). */
function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: Buffer | (() => AsyncIterable<Buffer>),
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (typeof body === 'function') {
      void (async () => {
        for await (const chunk of body()) {
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })();
    } else {
      req.end(body);
    }
  });
}

describe('serve: same-origin proxy against a recording upstream', () => {
  let upstream: http.Server;
  let upstreamPort = 0;
  const seen: Seen[] = [];
  let serve: RunningServe;
  let dist = '';

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const hash = createHash('sha256');
      let length = 0;
      req.on('data', (c: Buffer) => {
        hash.update(c);
        length += c.length;
      });
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyLength: length, bodySha256: hash.digest('hex') });
        if (req.url?.startsWith('/big')) {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(6 * 1024 * 1024) });
          const chunk = Buffer.alloc(64 * 1024, 7);
          for (let i = 0; i < 96; i++) res.write(chunk);
          res.end();
          return;
        }
        res.writeHead(207, 'Multi', {
          'content-type': 'application/json',
          etag: '"abc"',
          'x-qs-request-id': 'req-1',
          'set-cookie': 'sid=1',
          'keep-alive': 'timeout=5',
          'x-private-hop': 'x',
          'content-security-policy': 'script-src *',
          connection: 'keep-alive, x-private-hop',
        });
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const address = upstream.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    upstreamPort = address.port;

    dist = await mkdtemp(path.join(tmpdir(), 'serve-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(path.join(dist, 'assets', 'index-Ub0Zl5ro.js'), 'console.log(1)');
    await writeFile(path.join(dist, 'mockServiceWorker.js'), '/* worker */');
    await writeFile(path.join(dist, 'assets', 'big-AbCdEf12.js'), BIG_JS);
    await mkdir(path.join(dist, '.vite'));
    await writeFile(path.join(dist, '.vite', 'manifest.json'), '{"secret":true}');
    await writeFile(path.join(tmpdir(), 'serve-secret.txt'), 'secret');
    precompressDir(dist);
    serve = await startServe({ endpoint: `http://127.0.0.1:${upstreamPort}`, port: 0, dist });
  });

  afterAll(async () => {
    await serve.close();
    await new Promise<void>((r) => upstream.close(() => r()));
    await rm(dist, { recursive: true, force: true });
  });

  it('forwards method, raw path and query byte for byte, and the signed headers unchanged', async () => {
    seen.length = 0;
    const res = await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/my-bucket/a%2Fb%27%2a%E4%B8%AD?acl&prefix=%2B%20x', {
      ...MARKER,
      authorization: 'QS AK:sig=',
      'x-qs-date': 'Mon, 01 Jan 2024 00:00:00 GMT',
      'x-qs-meta-color': 'red',
      'content-md5': 'XrY7u+Ae7tCTyyK7j1rNww==',
      range: 'bytes=0-9',
      'if-none-match': '"abc"',
      'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT',
      cookie: 'console-session=1',
      origin: 'http://127.0.0.1:8080',
      referer: 'http://127.0.0.1:8080/buckets',
      'proxy-authorization': 'Basic eA==',
    });
    expect(res.status).toBe(207);
    expect(seen).toHaveLength(1);
    const got = seen[0]!;
    expect(got.method).toBe('GET');
    expect(got.url).toBe('/my-bucket/a%2Fb%27%2a%E4%B8%AD?acl&prefix=%2B%20x');
    expect(got.headers.host).toBe(`127.0.0.1:${upstreamPort}`);
    expect(got.headers.authorization).toBe('QS AK:sig=');
    expect(got.headers['x-qs-date']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(got.headers['x-qs-meta-color']).toBe('red');
    expect(got.headers['content-md5']).toBe('XrY7u+Ae7tCTyyK7j1rNww==');
    expect(got.headers.range).toBe('bytes=0-9');
    expect(got.headers['if-none-match']).toBe('"abc"');
    expect(got.headers['if-modified-since']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers.origin).toBeUndefined();
    expect(got.headers.referer).toBeUndefined();
    expect(got.headers['proxy-authorization']).toBeUndefined();
  });

  it('adds no credentials: an unsigned request reaches the endpoint unsigned', async () => {
    seen.length = 0;
    await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/', MARKER);
    expect(seen[0]?.url).toBe('/');
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(Object.keys(seen[0]?.headers ?? {}).filter((h) => h.startsWith('x-qs-'))).toEqual([]);
  });

  it('returns status, end-to-end headers and body; drops hop-by-hop headers and cookies', async () => {
    const res = await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/b?x', MARKER);
    expect(res.status).toBe(207);
    expect(res.headers.etag).toBe('"abc"');
    expect(res.headers['x-qs-request-id']).toBe('req-1');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-private-hop']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true });
  });

  it('every proxied answer is inert on the console origin: sandboxing CSP, nosniff, same-origin resource policy', async () => {
    const res = await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/b?x', MARKER);
    expect(res.status).toBe(207);
    // The upstream's own CSP is replaced, not kept beside ours.
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const refused = await rawRequest(serve.port, 'GET', '/_qs/example.com/x', MARKER);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
  });

  it('forwards only the console\'s API calls: no marker, a navigation, an embed or another site gets 403 and nothing reaches upstream', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { [PROXY_MARKER_HEADER]: 'yes' },
      { ...MARKER, 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'embed', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'object', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'script', 'sec-fetch-site': 'same-origin' },
      { ...MARKER, 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'cross-site' },
      { ...MARKER, 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'none' },
    ];
    seen.length = 0;
    for (const headers of cases) {
      for (const method of ['GET', 'HEAD', 'POST']) {
        const res = await rawRequest(serve.port, method, '/_qs/127.0.0.1/public/evil.html', headers);
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
        const body = method === 'HEAD' ? { code: 'proxy_not_an_api_call' } : (JSON.parse(res.body.toString()) as unknown);
        expect(body).toMatchObject({ code: 'proxy_not_an_api_call' });
      }
    }
    expect(seen).toEqual([]);
    // What the console's fetch/XHR sends passes, and the marker itself is not forwarded.
    const ok = await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/public/data.json', { ...MARKER, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(207);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers[PROXY_MARKER_HEADER]).toBeUndefined();
  });

  it('streams a chunked 8 MiB request body upstream and a 6 MiB response back', async () => {
    seen.length = 0;
    const chunk = Buffer.alloc(256 * 1024, 3);
    const expected = createHash('sha256');
    for (let i = 0; i < 32; i++) expected.update(chunk);
    const res = await rawRequest(serve.port, 'PUT', '/_qs/127.0.0.1/bucket/big-upload', { ...MARKER, 'content-type': 'application/octet-stream' }, async function* () {
      for (let i = 0; i < 32; i++) yield chunk;
    });
    expect(res.status).toBe(207);
    expect(seen[0]?.bodyLength).toBe(8 * 1024 * 1024);
    expect(seen[0]?.bodySha256).toBe(expected.digest('hex'));
    expect(seen[0]?.headers['content-type']).toBe('application/octet-stream');

    const big = await rawRequest(serve.port, 'GET', '/_qs/127.0.0.1/big', MARKER);
    expect(big.status).toBe(200);
    expect(big.body.length).toBe(6 * 1024 * 1024);
    expect(big.headers['content-length']).toBe(String(6 * 1024 * 1024));
  });

  it('refuses targets outside the endpoint host (never an open proxy)', async () => {
    for (const target of ['/_qs/example.com/x', '/_qs/evil.127.0.0.1/x', `/_qs/127.0.0.1:${upstreamPort + 1}/x`, '/_qs//x']) {
      const res = await rawRequest(serve.port, 'GET', target, MARKER);
      expect([400, 403]).toContain(res.status);
      const body: unknown = JSON.parse(res.body.toString());
      expect(body).toMatchObject({ code: expect.stringMatching(/^proxy_/) });
    }
    const withPort = await rawRequest(serve.port, 'GET', `/_qs/127.0.0.1:${upstreamPort}/ok`, MARKER);
    expect(withPort.status).toBe(207);
  });

  it('serves the console: index with no-cache, hashed assets immutable, SPA fallback, no traversal', async () => {
    const index = await rawRequest(serve.port, 'GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body.toString()).toContain('<title>console</title>');

    const asset = await rawRequest(serve.port, 'GET', '/assets/index-Ub0Zl5ro.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const worker = await rawRequest(serve.port, 'GET', '/mockServiceWorker.js');
    expect(worker.headers['cache-control']).toBe('no-cache');

    const deep = await rawRequest(serve.port, 'GET', '/zones/pek3a/buckets/photos?prefix=a%2F', { accept: 'text/html' });
    expect(deep.status).toBe(200);
    expect(deep.body.toString()).toContain('<title>console</title>');

    const missing = await rawRequest(serve.port, 'GET', '/assets/gone-AAAAAAAA.js');
    expect(missing.status).toBe(404);

    for (const target of ['/../serve-secret.txt', '/%2e%2e/serve-secret.txt', '/..%2fserve-secret.txt']) {
      const res = await rawRequest(serve.port, 'GET', target);
      expect(res.body.toString()).not.toContain('secret');
    }

    const etag = index.headers.etag ?? '';
    const revalidated = await rawRequest(serve.port, 'GET', '/', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);

    const post = await rawRequest(serve.port, 'POST', '/index.html');
    expect(post.status).toBe(405);
  });

  it('sends the brotli or gzip copy made at build time to browsers that accept it, identity otherwise', async () => {
    const br = await rawRequest(serve.port, 'GET', '/assets/big-AbCdEf12.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(BIG_JS.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);

    const gz = await rawRequest(serve.port, 'GET', '/assets/big-AbCdEf12.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);

    const plain = await rawRequest(serve.port, 'GET', '/assets/big-AbCdEf12.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG_JS);

    // The build manifest (a dotfile directory) is not published.
    const manifest = await rawRequest(serve.port, 'GET', '/.vite/manifest.json');
    expect(manifest.status).toBe(404);
    expect(manifest.body.toString()).not.toContain('secret');
  });

  it('the console\'s pages and assets carry the strict headers: CSP, no framing, nosniff, no referrer', async () => {
    const endpoint = `http://127.0.0.1:${upstreamPort}`;
    for (const target of ['/', '/buckets/pek3a/photos', '/assets/index-Ub0Zl5ro.js', '/mockServiceWorker.js']) {
      const res = await rawRequest(serve.port, 'GET', target, { accept: 'text/html' });
      expect(res.status).toBe(200);
      const csp = res.headers['content-security-policy'] ?? '';
      expect(csp).toBe(consoleCsp(new URL(endpoint)));
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain(`connect-src 'self' ${endpoint} https://qingstor.invalid https://*.qingstor.invalid;`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const revalidated = await rawRequest(serve.port, 'GET', '/', { 'if-none-match': (await rawRequest(serve.port, 'GET', '/')).headers.etag ?? '' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('no-cache');
    expect(revalidated.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('publishes the proxy base for the console', async () => {
    const res = await rawRequest(serve.port, 'GET', '/_serve/config.json');
    expect(JSON.parse(res.body.toString())).toEqual({ proxyBase: '/_qs', endpoint: `http://127.0.0.1:${upstreamPort}` });
  });

  it('answers 502 with a QingStor-shaped error when the endpoint is down', async () => {
    const down = await startServe({ endpoint: 'http://127.0.0.1:9', port: 0, dist });
    try {
      const res = await rawRequest(down.port, 'GET', '/_qs/127.0.0.1/', MARKER);
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'proxy_upstream_error' });
    } finally {
      await down.close();
    }
  });
});

describe('consoleCsp', () => {
  it('README.md gives exactly the headers serve sends (for https://qingstor.com)', async () => {
    const readme = await readFile(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const block = /### Response headers for the console's pages[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const documented = Object.fromEntries(
      block.trim().split('\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    expect(documented).toEqual(consoleSecurityHeaders(new URL('https://qingstor.com')));
  });

  it('lets the page reach the endpoint with its zone and bucket subdomains, and only that', () => {
    expect(consoleCsp(new URL('https://qingstor.com'))).toContain("connect-src 'self' https://qingstor.com https://*.qingstor.com https://qingstor.invalid");
    expect(consoleCsp(new URL('http://qingstor.local:9000'))).toContain("connect-src 'self' http://qingstor.local:9000 http://*.qingstor.local:9000 ");
    // An IP endpoint has no subdomains.
    expect(consoleCsp(new URL('http://127.0.0.1:9000'))).toContain("connect-src 'self' http://127.0.0.1:9000 https://qingstor.invalid");
  });
});

describe('consoleCsp for object previews', () => {
  it('lets images and media load from the console and the endpoint only: no blob:, data: or other host, no frames, no plugins', () => {
    const csp = consoleCsp(new URL('https://qingstor.com'));
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
    for (const name of ['img-src', 'media-src']) {
      expect(directive(name)).toBe(`${name} 'self' https://qingstor.com https://*.qingstor.com`);
    }
    expect(csp).not.toMatch(/blob:|data:|\*(?!\.)|'unsafe-/);
    // Frames and plugins fall to default-src 'none': nothing of a bucket is ever framed (a PDF opens in a tab).
    expect(directive('object-src')).toBeUndefined();
    expect(directive('frame-src')).toBeUndefined();
    expect(directive('default-src')).toBe("default-src 'none'");
    // Without an endpoint (demo only) previews come from the console's own origin alone.
    expect(consoleCsp(undefined)).toContain("img-src 'self';");
  });
});

describe('parseProxyTarget', () => {
  const endpoint = new URL('https://qingstor.com');
  it('accepts the endpoint host, zone hosts and virtual hosts', () => {
    expect(parseProxyTarget('/_qs/qingstor.com/', endpoint)).toEqual({ ok: true, target: { hostname: 'qingstor.com', hostHeader: 'qingstor.com', pathAndQuery: '/' } });
    expect(parseProxyTarget('/_qs/pek3a.qingstor.com/b/k%2F?acl', endpoint)).toMatchObject({ ok: true, target: { hostname: 'pek3a.qingstor.com', pathAndQuery: '/b/k%2F?acl' } });
    expect(parseProxyTarget('/_qs/b.pek3a.qingstor.com?cors', endpoint)).toMatchObject({ ok: true, target: { pathAndQuery: '/?cors' } });
    expect(parseProxyTarget('/_qs/Pek3a.QingStor.com:443/', endpoint)).toMatchObject({ ok: true, target: { hostname: 'pek3a.qingstor.com', hostHeader: 'pek3a.qingstor.com' } });
  });
  it('refuses other hosts, look-alikes and other ports', () => {
    expect(parseProxyTarget('/_qs/evilqingstor.com/', endpoint)).toMatchObject({ ok: false, status: 403 });
    expect(parseProxyTarget('/_qs/qingstor.com.evil.net/', endpoint)).toMatchObject({ ok: false, status: 403 });
    expect(parseProxyTarget('/_qs/qingstor.com:8443/', endpoint)).toMatchObject({ ok: false, status: 403 });
    expect(parseProxyTarget('/_qs/user@qingstor.com/', endpoint)).toMatchObject({ ok: false, status: 400 });
  });
  it('keeps a non-default endpoint port in the Host header', () => {
    expect(parseProxyTarget('/_qs/pek3a.qingstor.local/x', new URL('http://qingstor.local:9000'))).toMatchObject({
      ok: true,
      target: { hostHeader: 'pek3a.qingstor.local:9000' },
    });
  });
});

describe('serve: end to end against the standalone emulator', () => {
  const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
  let emulator: RunningEmulatorServer;
  let viaIp: RunningServe;
  let viaDomain: RunningServe;
  let dist = '';

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'serve-e2e-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    emulator = await startEmulatorServer({ port: 0, seed: 'empty', domains: ['qingstor.local'] });
    // Path style against the emulator's IP endpoint, and zone/virtual hosts under its domain (reached via --connect-to).
    viaIp = await startServe({ endpoint: emulator.url, port: 0, dist });
    viaDomain = await startServe({ endpoint: `http://qingstor.local:${emulator.port}`, port: 0, dist, connectTo: { host: '127.0.0.1', port: emulator.port } });
  });

  afterAll(async () => {
    await viaIp.close();
    await viaDomain.close();
    await emulator.close();
    await rm(dist, { recursive: true, force: true });
  });

  /**
   * What the console does behind the proxy: sign the DIRECT url (the path the endpoint will see), then send
   * it to `<proxy>/_qs/<direct host><direct path>`.
   */
  async function viaProxy(serve: RunningServe, method: string, direct: string, opts: { body?: Uint8Array; headers?: Record<string, string>; bucketInHost?: string; sign?: boolean } = {}): Promise<ClientResponse> {
    const url = new URL(direct);
    const pathAndQuery = direct.slice(direct.indexOf('/', url.protocol.length + 2));
    const headers = opts.sign === false
      ? { ...opts.headers }
      : await signedHeaders({ method, host: url.host, pathAndQuery, credentials: demo, ...(opts.headers ? { headers: opts.headers } : {}), ...(opts.bucketInHost ? { bucketInHost: opts.bucketInHost } : {}) });
    return rawHttp({ port: serve.port, method, target: `/_qs/${url.host}${pathAndQuery}`, host: `127.0.0.1:${serve.port}`, headers: { ...headers, ...MARKER, origin: `http://127.0.0.1:${serve.port}` }, ...(opts.body ? { body: opts.body } : {}) });
  }

  it('a signed ListBuckets / PutBucket / PutObject / GetObject through the proxy verifies at the emulator', async () => {
    const base = emulator.url;
    expect((await viaProxy(viaIp, 'PUT', `${base}/proxy-bucket`)).status).toBe(201);
    const body = new TextEncoder().encode('through the proxy');
    const put = await viaProxy(viaIp, 'PUT', `${base}/proxy-bucket/a%2Fb%20c%E4%B8%AD%27%2A`, { body, headers: { 'content-type': 'text/plain', 'x-qs-meta-origin': 'proxy' } });
    expect(put.status).toBe(201);
    const list = await viaProxy(viaIp, 'GET', `${base}/`);
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body.toString())).toMatchObject({ buckets: [expect.objectContaining({ name: 'proxy-bucket' })] });
    const get = await viaProxy(viaIp, 'GET', `${base}/proxy-bucket/a%2Fb%20c%E4%B8%AD%27%2A`);
    expect(get.status).toBe(200);
    expect(get.body.toString()).toBe('through the proxy');
    expect(get.headers['x-qs-meta-origin']).toBe('proxy');
    expect(get.headers['x-qs-request-id']).toMatch(/\S/);
  });

  it('zone hosts and virtual hosts under the endpoint domain keep their signatures', async () => {
    const zone = `http://pek3a.qingstor.local:${emulator.port}`;
    expect((await viaProxy(viaDomain, 'PUT', `${zone}/proxy-vhost`)).status).toBe(201);
    const vhost = `http://proxy-vhost.pek3a.qingstor.local:${emulator.port}`;
    const put = await viaProxy(viaDomain, 'PUT', `${vhost}/k%2B1`, { body: new TextEncoder().encode('vh'), bucketInHost: 'proxy-vhost' });
    expect(put.status).toBe(201);
    const listed = await viaProxy(viaDomain, 'GET', `${vhost}/?prefix=k`, { bucketInHost: 'proxy-vhost' });
    expect(JSON.parse(listed.body.toString())).toMatchObject({ keys: [{ key: 'k+1' }] });
    // The global (service) host lists every zone's buckets.
    const all = await viaProxy(viaDomain, 'GET', `http://qingstor.local:${emulator.port}/`);
    expect(all.status).toBe(200);
  });

  it('adds no credentials: an unsigned request stays anonymous', async () => {
    const res = await viaProxy(viaIp, 'GET', `${emulator.url}/`, { sign: false });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'permission_denied' });
  });

  it('streams a 10 MiB upload and download through the proxy', async () => {
    const direct = `${emulator.url}/proxy-bucket/big.bin`;
    const chunk = Buffer.alloc(1024 * 1024, 9);
    const headers = await signedHeaders({ method: 'PUT', host: new URL(direct).host, pathAndQuery: '/proxy-bucket/big.bin', credentials: demo });
    const put = await rawHttp({
      port: viaIp.port,
      method: 'PUT',
      target: `/_qs/${new URL(direct).host}/proxy-bucket/big.bin`,
      host: `127.0.0.1:${viaIp.port}`,
      headers: { ...headers, ...MARKER },
      body: async function* () {
        for (let i = 0; i < 10; i++) yield chunk;
      },
    });
    expect(put.status).toBe(201);
    const expected = createHash('md5');
    for (let i = 0; i < 10; i++) expected.update(chunk);
    expect(put.headers.etag).toBe(`"${expected.digest('hex')}"`);
    const get = await viaProxy(viaIp, 'GET', direct);
    expect(get.body.byteLength).toBe(10 * 1024 * 1024);
  });
});

describe('the npm run serve command', () => {
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  let emulator: RunningEmulatorServer;
  let dist = '';

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'serve-cli-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>cli console</title>');
    emulator = await startEmulatorServer({ port: 0, seed: 'empty' });
  });

  afterAll(async () => {
    await emulator.close();
    await rm(dist, { recursive: true, force: true });
  });

  /** Runs src/serve/serve.ts as `npm run serve` does; `whenListening` runs once the banner is out, then SIGTERM. */
  function runServe(args: string[], whenListening?: (port: number) => Promise<void>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(path.join(repoRoot, 'node_modules', '.bin', 'node'), [path.join(repoRoot, 'src', 'serve', 'serve.ts'), ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve, reject) => {
      let started = false;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`serve did not finish within 15 s; stdout: ${stdout}; stderr: ${stderr}`));
      }, 15_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const m = /QingStor console: http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
        if (m && !started && stdout.includes('API proxy:')) {
          started = true;
          void (whenListening ?? (async () => undefined))(Number(m[1])).then(() => child.kill('SIGTERM'), (error: unknown) => {
            child.kill('SIGKILL');
            reject(error);
          });
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.on('error', reject);
    });
  }

  it('serves the console and proxies signed requests to --endpoint, then exits 0 on SIGTERM', async () => {
    const seen: Record<string, unknown> = {};
    const result = await runServe(['--endpoint', emulator.url, '--port', '0', '--dist', dist], async (port) => {
      const index = await rawHttp({ port, method: 'GET', target: '/buckets/pek3a/anything' });
      seen.index = [index.status, index.body.toString()];
      const config = await rawHttp({ port, method: 'GET', target: '/_serve/config.json' });
      seen.config = [config.status, JSON.parse(config.body.toString()) as unknown];
      const host = new URL(emulator.url).host;
      const headers = await signedHeaders({ method: 'GET', host, pathAndQuery: '/', credentials: { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY } });
      const list = await rawHttp({ port, method: 'GET', target: `/_qs/${host}/`, headers: { ...headers, ...MARKER } });
      seen.list = [list.status, (JSON.parse(list.body.toString()) as { buckets?: unknown[] }).buckets];
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`-> ${emulator.url.replace(/\/$/, '')} (no credentials added)`);
    // The page carries the proxy's config (serve-meta.ts): the console knows its mode without a request.
    const origin = emulator.url.replace(/\/$/, '');
    expect(seen.index).toEqual([200, `<!doctype html>\n    <meta name="qsc-serve" content="{&quot;proxyBase&quot;:&quot;/_qs&quot;,&quot;endpoint&quot;:&quot;${origin}&quot;}" /><title>cli console</title>`]);
    expect(seen.config).toEqual([200, { proxyBase: expect.stringMatching(/\/_qs\/?$/) as unknown, endpoint: emulator.url.replace(/\/$/, '') }]);
    expect(seen.list).toEqual([200, []]);
  });

  it('refuses to start without a build, and says how to make one', async () => {
    const result = await runServe(['--endpoint', emulator.url, '--port', '0', '--dist', path.join(dist, 'no-such-build')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('index.html not found: run npm run build first');
  });

  it.each([
    [[], '--endpoint'],
    [['--endpoint', 'ftp://example.com'], '--endpoint'],
    [['--endpoint', 'http://127.0.0.1:1', '--port', '70000'], '--port'],
    [['--endpoint', 'http://127.0.0.1:1', '--connect-to', 'nohostport'], 'connect-to must be host:port'],
    [['--endpoint', 'http://127.0.0.1:1', '--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with exit 2, the reason and the usage line', async (args, reason) => {
    const result = await runServe(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(reason);
    expect(result.stderr).toContain('usage: npm run serve -- --endpoint <url>');
    expect(result.stdout).toBe('');
  });
});
