/**
 * The standalone server's limits over real sockets (mocks/server-guard.ts): many clients from one address
 * get answers or proper throttling errors, never a connection closed without an answer; a body that drips
 * is cut with 408 once its deadline passes, while a slow body that keeps coming is not.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { signedHeaders } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type EmulatorServerOptions, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const bucket = 'limits-bucket';
let server: RunningEmulatorServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(limits: EmulatorServerOptions['limits']): Promise<RunningEmulatorServer> {
  server = await startEmulatorServer({ port: 0, seed: 'empty', ...(limits ? { limits } : {}) });
  const headers = await signedHeaders({ method: 'PUT', host: `127.0.0.1:${server.port}`, pathAndQuery: `/${bucket}`, credentials: demo });
  const created = await send(server.port, new http.Agent(), 'PUT', `/${bucket}`, headers);
  if (created.kind !== 'answer' || created.status !== 201) throw new Error('setup: PutBucket failed');
  return server;
}

type Outcome = { kind: 'answer'; method: string; status: number; code: string | undefined; message: string; retryAfter: string | undefined } | { kind: 'no answer'; error: string };

function send(port: number, agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: Uint8Array): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (error) => resolve({ kind: 'no answer', error: error.message }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let code: string | undefined;
        let message = '';
        if (text.startsWith('{')) ({ code, message = '' } = JSON.parse(text) as { code?: string; message?: string });
        const retry = res.headers['retry-after'];
        resolve({ kind: 'answer', method, status: res.statusCode ?? 0, code, message, retryAfter: typeof retry === 'string' ? retry : undefined });
      });
    });
    req.on('error', (error) => resolve({ kind: 'no answer', error: error.message }));
    req.end(body);
  });
}

/** 200 keep-alive clients, one connection each, from 127.0.0.1; every request's outcome. */
async function twoHundredClients(port: number, requestsEach: number): Promise<Outcome[]> {
  const host = `127.0.0.1:${port}`;
  const head = await signedHeaders({ method: 'HEAD', host, pathAndQuery: `/${bucket}`, credentials: demo });
  const puts = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signedHeaders({ method: 'PUT', host, pathAndQuery: `/${bucket}/k${i}`, credentials: demo, headers: { 'content-type': 'text/plain' } })),
  );
  const body = new TextEncoder().encode('x'.repeat(512));
  const outcomes: Outcome[] = [];
  // Every client holds its connection open from its first request on: all 200 are open at once.
  let arrived = 0;
  let allArrived: () => void = () => undefined;
  const barrier = new Promise<void>((resolve) => (allArrived = resolve));
  await Promise.all(
    Array.from({ length: 200 }, async (_, client) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < requestsEach; i += 1) {
          if (i === 1) {
            arrived += 1;
            if (arrived === 200) allArrived();
            await barrier;
          }
          const n = (client + i) % 10;
          outcomes.push(i % 2 === 0 ? await send(port, agent, 'HEAD', `/${bucket}`, head) : await send(port, agent, 'PUT', `/${bucket}/k${n}`, puts[n] ?? {}, body));
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return outcomes;
}

describe('many clients from one address', () => {
  it('with the default limits, 200 keep-alive clients are all served', async () => {
    const { port } = await start(undefined);
    const outcomes = await twoHundredClients(port, 10);
    expect(outcomes.filter((o) => o.kind === 'no answer')).toEqual([]);
    expect(outcomes.filter((o) => o.kind === 'answer' && o.status >= 300)).toEqual([]);
    expect(outcomes).toHaveLength(2000);
  }, 120_000);

  it('past the connection cap and the request rate, every request is answered: 2xx, or 503 service_unavailable with Retry-After', async () => {
    const { port } = await start({ maxConnectionsPerClient: 50, maxRequestsPerSecondPerClient: 50, requestBurstPerClient: 150 });
    const outcomes = await twoHundredClients(port, 10);
    expect(outcomes.filter((o) => o.kind === 'no answer')).toEqual([]);
    const answers = outcomes.flatMap((o) => (o.kind === 'answer' ? [o] : []));
    const throttled = answers.filter((o) => o.status === 503);
    expect(answers.filter((o) => o.status !== 503 && o.status >= 300)).toEqual([]);
    // Both limits were reached, and every refusal says so the QingStor way, with when to come back.
    expect(throttled.length).toBeGreaterThan(100);
    expect(answers.length - throttled.length).toBeGreaterThan(100);
    for (const o of throttled) {
      // A HEAD answer carries the status only (ref §4).
      expect(o.code).toBe(o.method === 'HEAD' ? undefined : 'service_unavailable');
      expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    const messages = throttled.map((o) => o.message);
    expect(messages.some((m) => m.startsWith('Too many open connections from this address'))).toBe(true);
    expect(messages.some((m) => m.startsWith('Too many requests from this address'))).toBe(true);
  }, 120_000);
});

/** Writes a request head, then `body` in the given pieces with pauses; resolves with the raw answer. */
function drip(port: number, head: string, pieces: ReadonlyArray<Buffer | number>): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      const all = Buffer.concat(chunks).toString();
      const split = all.indexOf('\r\n\r\n');
      resolve({ status: Number(all.split(' ')[1] ?? 0), body: split < 0 ? '' : all.slice(split + 4), ms: Date.now() - started });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : reject(error)));
    socket.write(head);
    void (async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        if (typeof piece === 'number') await new Promise((wait) => setTimeout(wait, piece));
        else socket.write(piece);
      }
    })();
  });
}

describe('request bodies that do not arrive', () => {
  const limits = { bodyTimeoutMs: 800, bodyMinBytesPerSecond: 500, idleTimeoutMs: 60_000 };

  async function headOf(port: number, key: string, length: number): Promise<string> {
    const all = await signedHeaders({ method: 'PUT', host: `127.0.0.1:${port}`, pathAndQuery: `/${bucket}/${key}`, credentials: demo, headers: { 'content-length': String(length) } });
    return `PUT /${bucket}/${key} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(all).map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n`;
  }

  it('a body that drips a byte at a time is cut with 408 request_timeout once its deadline passes, and nothing is stored', async () => {
    const { port } = await start(limits);
    const pieces: Array<Buffer | number> = [];
    for (let i = 0; i < 200; i += 1) pieces.push(Buffer.from('x'), 100);
    const reply = await drip(port, await headOf(port, 'dripping', 200), pieces);
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'request_timeout' });
    expect(reply.body).toContain('arrived too slowly');
    // Cut after the first 0.8 s window that brought fewer than 400 bytes, far before the idle timeout.
    expect(reply.ms).toBeGreaterThanOrEqual(800);
    expect(reply.ms).toBeLessThan(10_000);
    const check = await signedHeaders({ method: 'HEAD', host: `127.0.0.1:${port}`, pathAndQuery: `/${bucket}/dripping`, credentials: demo });
    expect(await send(port, new http.Agent(), 'HEAD', `/${bucket}/dripping`, check)).toMatchObject({ status: 404 });
  }, 30_000);

  it('a large body that drips is cut the same way (streamed, not buffered)', async () => {
    const { port } = await start(limits);
    const pieces: Array<Buffer | number> = [Buffer.alloc(100 * 1024)];
    for (let i = 0; i < 100; i += 1) pieces.push(100, Buffer.from('x'));
    const reply = await drip(port, await headOf(port, 'big-drip', 1024 * 1024), pieces);
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'request_timeout' });
    // The 100 KiB that came first buy no time for the drip that follows.
    expect(reply.ms).toBeLessThan(10_000);
  }, 30_000);

  it('a slow body that keeps coming is not cut', async () => {
    const { port } = await start(limits);
    // 4 KiB over about 2 s: 2 KB/s, above 500 bytes a second in every 0.8 s window, and longer than one window.
    const pieces: Array<Buffer | number> = [];
    for (let i = 0; i < 8; i += 1) pieces.push(Buffer.alloc(512, 97), 250);
    const reply = await drip(port, (await headOf(port, 'slow-but-steady', 4096)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'), pieces);
    expect(reply.status).toBe(201);
    expect(reply.ms).toBeGreaterThan(1500);
  }, 30_000);
});
