/**
 * Malformed and hostile requests against the standalone server over real sockets: every answer is a
 * QingStor error (never a 500), the server never crashes, and no socket stays open past the timeouts.
 * The limits are shortened so that the timeouts are reached in a test.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_BODY } from './handlers/context.ts';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const bucket = 'malformed-bucket';
const LIMITS = { headersTimeoutMs: 600, idleTimeoutMs: 1200, maxConnectionsPerClient: 12, maxHeaderSize: 16 * 1024 };

interface Reply {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** The server closed the connection (always true here: every raw request says Connection: close). */
  closed: boolean;
  ms: number;
}

/** Every status the suite saw, checked at the end: none may be a 5xx other than the connection cap's 503. */
const seen: number[] = [];

function parseReply(all: Buffer, started: number): Reply {
  const split = all.indexOf('\r\n\r\n');
  const head = all.subarray(0, split < 0 ? all.length : split).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const status = Number(statusLine.split(' ')[1] ?? 0);
  seen.push(status);
  return { status, headers, body: split < 0 ? '' : all.subarray(split + 4).toString('utf8'), closed: true, ms: Date.now() - started };
}

/**
 * Writes `parts` in order (a number = pause that many ms; 'end' = half-close; 'destroy' = reset) and
 * resolves with what came back when the server closes the connection.
 */
function exchange(port: number, parts: ReadonlyArray<Buffer | string | number | 'end' | 'destroy'>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer arrived is a close like any other.
      if (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve(parseReply(Buffer.concat(chunks), started));
      else reject(error);
    });
    socket.on('close', () => resolve(parseReply(Buffer.concat(chunks), started)));
    void (async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        if (typeof part === 'number') await new Promise((done) => setTimeout(done, part));
        else if (part === 'end') socket.end();
        else if (part === 'destroy') socket.destroy();
        else socket.write(part);
      }
    })();
  });
}

function codeOf(reply: Reply | RawResponse): unknown {
  const text = 'closed' in reply ? reply.body : reply.body.toString('utf8');
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null && 'code' in parsed ? parsed.code : undefined;
}

describe('malformed requests to the standalone server', () => {
  let server: RunningEmulatorServer;
  let port = 0;

  async function signed(method: string, target: string, opts: { headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<RawResponse> {
    const host = `127.0.0.1:${port}`;
    const headers = await signedHeaders({ method, host, pathAndQuery: target, credentials: demo, ...(opts.headers ? { headers: opts.headers } : {}) });
    const res = await rawHttp({ port, method, target, host, headers, ...(opts.body ? { body: opts.body } : {}) });
    seen.push(res.status);
    return res;
  }

  /** The signed head of a request whose body the test writes itself. */
  async function signedHead(method: string, target: string, headers: Record<string, string>): Promise<string> {
    const all = await signedHeaders({ method, host: `127.0.0.1:${port}`, pathAndQuery: target, credentials: demo, headers });
    const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
    return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${lines.join('\r\n')}\r\n\r\n`;
  }

  async function stillServes(): Promise<void> {
    const res = await signed('HEAD', `/${bucket}`);
    if (res.status !== 200) throw new Error(`the server stopped answering: HEAD bucket gave ${res.status}`);
  }

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', limits: LIMITS });
    port = server.port;
    for (const [target, body] of [[`/${bucket}`, undefined], [`/${bucket}/object`, Buffer.from('0123456789')]] as const) {
      const res = await signed('PUT', target, body ? { body } : {});
      if (res.status !== 201) throw new Error(`setup: PUT ${target} gave ${res.status}`);
    }
  });

  afterAll(async () => {
    await server.close();
  });

  it('bad or missing credentials get 401/403 QingStor errors', async () => {
    const date = new Date().toUTCString();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ authorization: 'QS' }, `/${bucket}/object`, 'signature_not_matched'],
      [{ authorization: 'Bearer abc' }, `/${bucket}/object`, 'signature_not_matched'],
      [{ authorization: `QS ${demo.accessKeyId}:bad`, 'x-qs-date': date }, `/${bucket}/object`, 'signature_not_matched'],
      [{ authorization: `QS ${demo.accessKeyId}:bad` }, `/${bucket}/object`, 'request_expired'],
      [{ authorization: `QS ${demo.accessKeyId}:bad`, date: 'yesterday' }, `/${bucket}/object`, 'request_expired'],
      [{ authorization: 'QS NOBODY:abc', 'x-qs-date': date }, `/${bucket}/object`, 'invalid_access_key_id'],
      [{}, `/${bucket}/object?access_key_id=${demo.accessKeyId}`, 'signature_not_matched'],
      [{}, `/${bucket}/object?access_key_id=${demo.accessKeyId}&expires=soon&signature=x`, 'signature_not_matched'],
      [{}, `/${bucket}/object?access_key_id=${demo.accessKeyId}&expires=1&signature=x`, 'request_expired'],
      [{}, `/${bucket}/object`, 'permission_denied'],
    ];
    for (const [headers, target, code] of cases) {
      const res = await rawHttp({ port, method: 'GET', target, headers });
      seen.push(res.status);
      expect([401, 403]).toContain(res.status);
      expect(codeOf(res)).toBe(code);
    }
  });

  it('garbage JSON on every JSON sub-resource gets invalid_json; too large a JSON body gets entity_too_large before it is read', async () => {
    const init = await signed('POST', `/${bucket}/mp?uploads`);
    const uploadId = String((JSON.parse(init.body.toString()) as { upload_id: unknown }).upload_id);
    const garbage = Buffer.from('{"not json');
    const md5 = createHash('md5').update(garbage).digest('base64');
    const targets: Array<[string, string, Record<string, string>]> = [
      ['PUT', `/${bucket}?acl`, {}],
      ['PUT', `/${bucket}?cors`, {}],
      ['PUT', `/${bucket}?policy`, {}],
      ['POST', `/${bucket}?delete`, { 'content-md5': md5 }],
      ['POST', `/${bucket}/mp?upload_id=${uploadId}`, {}],
    ];
    for (const [method, target, headers] of targets) {
      const res = await signed(method, target, { headers, body: garbage });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('invalid_json');
    }
    // 540 MB announced on ?cors: answered at once from the headers, the connection closed, nothing read.
    for (const [method, target] of targets) {
      const head = await signedHead(method, target, { 'content-length': String(540 * 1024 * 1024) });
      const reply = await exchange(port, [head, Buffer.alloc(1024, 0x7b)]);
      expect(reply.status).toBe(400);
      expect(codeOf(reply)).toBe('entity_too_large');
    }
    // Chunked, so the size is only known while reading: refused once past the cap.
    const head = await signedHead('PUT', `/${bucket}?cors`, { 'transfer-encoding': 'chunked' });
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const chunks: Buffer[] = [];
    for (let sent = 0; sent <= MAX_JSON_BODY; sent += chunk.byteLength) chunks.push(Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    const reply = await exchange(port, [head, ...chunks, '0\r\n\r\n']);
    expect(reply.status).toBe(400);
    expect(codeOf(reply)).toBe('entity_too_large');
    await stillServes();
  });

  it('invalid UTF-8 in the path and in header values', async () => {
    const encoded = await signed('GET', `/${bucket}/%FF%FE`);
    expect(encoded.status).toBe(400);
    expect(codeOf(encoded)).toBe('invalid_object_name');
    const rawPath = await exchange(port, [Buffer.concat([Buffer.from(`GET /${bucket}/`), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)])]);
    expect(rawPath.status).toBeGreaterThanOrEqual(400);
    expect(rawPath.status).toBeLessThan(500);
    const rawHeader = await exchange(port, [
      Buffer.concat([Buffer.from(`GET /${bucket}/object HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx-qs-meta-a: `), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('\r\nRange: bytes=\xff-\r\n\r\n', 'latin1')]),
    ]);
    expect(rawHeader.status).toBe(403);
    expect(codeOf(rawHeader)).toBe('permission_denied');
    await stillServes();
  });

  it('huge headers and 10,000 query parameters get a QingStor error', async () => {
    const huge = await exchange(port, [`GET /${bucket} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx-big: ${'a'.repeat(64 * 1024)}\r\n\r\n`]);
    expect(huge.status).toBe(400);
    expect(codeOf(huge)).toBe('invalid_request');
    const params = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&');
    const many = await exchange(port, [`GET /${bucket}?${params} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]);
    expect(many.status).toBe(400);
    expect(codeOf(many)).toBe('invalid_request');
    // Under the header limit, 1,000 of them are parsed and answered like any listing.
    const some = Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&');
    expect((await signed('GET', `/${bucket}?${some}`)).status).toBe(200);
    await stillServes();
  });

  it('bad part numbers and bad ranges', async () => {
    const init = await signed('POST', `/${bucket}/parts?uploads`);
    const uploadId = String((JSON.parse(init.body.toString()) as { upload_id: unknown }).upload_id);
    for (const part of ['-1', '10001', 'abc', '1e3', '1.5', '99999999999999999999', '']) {
      const res = await signed('PUT', `/${bucket}/parts?part_number=${part}&upload_id=${uploadId}`, { body: Buffer.from('x') });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('invalid_argument');
    }
    const answers: string[] = [];
    for (const range of ['bytes=abc', 'bytes=5-1', 'bytes=100-', 'bytes=-0', 'bytes=0-1,3-4', 'items=0-1', 'bytes=99999999999999999999-']) {
      const res = await signed('GET', `/${bucket}/object`, { headers: { range } });
      answers.push(`${range} ${res.status} ${res.status === 416 ? String(codeOf(res)) : res.body.toString()}`);
    }
    expect(answers).toEqual([
      'bytes=abc 416 invalid_range',
      'bytes=5-1 416 invalid_range',
      'bytes=100- 416 invalid_range',
      'bytes=-0 416 invalid_range',
      'bytes=0-1,3-4 416 invalid_range',
      'items=0-1 416 invalid_range',
      'bytes=99999999999999999999- 416 invalid_range',
    ]);
  });

  it('a body shorter than its Content-Length, a disconnect mid-body and a body longer than announced', async () => {
    const short = await exchange(port, [await signedHead('PUT', `/${bucket}/short`, { 'content-length': '100' }), 'only ten b', 'end']);
    expect(short.status).toBe(400);
    expect(codeOf(short)).toBe('incomplete_body');
    const gone = await exchange(port, [await signedHead('PUT', `/${bucket}/gone`, { 'content-length': String(8 * 1024 * 1024) }), Buffer.alloc(1024 * 1024), 50, 'destroy']);
    expect(gone.status).toBe(0);
    // The extra bytes of a longer body are the next request, which is not HTTP.
    const long = await exchange(port, [await signedHead('PUT', `/${bucket}/long`, { 'content-length': '3' }), 'abcdefgh\r\n\r\n']);
    expect(long.status).toBe(201);
    for (const key of ['short', 'gone']) expect((await signed('HEAD', `/${bucket}/${key}`)).status).toBe(404);
    expect((await signed('GET', `/${bucket}/long`)).body.toString()).toBe('abc');
    await stillServes();
  });

  it('slow headers get 408 request_timeout and the socket is closed', async () => {
    const reply = await exchange(port, [`GET /${bucket} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'x-slow: 1\r\n']);
    expect(reply.status).toBe(408);
    expect(codeOf(reply)).toBe('request_timeout');
    expect(reply.ms).toBeLessThan(LIMITS.headersTimeoutMs + 2000);
  });

  it('a body that stops arriving gets 408 after the idle timeout', async () => {
    const head = await signedHead('PUT', `/${bucket}/stalled`, { 'content-length': String(1024 * 1024) });
    const reply = await exchange(port, [head, Buffer.alloc(128 * 1024)]);
    expect(reply.status).toBe(408);
    expect(codeOf(reply)).toBe('request_timeout');
    expect(reply.ms).toBeGreaterThanOrEqual(LIMITS.idleTimeoutMs - 100);
    expect((await signed('HEAD', `/${bucket}/stalled`)).status).toBe(404);
  });

  it('caps open connections per client address: a request on one more is answered 503 service_unavailable with Retry-After', async () => {
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < LIMITS.maxConnectionsPerClient; i += 1) {
        const socket = net.connect(port, '127.0.0.1');
        await new Promise((done) => socket.once('connect', done));
        sockets.push(socket);
      }
      const refused = await exchange(port, [`GET /${bucket} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]);
      expect(refused.status).toBe(503);
      expect(codeOf(refused)).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toBe('1');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // Once they are closed the address may connect again.
    await expect.poll(async () => (await signed('HEAD', `/${bucket}`)).status).toBe(200);
  });

  it('refuses an anonymous 1 GiB PostObject to a missing bucket before reading the file', async () => {
    const total = 1024 * 1024 * 1024;
    const boundary = 'XqsBoundary';
    const preamble = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nbig.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const result = await new Promise<{ status: number; code: unknown; sent: number }>((resolve, reject) => {
      let sent = 0;
      const state = { answered: false };
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/no-such-bucket-here',
        agent: false,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(preamble.byteLength + total) },
      });
      req.on('response', (res) => {
        state.answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, code: JSON.parse(Buffer.concat(chunks).toString()).code, sent }));
      });
      req.on('error', (error) => {
        if (!state.answered) reject(error);
      });
      req.write(preamble);
      const chunk = Buffer.alloc(1024 * 1024);
      const pump = (): void => {
        while (!state.answered && sent < total) {
          sent += chunk.byteLength;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    expect(result.status).toBe(404);
    expect(result.code).toBe('bucket_not_exists');
    // What the client could push before the answer: socket buffers, not the file.
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
    await stillServes();
  });

  // Runs last: every status any case above received.
  it('answered nothing with a 5xx other than the connection cap\'s 503', () => {
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.filter((status) => status >= 500 && status !== 503)).toEqual([]);
  });
});
