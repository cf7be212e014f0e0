/**
 * The standalone server's access log: one line per request, text or JSON; a refused signature logs the
 * string-to-sign the server computed; neither secrets nor pre-signed signatures are ever written.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, parseCli } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };

describe('access log', () => {
  let server: RunningEmulatorServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(log: 'text' | 'json' | 'none'): Promise<{ lines: string[]; port: number }> {
    const lines: string[] = [];
    server = await startEmulatorServer({ port: 0, seed: 'empty', log, logLine: (line) => lines.push(line) });
    return { lines, port: server.port };
  }

  it('writes one text line per request with method, path, status, bytes, time and request id', async () => {
    const { lines, port } = await start('text');
    const target = '/log-bucket';
    const put = await rawHttp({ port, method: 'PUT', target, headers: await signedHeaders({ method: 'PUT', host: `127.0.0.1:${port}`, pathAndQuery: target, credentials: demo }) });
    expect(put.status).toBe(201);
    const missing = await rawHttp({ port, method: 'GET', target: '/log-bucket/nothing' });
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z PUT /log-bucket 201 0B \\d+\\.\\dms id=${String(put.headers['x-qs-request-id'])}$`));
    expect(lines[1]).toMatch(new RegExp(`^\\S+ GET /log-bucket/nothing 403 ${String(missing.headers['content-length'])}B \\S+ms id=\\S+$`));
  });

  it('logs the string-to-sign the server computed for a refused signature, never the secret', async () => {
    const { lines, port } = await start('text');
    const date = new Date().toUTCString();
    const wrong = createHmac('sha256', 'not-the-secret').update('anything').digest('base64');
    const res = await rawHttp({ port, method: 'GET', target: '/some-bucket?acl', headers: { authorization: `QS ${demo.accessKeyId}:${wrong}`, 'x-qs-date': date, 'x-qs-meta-a': 'b' } });
    expect(res.status).toBe(401);
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toContain(`string-to-sign=${JSON.stringify(`GET\n\n\n\nx-qs-date:${date}\nx-qs-meta-a:b\n/some-bucket?acl`)}`);
    expect(lines.join('\n')).not.toContain(demo.secretAccessKey);
  });

  it('JSON lines, with a pre-signed URL\'s signature redacted', async () => {
    const { lines, port } = await start('json');
    const target = `/any-bucket/k?access_key_id=${demo.accessKeyId}&expires=${Math.floor(Date.now() / 1000) + 60}&signature=SECRETISH%2Bsig%3D`;
    const res = await rawHttp({ port, method: 'GET', target });
    expect(res.status).toBe(401);
    await expect.poll(() => lines.length).toBe(1);
    const entry: unknown = JSON.parse(lines[0] ?? '');
    expect(entry).toMatchObject({ method: 'GET', status: 401, request_id: res.headers['x-qs-request-id'], string_to_sign: expect.stringMatching(/^GET\n\n\n\d+\n\/any-bucket\/k$/) });
    expect(lines[0]).not.toContain('SECRETISH');
    expect(entry).toMatchObject({ path: expect.stringContaining('signature=***') });
  });

  it('logs answers written before a request could be parsed (malformed request, headers too large)', async () => {
    const { lines, port } = await start('text');
    const { connect } = await import('node:net');
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
      socket.resume();
      socket.on('close', () => resolve());
    });
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatch(/^\S+ - \(HPE_\w+\) 400 \d+B 0\.0ms id=srv\w+$/);
  });

  it('writes nothing with log none, and the command line maps --log and --quiet', async () => {
    const { lines, port } = await start('none');
    await rawHttp({ port, method: 'GET', target: '/' });
    expect(lines).toEqual([]);
    expect(parseCli([])).toMatchObject({ log: 'text', quiet: false });
    expect(parseCli(['--log', 'json'])).toMatchObject({ log: 'json' });
    expect(parseCli(['--quiet'])).toMatchObject({ quiet: true });
    expect(() => parseCli(['--log', 'xml'])).toThrow(/--log/);
  });
});
