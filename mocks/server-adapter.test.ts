/**
 * Hostile clients against the standalone server's node:http adapter: whatever arrives on the socket gets a
 * QingStor-shaped answer (ref §4, §11.1), never a 500, and a client hang-up is not logged as a failure.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawHttp, type RawResponse } from './server-client.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

interface RawAnswer {
  head: string;
  status: number;
  body: string;
}

/** Writes `text` to a fresh socket and collects whatever comes back until the server closes it. */
function rawSocket(port: number, text: string, keepOpenMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(text);
      if (keepOpenMs > 0) setTimeout(() => socket.destroy(), keepOpenMs);
    });
    const chunks: Buffer[] = [];
    const done = (): void => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      const head = split < 0 ? all : all.slice(0, split);
      resolve({ head, status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), body: split < 0 ? '' : all.slice(split + 4) });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', (e) => (chunks.length > 0 ? done() : reject(e)));
  });
}

function codeOf(res: RawResponse): unknown {
  const parsed: unknown = JSON.parse(res.body.toString('utf8'));
  return typeof parsed === 'object' && parsed !== null && 'code' in parsed ? parsed.code : undefined;
}

describe('standalone server adapter against hostile clients', () => {
  let server: RunningEmulatorServer;
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', domains: ['qingstor.local'] });
  });
  afterAll(async () => {
    await server.close();
    errors.mockRestore();
  });

  // (TRACK, the other forbidden method, never gets this far: node's HTTP parser refuses it with a bare 400.)
  it('answers TRACE, which a Fetch Request cannot carry, with 405 method_not_allowed', async () => {
    const res = await rawHttp({ port: server.port, method: 'TRACE', target: '/some-bucket/key' });
    expect(res.status).toBe(405);
    expect(res.headers['server']).toBe('QingStor');
    expect(res.headers['x-qs-request-id']).toMatch(/\S/);
    expect(codeOf(res)).toBe('method_not_allowed');
  });

  it('answers CONNECT with a 405 QingStor envelope instead of dropping the socket', async () => {
    const answer = await rawSocket(server.port, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    expect(answer.status).toBe(405);
    expect(answer.head.toLowerCase()).toContain('server: qingstor');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'method_not_allowed', request_id: expect.stringMatching(/\S/) });
  });

  it('answers a Host that is no valid host name with 400 invalid_request', async () => {
    for (const host of ['ex%ample', '[::1', 'a^b']) {
      const res = await rawHttp({ port: server.port, method: 'GET', target: '/', host });
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('invalid_request');
    }
  });

  it('answers other odd methods (PATCH, PROPFIND) through the handlers with 405', async () => {
    for (const method of ['PATCH', 'PROPFIND']) {
      const res = await rawHttp({ port: server.port, method, target: '/some-bucket/key' });
      expect(res.status).toBe(405);
      expect(codeOf(res)).toBe('method_not_allowed');
    }
  });

  it('does not report a client that hangs up mid-body as an emulator failure', async () => {
    errors.mockClear();
    await rawSocket(server.port, 'PUT /some-bucket/k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nab', 150);
    // The server notices the hang-up asynchronously; a follow-up request on a new socket orders us after it.
    await rawHttp({ port: server.port, method: 'GET', target: '/' });
    await new Promise((r) => setTimeout(r, 50));
    expect(errors).not.toHaveBeenCalled();
  });

  it('keeps serving after all of the above', async () => {
    const res = await rawHttp({ port: server.port, method: 'GET', target: '/?location' });
    expect(res.status).toBe(200);
  });
});
