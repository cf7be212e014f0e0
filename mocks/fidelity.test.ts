/**
 * Requests that clients nobody here wrote send (the official Python SDK, qsctl, hand-signed requests),
 * sent byte for byte to the standalone server and signed independently with node:crypto, so neither the
 * console's signer nor fetch's header handling decides what goes over the wire.
 */
import { createHash, createHmac } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const domain = 'qingstor.local';
const bucket = 'fidelity-bucket';

interface RawReply {
  status: number;
  head: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** Sends exactly these bytes on a fresh connection and reads one response (the server closes after it). */
function sendBytes(port: number, bytes: Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split < 0 ? all.length : split).toString('latin1');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), head, headers, body: split < 0 ? Buffer.alloc(0) : all.subarray(split + 4) });
    });
    socket.write(bytes);
  });
}

function hmac(secret: string, message: Buffer): string {
  return createHmac('sha256', secret).update(message).digest('base64');
}

function codeOf(body: Buffer): unknown {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  return typeof parsed === 'object' && parsed !== null && 'code' in parsed ? parsed.code : undefined;
}

describe('fidelity with clients the project did not write', () => {
  let server: RunningEmulatorServer;
  let port = 0;

  async function signed(method: string, target: string, opts: { host?: string; headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<RawResponse> {
    const host = opts.host ?? `127.0.0.1:${port}`;
    const headers = await signedHeaders({ method, host, pathAndQuery: target, credentials: demo, ...(opts.headers ? { headers: opts.headers } : {}) });
    return rawHttp({ port, method, target, host, headers, ...(opts.body ? { body: opts.body } : {}) });
  }

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', domains: [domain] });
    port = server.port;
    const created = await signed('PUT', `/${bucket}`);
    if (created.status !== 201) throw new Error(`PutBucket failed: ${created.status}`);
  });

  afterAll(async () => {
    await server.close();
  });

  /** A PUT whose x-qs-meta-v value is `valueBytes`, signed over the bytes that are sent. */
  function putWithMetaBytes(key: string, valueBytes: Buffer, signOver: Buffer = valueBytes): Promise<RawReply> {
    const date = new Date().toUTCString();
    const resource = `/${bucket}/${key}`;
    const message = Buffer.concat([Buffer.from(`PUT\n\n\n\nx-qs-date:${date}\nx-qs-meta-v:`, 'latin1'), signOver, Buffer.from(`\n${resource}`, 'latin1')]);
    const head = Buffer.concat([
      Buffer.from(`PUT ${resource} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-qs-date: ${date}\r\nx-qs-meta-v: `, 'latin1'),
      valueBytes,
      Buffer.from(`\r\nAuthorization: QS ${demo.accessKeyId}:${hmac(demo.secretAccessKey, message)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`, 'latin1'),
    ]);
    return sendBytes(port, head);
  }

  it('verifies the signature over the metadata bytes received, then refuses the non-ASCII value with the metadata error', async () => {
    for (const [key, value] of [
      ['latin1-byte', Buffer.from([0x61, 0xe9, 0x62])],
      ['utf8-unencoded', Buffer.from('aéb', 'utf8')],
    ] as const) {
      const reply = await putWithMetaBytes(key, value);
      expect(reply.status).toBe(400);
      expect(codeOf(reply.body)).toBe('invalid_argument');
      const head = await signed('HEAD', `/${bucket}/${key}`);
      expect(head.status).toBe(404);
    }
    // Control: a signature over other bytes than the ones sent is still refused as a signature error.
    const wrong = await putWithMetaBytes('control', Buffer.from([0x61, 0xe9, 0x62]), Buffer.from('aéb', 'utf8'));
    expect(wrong.status).toBe(401);
    expect(codeOf(wrong.body)).toBe('signature_not_matched');
  });

  it('DeleteMultipleObjects accepts "quiet": null as the Python SDK sends it', async () => {
    expect((await signed('PUT', `/${bucket}/to-delete`, { body: Buffer.from('x') })).status).toBe(201);
    const body = Buffer.from(JSON.stringify({ objects: [{ key: 'to-delete' }], quiet: null }));
    const md5 = createHash('md5').update(body).digest('base64');
    const res = await signed('POST', `/${bucket}?delete`, { headers: { 'content-md5': md5, 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toMatchObject({ deleted: [{ key: 'to-delete' }], errors: [] });
    expect((await signed('HEAD', `/${bucket}/to-delete`)).status).toBe(404);
  });

  it('HEAD on <bucket>.<domain> (no zone) answers 301 to <bucket>.<zone>.<domain>, anonymously', async () => {
    const res = await rawHttp({ port, method: 'HEAD', target: '/', host: `${bucket}.${domain}:${port}` });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`http://${bucket}.pek3a.${domain}:${port}/`);
    expect(res.headers['x-qs-request-id']).toMatch(/\S/);
    const noPort = await rawHttp({ port, method: 'HEAD', target: '/', host: `${bucket}.${domain}` });
    expect(noPort.headers.location).toBe(`http://${bucket}.pek3a.${domain}/`);
    // A label that is neither a zone nor a bucket is not redirected anywhere.
    const unknown = await rawHttp({ port, method: 'HEAD', target: '/', host: `no-such-bucket.${domain}:${port}` });
    expect(unknown.status).not.toBe(301);
    expect(unknown.status).toBeLessThan(500);
  });

  it('accepts a query-signed GET whose response-content-disposition was signed percent-encoded (Python SDK) or decoded (Go, JS)', async () => {
    expect((await signed('PUT', `/${bucket}/report.pdf`, { body: Buffer.from('pdf') })).status).toBe(201);
    const expires = Math.floor(Date.now() / 1000) + 600;
    const encoded = 'attachment%3B%20filename%3D%22report.pdf%22';
    const decoded = 'attachment; filename="report.pdf"';
    const get = (signedValue: string) => {
      const signature = hmac(demo.secretAccessKey, Buffer.from(`GET\n\n\n${expires}\n/${bucket}/report.pdf?response-content-disposition=${signedValue}`, 'utf8'));
      const target = `/${bucket}/report.pdf?response-content-disposition=${encoded}&access_key_id=${demo.accessKeyId}&expires=${expires}&signature=${encodeURIComponent(signature)}`;
      return rawHttp({ port, method: 'GET', target });
    };
    for (const value of [encoded, decoded]) {
      const res = await get(value);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toBe(decoded);
      expect(res.body.toString()).toBe('pdf');
    }
    const wrong = await get('attachment');
    expect(wrong.status).toBe(401);
  });

  it('stores and returns x-qs-meta-__proto__ like any other key', async () => {
    const put = await signed('PUT', `/${bucket}/proto`, { headers: { 'x-qs-meta-__proto__': 'kept', 'x-qs-meta-plain': 'also' }, body: Buffer.from('p') });
    expect(put.status).toBe(201);
    const head = await signed('HEAD', `/${bucket}/proto`);
    expect(head.headers['x-qs-meta-__proto__']).toBe('kept');
    expect(head.headers['x-qs-meta-plain']).toBe('also');
    const copy = await signed('PUT', `/${bucket}/proto-copy`, { headers: { 'x-qs-copy-source': `/${bucket}/proto` } });
    expect(copy.status).toBe(201);
    expect((await signed('HEAD', `/${bucket}/proto-copy`)).headers['x-qs-meta-__proto__']).toBe('kept');
    expect(Object.getPrototypeOf(server.store.getObject(bucket, 'proto').metadata.custom)).toBe(Object.prototype);
  });

  it('answers Host: evil@127.0.0.1 with a QingStor error, not a 500', async () => {
    const reply = await sendBytes(port, Buffer.from(`GET / HTTP/1.1\r\nHost: evil@127.0.0.1\r\nConnection: close\r\n\r\n`, 'latin1'));
    expect(reply.status).toBe(400);
    expect(codeOf(reply.body)).toBe('invalid_request');
    expect(reply.headers.get('x-qs-request-id')).toMatch(/\S/);
  });
});
