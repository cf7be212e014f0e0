import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { parseCli, parseUsersFile, resolveUsers, DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

function json(res: RawResponse): unknown {
  return JSON.parse(res.body.toString('utf8'));
}

function md5Hex(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

describe('standalone emulator over real HTTP', () => {
  let server: RunningEmulatorServer;
  let port = 0;
  const bucket = 'srv-test-bucket';
  const domain = 'qingstor.local';
  /** The access log (JSON lines): tests wait on it for what the server has seen. */
  const logLines: string[] = [];

  /** Signed request; `host` is what the client addresses (Host header), `target` the request-target. */
  async function signed(method: string, target: string, opts: { host?: string; headers?: Record<string, string>; body?: Uint8Array; bucketInHost?: string; signPath?: string } = {}): Promise<RawResponse> {
    const host = opts.host ?? `127.0.0.1:${port}`;
    const headers = await signedHeaders({
      method,
      host,
      pathAndQuery: opts.signPath ?? target,
      credentials: demo,
      ...(opts.headers ? { headers: opts.headers } : {}),
      ...(opts.bucketInHost !== undefined ? { bucketInHost: opts.bucketInHost } : {}),
    });
    return rawHttp({ port, method, target, host, headers, ...(opts.body ? { body: opts.body } : {}) });
  }

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', domains: [domain], log: 'json', logLine: (line) => logLines.push(line) });
    port = server.port;
    const created = await signed('PUT', `/${bucket}`);
    if (created.status !== 201) throw new Error(`PutBucket failed: ${created.status} ${created.body.toString()}`);
  });

  afterAll(async () => {
    await server.close();
  });

  it('reports where it listens', () => {
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    expect(server.defaultZone).toBe('pek3a');
    expect(server.zones).toContain('pek3a');
  });

  it('path style on 127.0.0.1: put, get, head an object with a raw percent-encoded key (zone = default)', async () => {
    const body = new TextEncoder().encode('hello path style');
    const key = '/folder%2Fa%20b%E4%B8%AD%27%2a.txt';
    const put = await signed('PUT', `/${bucket}${key}`, { headers: { 'content-type': 'text/plain' }, body });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(`"${md5Hex(body)}"`);
    expect(put.headers.server).toBe('QingStor');
    expect(put.headers['x-qs-request-id']).toMatch(/\S/);

    const get = await signed('GET', `/${bucket}${key}`);
    expect(get.status).toBe(200);
    expect(get.body.toString()).toBe('hello path style');
    expect(get.headers['content-type']).toBe('text/plain');
    expect(get.headers['content-length']).toBe(String(body.byteLength));

    const head = await signed('HEAD', `/${bucket}/folder%2Fa%20b%E4%B8%AD%27%2A.txt`);
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(String(body.byteLength));

    const list = await signed('GET', `/${bucket}?prefix=folder%2F`);
    expect(list.status).toBe(200);
    expect(json(list)).toMatchObject({ keys: [{ key: "folder/a b中'*.txt" }] });
  });

  it('Host: <zone>.<domain> path style, with and without the port', async () => {
    const body = new TextEncoder().encode('zone host');
    const put = await signed('PUT', `/${bucket}/zone-host.txt`, { host: `pek3a.${domain}:${port}`, body });
    expect(put.status).toBe(201);
    const get = await signed('GET', `/${bucket}/zone-host.txt`, { host: `pek3a.${domain}` });
    expect(get.status).toBe(200);
    expect(get.body.toString()).toBe('zone host');
    // The zone comes from the host: the bucket lives in pek3a, so sh1a does not know it (ref §11.18).
    const wrongZone = await signed('GET', `/${bucket}/zone-host.txt`, { host: `sh1a.${domain}:${port}` });
    expect(wrongZone.status).toBe(404);
    expect(json(wrongZone)).toMatchObject({ code: 'bucket_not_exists' });
    // The bare domain is the global service host: ListBuckets works there.
    const buckets = await signed('GET', '/', { host: domain });
    expect(buckets.status).toBe(200);
    expect(json(buckets)).toMatchObject({ buckets: [expect.objectContaining({ name: bucket })] });
  });

  it('Host: <bucket>.<zone>.<domain> virtual-host style, signed with the bucket prefix (ref §2.3)', async () => {
    const vhost = `${bucket}.pek3a.${domain}`;
    const body = new TextEncoder().encode('virtual host');
    const put = await signed('PUT', '/vhost%20key.txt', { host: `${vhost}:${port}`, bucketInHost: bucket, body });
    expect(put.status).toBe(201);
    const get = await signed('GET', '/vhost%20key.txt', { host: vhost, bucketInHost: bucket });
    expect(get.status).toBe(200);
    expect(get.body.toString()).toBe('virtual host');
    const list = await signed('GET', '/?prefix=vhost', { host: vhost, bucketInHost: bucket });
    expect(list.status).toBe(200);
    expect(json(list)).toMatchObject({ keys: [{ key: 'vhost key.txt' }] });
    // Signed as path style although the bucket travels in the host ⇒ the resource differs ⇒ refused.
    const wrongSig = await signed('GET', '/vhost%20key.txt', { host: vhost });
    expect(wrongSig.status).toBe(401);
    expect(json(wrongSig)).toMatchObject({ code: 'signature_not_matched' });
  });

  it('absolute-form proxy requests: the authority names zone and bucket, the raw path is signed', async () => {
    const vhost = `${bucket}.pek3a.${domain}:${port}`;
    const body = new TextEncoder().encode('via proxy');
    const put = await signed('PUT', `http://${vhost}/proxied%2Fkey`, { host: vhost, signPath: '/proxied%2Fkey', bucketInHost: bucket, body });
    expect(put.status).toBe(201);
    // Same object, reached path style through an absolute-form request whose Host header disagrees (the URI wins).
    const get = await signed('GET', `http://pek3a.${domain}/${bucket}/proxied%2Fkey`, { host: `pek3a.${domain}`, signPath: `/${bucket}/proxied%2Fkey` });
    expect(get.status).toBe(200);
    expect(get.body.toString()).toBe('via proxy');
  });

  it('answers CORS preflights and adds CORS headers to actual responses', async () => {
    const cors = JSON.stringify({
      cors_rules: [
        {
          allowed_origin: 'http://console.example',
          allowed_methods: ['GET', 'PUT'],
          allowed_headers: ['*'],
          expose_headers: ['ETag', 'x-qs-request-id'],
          max_age_seconds: 300,
        },
      ],
    });
    const put = await signed('PUT', `/${bucket}?cors`, { headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(cors) });
    expect(put.status).toBe(200);

    const preflight = await rawHttp({
      port,
      method: 'OPTIONS',
      target: `/${bucket}/zone-host.txt`,
      headers: { origin: 'http://console.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,x-qs-date,content-type' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://console.example');
    expect(preflight.headers['access-control-allow-methods']).toMatch(/PUT/);
    expect(preflight.headers['access-control-allow-headers']?.toLowerCase()).toContain('x-qs-date');
    expect(preflight.headers['access-control-max-age']).toBe('300');

    const denied = await rawHttp({
      port,
      method: 'OPTIONS',
      target: `/${bucket}/zone-host.txt`,
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();

    const actual = await signed('GET', `/${bucket}/zone-host.txt`, { headers: { origin: 'http://console.example' } });
    expect(actual.status).toBe(200);
    expect(actual.headers['access-control-allow-origin']).toBe('http://console.example');
    expect(actual.headers['access-control-expose-headers']?.toLowerCase()).toContain('etag');
  });

  it('streams a 12 MiB chunked request body in and the object back out', async () => {
    const chunk = new Uint8Array(512 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
    const md5 = createHash('md5');
    for (let i = 0; i < 24; i++) md5.update(chunk);
    const expected = md5.digest('hex');
    const target = `/${bucket}/big.bin`;
    const headers = await signedHeaders({ method: 'PUT', host: `127.0.0.1:${port}`, pathAndQuery: target, credentials: demo, headers: { 'content-type': 'application/octet-stream' } });
    const put = await rawHttp({
      port,
      method: 'PUT',
      target,
      headers,
      body: async function* () {
        for (let i = 0; i < 24; i++) yield chunk;
      },
    });
    expect(put.status).toBe(201);
    expect(put.headers.etag).toBe(`"${expected}"`);
    const get = await signed('GET', target);
    expect(get.status).toBe(200);
    expect(get.body.byteLength).toBe(12 * 1024 * 1024);
    expect(md5Hex(get.body)).toBe(expected);
    const range = await signed('GET', target, { headers: { range: 'bytes=1048576-1048579' } });
    expect(range.status).toBe(206);
    // Offset 1 MiB is the start of the third 512 KiB chunk.
    expect([...range.body]).toEqual([...chunk.subarray(0, 4)]);
    expect(range.headers['content-range']).toBe(`bytes 1048576-1048579/${12 * 1024 * 1024}`);
  });

  it('survives a client that disconnects in the middle of a large upload', async () => {
    const target = `/${bucket}/abandoned.bin`;
    logLines.length = 0;
    const headers = await signedHeaders({ method: 'PUT', host: `127.0.0.1:${port}`, pathAndQuery: target, credentials: demo });
    await new Promise<void>((done) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: target, headers: { ...headers, 'content-length': String(8 * 1024 * 1024) } });
      req.on('error', () => done());
      req.write(Buffer.alloc(1024 * 1024), () => req.destroy());
    });
    // The server has seen the hang-up once its access log reports the cut request (node's client error).
    await vi.waitFor(() => expect(logLines.join('\n')).toContain('HPE_INVALID_EOF_STATE'), { timeout: 5000 });
    const head = await signed('HEAD', target);
    expect(head.status).toBe(404);
    const list = await signed('GET', `/${bucket}?prefix=abandoned`);
    expect(list.status).toBe(200);
  });

  it('refuses anonymous and unknown-key requests with QingStor errors, and odd request targets cleanly', async () => {
    const anonymous = await rawHttp({ port, method: 'GET', target: '/' });
    expect(anonymous.status).toBeGreaterThanOrEqual(400);
    expect(anonymous.headers['content-type']).toBe('application/json');
    const unknown = await rawHttp({ port, method: 'GET', target: '/', headers: { authorization: 'QS NOSUCHKEY:abc=', 'x-qs-date': new Date().toUTCString() } });
    expect(unknown.status).toBe(401);
    expect(json(unknown)).toMatchObject({ code: 'invalid_access_key_id' });
    const star = await rawHttp({ port, method: 'OPTIONS', target: '*' });
    expect(star.status).toBe(400);
    expect(json(star)).toMatchObject({ code: 'invalid_request', request_id: expect.stringMatching(/\S/) });
  });
});

describe('users', () => {
  it('parses and validates a users file', () => {
    const users = parseUsersFile(JSON.stringify([{ id: 'usr-alice', access_key_id: 'ALICEKEY', secret_access_key: 'alice-secret-0001' }]));
    expect(users).toEqual([{ id: 'usr-alice', name: 'usr-alice', accessKeyId: 'ALICEKEY', secretAccessKey: 'alice-secret-0001' }]);
    expect(() => parseUsersFile('not json')).toThrow(/not valid JSON/);
    expect(() => parseUsersFile('[]')).toThrow(/at least one user/);
    expect(() => parseUsersFile(JSON.stringify([{ id: 'alice', access_key_id: 'A', secret_access_key: 'longenough' }]))).toThrow(/usr-/);
    expect(() =>
      parseUsersFile(
        JSON.stringify([
          { id: 'usr-a', access_key_id: 'SAME', secret_access_key: 'secret-aaaa' },
          { id: 'usr-b', access_key_id: 'SAME', secret_access_key: 'secret-bbbb' },
        ]),
      ),
    ).toThrow(/duplicate access_key_id/);
    // Unknown fields are a typo, not something to ignore silently.
    expect(() => parseUsersFile(JSON.stringify([{ id: 'usr-a', access_key_id: 'A', secret_access_key: 'secret-aaaa', secret: 'x' }]))).toThrow(/invalid/);
    // A bad secret is reported without echoing it.
    let message = '';
    try {
      parseUsersFile(JSON.stringify([{ id: 'usr-a', access_key_id: 'A', secret_access_key: 'sh0rt' }]));
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/secret_access_key: at least 8 characters/);
    expect(message).not.toContain('sh0rt');
  });

  it('env QS_ACCESS_KEY_ID/QS_SECRET_ACCESS_KEY replace the default user key pair', async () => {
    const base = { id: 'usr-demo0001', name: 'demo', accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
    expect(await resolveUsers(undefined, {}, base)).toEqual({ users: [base], source: 'default' });
    expect(await resolveUsers(undefined, { QS_ACCESS_KEY_ID: 'ENVKEY', QS_SECRET_ACCESS_KEY: 'env-secret' }, base)).toEqual({
      users: [{ ...base, accessKeyId: 'ENVKEY', secretAccessKey: 'env-secret' }],
      source: 'env',
    });
    await expect(resolveUsers(undefined, { QS_ACCESS_KEY_ID: 'ENVKEY' }, base)).rejects.toThrow(/both/);
  });

  it('parses the command line with the documented defaults', () => {
    expect(parseCli([])).toEqual({ port: 9000, host: '127.0.0.1', domains: ['qingstor.local'], seed: 'demo', defaultZone: 'pek3a', usersFile: undefined, strictCors: false, viaMsw: false, dataDir: undefined, log: 'text', quiet: false });
    expect(parseCli(['--port', '0', '--seed', 'empty', '--domain', 'QingStor.Local', '--domain', 'example.test', '--users', 'u.json', '--data-dir', '/tmp/qs-data'])).toMatchObject({
      port: 0,
      seed: 'empty',
      domains: ['qingstor.local', 'example.test'],
      usersFile: 'u.json',
      dataDir: '/tmp/qs-data',
    });
    expect(() => parseCli(['--seed', 'full'])).toThrow(/seed/);
    expect(() => parseCli(['--port', '70000'])).toThrow(/port/);
    expect(() => parseCli(['--bogus'])).toThrow(/bogus/);
  });

  it('answers the same through msw getResponse (viaMsw) as through the direct path', async () => {
    const both = await Promise.all([startEmulatorServer({ port: 0, seed: 'empty', viaMsw: true }), startEmulatorServer({ port: 0, seed: 'empty' })]);
    try {
      const seen = [];
      for (const running of both) {
        const host = `127.0.0.1:${running.port}`;
        const send = async (method: string, target: string, body?: Uint8Array): Promise<RawResponse> =>
          rawHttp({ port: running.port, method, target, headers: await signedHeaders({ method, host, pathAndQuery: target, credentials: demo }), ...(body ? { body } : {}) });
        const put = await send('PUT', '/same-answers');
        const obj = await send('PUT', '/same-answers/k%20ey', new TextEncoder().encode('x'));
        const head = await send('HEAD', '/same-answers/k%20ey');
        const missing = await send('GET', '/same-answers/none');
        seen.push([put.status, obj.status, obj.headers.etag, head.status, head.headers['content-length'], missing.status, json(missing)]);
      }
      expect(seen[0]).toEqual([201, 201, '"9dd4e461268c8034f5c8564e155c67a6"', 200, '1', 404, expect.objectContaining({ code: 'object_not_exists' })]);
      expect({ ...seen[0], 6: null }).toEqual({ ...seen[1], 6: null });
    } finally {
      await Promise.all(both.map((r) => r.close()));
    }
  });

  it('a server started with custom users accepts their keys and not the demo key', async () => {
    const alice = { id: 'usr-alice', name: 'alice', accessKeyId: 'ALICEKEY', secretAccessKey: 'alice-secret-0001' };
    const running = await startEmulatorServer({ port: 0, seed: 'empty', users: [alice] });
    try {
      const host = `127.0.0.1:${running.port}`;
      const asAlice = await signedHeaders({ method: 'GET', host, pathAndQuery: '/', credentials: alice });
      expect((await rawHttp({ port: running.port, method: 'GET', target: '/', headers: asAlice })).status).toBe(200);
      const asDemo = await signedHeaders({ method: 'GET', host, pathAndQuery: '/', credentials: demo });
      const refused = await rawHttp({ port: running.port, method: 'GET', target: '/', headers: asDemo });
      expect(refused.status).toBe(401);
      expect(json(refused)).toMatchObject({ code: 'invalid_access_key_id' });
    } finally {
      await running.close();
    }
  });
});

describe('the serve:mock command', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'serve-mock-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function runCli(args: string[], env: Record<string, string> = {}, stopWith: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; port: number; answered: number }> {
    const node = path.join(repoRoot, 'node_modules', '.bin', 'node');
    const child = spawn(node, [path.join(repoRoot, 'mocks', 'server.ts'), ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve, reject) => {
      let port = 0;
      let answered = 0;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no banner within 15 s; stderr: ${stderr}`));
      }, 15_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
        if (m && port === 0 && stdout.includes('Ctrl-C')) {
          port = Number(m[1]);
          clearTimeout(timer);
          // Prove it serves, then stop it the way a process manager would.
          void rawHttp({ port, method: 'GET', target: '/' }).then((res) => {
            answered = res.status;
            child.kill(stopWith);
          }, reject);
        }
      });
      child.on('exit', (code, signal) => resolve({ code, signal, stdout, port, answered }));
      child.on('error', reject);
    });
  }

  it('prints the banner with the demo credentials, serves, and exits 0 on SIGTERM', async () => {
    const result = await runCli(['--port', '0', '--seed', 'empty']);
    expect(result.answered).toBe(403);
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stdout).toContain(DEMO_ACCESS_KEY_ID);
    expect(result.stdout).toContain(DEMO_SECRET_ACCESS_KEY);
    expect(result.stdout).toContain('pek3a.qingstor.local');
  });

  it('exits 0 on SIGINT (Ctrl-C in a terminal)', async () => {
    const result = await runCli(['--port', '0', '--seed', 'empty'], {}, 'SIGINT');
    expect(result.answered).toBe(403);
    expect(result.code).toBe(0);
    expect(result.signal).toBeNull();
  });

  it('takes --users and the env key pair without ever printing their secrets', async () => {
    const file = path.join(dir, 'users.json');
    await writeFile(file, JSON.stringify([{ id: 'usr-bob', access_key_id: 'BOBKEY', secret_access_key: 'bob-very-secret-1' }]));
    const withFile = await runCli(['--port', '0', '--seed', 'empty', '--users', file]);
    expect(withFile.code).toBe(0);
    expect(withFile.stdout).toContain('BOBKEY');
    expect(withFile.stdout).not.toContain('bob-very-secret-1');
    expect(withFile.stdout).not.toContain(DEMO_SECRET_ACCESS_KEY);

    const withEnv = await runCli(['--port', '0', '--seed', 'empty'], { QS_ACCESS_KEY_ID: 'ENVKEY01', QS_SECRET_ACCESS_KEY: 'env-very-secret-2' });
    expect(withEnv.code).toBe(0);
    expect(withEnv.stdout).toContain('ENVKEY01');
    expect(withEnv.stdout).not.toContain('env-very-secret-2');
  });
});
