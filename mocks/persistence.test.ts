/**
 * `--data-dir`: what the emulator acknowledged survives a clean restart and a SIGKILL, byte for byte, and
 * nothing else appears.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, SERVER_NODE_FLAGS } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function md5Hex(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** Deterministic content for a key, so a restarted server's bytes can be checked without keeping them. */
function contentOf(key: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = 0;
  for (const c of key) x = (x * 31 + c.charCodeAt(0)) >>> 0;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function signedClient(port: () => number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const request = async (method: string, target: string, opts: { headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<RawResponse> => {
    const host = `127.0.0.1:${port()}`;
    const headers = await signedHeaders({ method, host, pathAndQuery: target, credentials: demo, ...(opts.headers ? { headers: opts.headers } : {}) });
    return rawHttp({ port: port(), method, target, host, headers, agent, ...(opts.body ? { body: opts.body } : {}) });
  };
  return { request, close: () => agent.destroy() };
}

/** Bodies the data directory holds: body files, and small bodies kept in the database. */
async function storedBodies(dir: string): Promise<number> {
  const db = new DatabaseSync(path.join(dir, 'records.sqlite'), { readOnly: true });
  try {
    const row = db.prepare('SELECT count(*) AS n FROM inline_bodies').get();
    return (await readdir(path.join(dir, 'bodies'))).length + Number(row?.n ?? 0);
  } finally {
    db.close();
  }
}

function jsonBody(res: RawResponse): unknown {
  return JSON.parse(res.body.toString('utf8'));
}

describe('--data-dir: a clean restart keeps everything', () => {
  let dir = '';
  let server: RunningEmulatorServer | undefined;
  let port = 0;
  const { request, close } = signedClient(() => port);
  const bucket = 'persist-bucket';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qs-emu-data-'));
  });

  afterAll(async () => {
    close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps buckets, ACL, CORS, policy, lifecycle rules, objects with metadata, appended and copied objects, completed and in-progress uploads', async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir, minPartSize: 1 });
    port = server.port;
    expect((await request('PUT', `/${bucket}`)).status).toBe(201);
    // A bucket that is created, used and deleted leaves nothing behind.
    expect((await request('PUT', '/short-lived')).status).toBe(201);
    const temp = await request('POST', '/short-lived/x?uploads');
    expect(temp.status).toBe(200);
    expect((await request('DELETE', '/short-lived')).status).toBe(204);
    const acl = Buffer.from(JSON.stringify({ acl: [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }] }));
    expect((await request('PUT', `/${bucket}?acl`, { body: acl })).status).toBe(200);
    const cors = Buffer.from(JSON.stringify({ cors_rules: [{ allowed_origin: 'https://app.example', allowed_methods: ['GET'] }] }));
    expect((await request('PUT', `/${bucket}?cors`, { body: cors })).status).toBe(200);
    const policy = Buffer.from(
      `{"statement":[{"id":"s1","user":"*","action":"get_object","effect":"allow","resource":["${bucket}/public/*"]}],"__proto__":{"kept":true}}`,
    );
    expect((await request('PUT', `/${bucket}?policy`, { body: policy })).status).toBe(200);
    const lifecycle = { rule: [{ id: 'abort-old', status: 'enabled', filter: { prefix: 'tmp/' }, abort_incomplete_multipart_upload: { days_after_initiation: 7 } }] };
    expect((await request('PUT', `/${bucket}?lifecycle`, { body: Buffer.from(JSON.stringify(lifecycle)) })).status).toBe(200);

    const big = contentOf('big', 3 * 1024 * 1024 + 17);
    const put = await request('PUT', `/${bucket}/dir/big.bin`, { headers: { 'content-type': 'application/x-test', 'x-qs-meta-owner': 'tom', 'x-qs-meta-__proto__': 'proto', 'cache-control': 'no-cache' }, body: big });
    expect(put.status).toBe(201);
    expect((await request('PUT', `/${bucket}/gone.txt`, { body: Buffer.from('soon deleted') })).status).toBe(201);
    expect((await request('DELETE', `/${bucket}/gone.txt`)).status).toBe(204);
    expect((await request('PUT', `/${bucket}/copy.bin`, { headers: { 'x-qs-copy-source': `/${bucket}/dir/big.bin` } })).status).toBe(201);
    expect((await request('POST', `/${bucket}/log.txt?append&position=0`, { body: Buffer.from('one,') })).status).toBe(200);
    expect((await request('POST', `/${bucket}/log.txt?append&position=4`, { body: Buffer.from('two') })).status).toBe(200);

    const init = async (key: string): Promise<string> => String((jsonBody(await request('POST', `/${bucket}/${key}?uploads`, { headers: { 'x-qs-meta-kind': 'mp' } })) as { upload_id: unknown }).upload_id);
    const done = await init('done.bin');
    for (const n of [1, 2]) expect((await request('PUT', `/${bucket}/done.bin?part_number=${n}&upload_id=${done}`, { body: contentOf(`done-${n}`, 1000) })).status).toBe(201);
    const complete = Buffer.from(JSON.stringify({ object_parts: [{ part_number: 1 }, { part_number: 2 }] }));
    expect((await request('POST', `/${bucket}/done.bin?upload_id=${done}`, { body: complete })).status).toBe(201);
    const open = await init('open.bin');
    expect((await request('PUT', `/${bucket}/open.bin?part_number=3&upload_id=${open}`, { body: contentOf('open-3', 2048) })).status).toBe(201);

    await server.close();
    server = await startEmulatorServer({ port: 0, seed: 'demo', dataDir: dir, minPartSize: 1 });
    port = server.port;

    const buckets = jsonBody(await request('GET', '/')) as { buckets: Array<{ name: string }> };
    expect(buckets.buckets.map((b) => b.name)).toEqual([bucket]);
    expect(jsonBody(await request('GET', `/${bucket}?acl`))).toMatchObject({ acl: expect.arrayContaining([{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]) });
    expect(jsonBody(await request('GET', `/${bucket}?cors`))).toEqual(JSON.parse(cors.toString()));
    const policyAfter = await request('GET', `/${bucket}?policy`);
    expect(jsonBody(policyAfter)).toEqual(JSON.parse(policy.toString()));
    expect(policyAfter.body.toString()).toContain('"__proto__":{"kept":true}');
    expect(jsonBody(await request('GET', `/${bucket}?lifecycle`))).toEqual(lifecycle);

    const got = await request('GET', `/${bucket}/dir/big.bin`);
    expect(got.status).toBe(200);
    expect(md5Hex(got.body)).toBe(md5Hex(big));
    expect(got.headers.etag).toBe(`"${md5Hex(big)}"`);
    expect(got.headers['content-type']).toBe('application/x-test');
    expect(got.headers['x-qs-meta-owner']).toBe('tom');
    expect(got.headers['x-qs-meta-__proto__']).toBe('proto');
    expect(got.headers['cache-control']).toBe('no-cache');
    const range = await request('GET', `/${bucket}/copy.bin`, { headers: { range: 'bytes=1048575-1048580' } });
    expect([...range.body]).toEqual([...big.subarray(1048575, 1048581)]);
    expect((await request('HEAD', `/${bucket}/gone.txt`)).status).toBe(404);
    expect((await request('GET', `/${bucket}/log.txt`)).body.toString()).toBe('one,two');
    expect((await request('POST', `/${bucket}/log.txt?append&position=7`, { body: Buffer.from(',three') })).status).toBe(200);
    const log = await request('GET', `/${bucket}/log.txt`);
    expect(log.body.toString()).toBe('one,two,three');
    expect(log.headers.etag).toBe(`"${md5Hex(Buffer.from('one,two,three'))}"`);
    const doneGet = await request('GET', `/${bucket}/done.bin`);
    expect(md5Hex(doneGet.body)).toBe(md5Hex(Buffer.concat([contentOf('done-1', 1000), contentOf('done-2', 1000)])));
    expect(doneGet.headers['x-qs-meta-kind']).toBe('mp');

    const uploads = jsonBody(await request('GET', `/${bucket}?uploads`)) as { uploads: Array<{ key: string; upload_id: string }> };
    expect(uploads.uploads).toEqual([expect.objectContaining({ key: 'open.bin', upload_id: open })]);
    const parts = jsonBody(await request('GET', `/${bucket}/open.bin?upload_id=${open}`)) as { object_parts: Array<{ part_number: number; etag: string; size: number }> };
    expect(parts.object_parts).toEqual([expect.objectContaining({ part_number: 3, size: 2048, etag: md5Hex(contentOf('open-3', 2048)) })]);
    // The upload can be finished after the restart.
    expect((await request('POST', `/${bucket}/open.bin?upload_id=${open}`, { body: Buffer.from('{"object_parts":[{"part_number":3}]}') })).status).toBe(201);
    expect(md5Hex((await request('GET', `/${bucket}/open.bin`)).body)).toBe(md5Hex(contentOf('open-3', 2048)));
  });

  it('refuses a second emulator on the same data directory', async () => {
    await expect(startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir })).rejects.toThrow(/already open in this process/);
  });

  it('removes what no record points at when it starts: temp files and unreferenced body files', async () => {
    // Deleting the multipart object leaves its two part bodies without a record; the copy still holds big.bin's.
    expect((await request('DELETE', `/${bucket}/done.bin`)).status).toBe(204);
    expect((await request('DELETE', `/${bucket}/dir/big.bin`)).status).toBe(204);
    await server?.close();
    await writeFile(path.join(dir, 'tmp', 'half-written'), 'partial');
    await writeFile(path.join(dir, 'bodies', '0123456789abcdef0123456789abcdef'), 'orphan');
    const before = await storedBodies(dir);
    server = await startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir });
    port = server.port;
    expect(await readdir(path.join(dir, 'tmp'))).toEqual([]);
    expect(await readdir(path.join(dir, 'bodies'))).not.toContain('0123456789abcdef0123456789abcdef');
    // The orphan and the deleted multipart object's two part bodies are gone; live ones stay.
    expect(await storedBodies(dir)).toBe(before - 3);
    expect(md5Hex((await request('GET', `/${bucket}/open.bin`)).body)).toBe(md5Hex(contentOf('open-3', 2048)));
    expect(md5Hex((await request('GET', `/${bucket}/copy.bin`)).body)).toBe(md5Hex(contentOf('big', 3 * 1024 * 1024 + 17)));
    expect((await request('GET', `/${bucket}/log.txt`)).body.toString()).toBe('one,two,three');
  });
});

describe('--data-dir: the demo seed', () => {
  let dir = '';
  let server: RunningEmulatorServer | undefined;

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a new directory seeded with the demo keeps every seeded object, the lazily generated 100,000-object bucket included', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qs-emu-seed-'));
    server = await startEmulatorServer({ port: 0, seed: 'demo', dataDir: dir });
    const before = server.store.getBucketStatistics('demo-archive');
    expect(before.count).toBe(100_000);
    await server.close();
    server = await startEmulatorServer({ port: 0, seed: 'demo', dataDir: dir });
    expect(server.store.getBucketStatistics('demo-archive')).toEqual(before);
    expect(server.store.listObjects('demo-archive', { limit: 1, marker: 'logs/2024/06' }).keys.map((k) => k.key)).toEqual(['logs/2024/06/01/event-0000.json']);
    // 100,000 records journaled and read back twice: seconds alone, far more on a loaded machine.
  }, 90_000);
});

describe('--data-dir: body files nothing points at any more are removed while running', () => {
  let dir = '';
  let server: RunningEmulatorServer | undefined;
  let port = 0;
  const { request, close } = signedClient(() => port);

  afterAll(async () => {
    close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('after overwrite, delete, abort and a refused write only the live bodies stay', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qs-emu-release-'));
    server = await startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir, releaseDelayMs: 20, minPartSize: 1 });
    port = server.port;
    const bodies = (): Promise<number> => storedBodies(dir);
    const bucket = 'release-bucket';
    expect((await request('PUT', `/${bucket}`)).status).toBe(201);
    expect((await request('PUT', `/${bucket}/a`, { body: Buffer.from('first') })).status).toBe(201);
    expect((await request('PUT', `/${bucket}/b`, { body: Buffer.from('other') })).status).toBe(201);
    expect((await request('PUT', `/${bucket}/shared`, { headers: { 'x-qs-copy-source': `/${bucket}/b` } })).status).toBe(201);
    await expect.poll(bodies).toBe(2);
    // Overwritten: the first body goes. Deleted while a copy shares its body: the body stays.
    expect((await request('PUT', `/${bucket}/a`, { body: Buffer.from('second') })).status).toBe(201);
    expect((await request('DELETE', `/${bucket}/b`)).status).toBe(204);
    // A refused write (wrong Content-MD5) leaves nothing.
    expect((await request('PUT', `/${bucket}/bad`, { headers: { 'content-md5': '1B2M2Y8AsgTpgAmY7PhCfg==' }, body: Buffer.from('x') })).status).toBe(400);
    const init = jsonBody(await request('POST', `/${bucket}/mp?uploads`)) as { upload_id: string };
    expect((await request('PUT', `/${bucket}/mp?part_number=1&upload_id=${init.upload_id}`, { body: Buffer.from('part') })).status).toBe(201);
    await expect.poll(bodies).toBe(3);
    expect((await request('DELETE', `/${bucket}/mp?upload_id=${init.upload_id}`)).status).toBe(204);
    await expect.poll(bodies).toBe(2);
    expect((await request('GET', `/${bucket}/a`)).body.toString()).toBe('second');
    expect((await request('GET', `/${bucket}/shared`)).body.toString()).toBe('other');
    expect((await request('DELETE', `/${bucket}/shared`)).status).toBe(204);
    await expect.poll(bodies).toBe(1);
  });
});

describe('--data-dir: SIGKILL under load', () => {
  let dir = '';
  let child: ChildProcess | undefined;

  async function startChild(): Promise<{ child: ChildProcess; port: number }> {
    const proc = spawn(path.join(repoRoot, 'node_modules/.bin/node'), [...SERVER_NODE_FLAGS, path.join(repoRoot, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', '--data-dir', dir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    proc.stdout?.resume();
    proc.stderr?.resume();
    return { child: proc, port };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qs-emu-kill-'));
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('after a restart every acknowledged write is there byte for byte, and nothing else', async () => {
    const bucket = 'kill-bucket';
    let started = await startChild();
    child = started.child;
    let port = started.port;
    const first = signedClient(() => port);
    expect((await first.request('PUT', `/${bucket}`)).status).toBe(201);
    const uploadIds: string[] = [];
    for (let c = 0; c < 16; c += 1) {
      const init = await first.request('POST', `/${bucket}/upload-${c}?uploads`);
      uploadIds.push(String((jsonBody(init) as { upload_id: unknown }).upload_id));
    }

    const acked = new Map<string, { size: number; meta: string }>();
    const sent = new Map<string, number>();
    const ackedParts = new Map<string, number>();
    const control = { stop: false };
    const worker = async (c: number): Promise<void> => {
      for (let i = 0; !control.stop && i < 10_000; i += 1) {
        try {
          if (i % 3 === 2) {
            const part = i;
            const size = 4096 + ((c * 7919 + i * 104729) % 60_000);
            const res = await first.request('PUT', `/${bucket}/upload-${c}?part_number=${part}&upload_id=${uploadIds[c]}`, { body: contentOf(`part-${c}-${part}`, size) });
            if (res.status === 201) ackedParts.set(`${c}:${part}`, size);
          } else {
            const key = `obj/${c}/${i}`;
            const size = 1 + ((c * 31 + i * 7919) % 200_000);
            sent.set(key, size);
            const res = await first.request('PUT', `/${bucket}/${key}`, { headers: { 'x-qs-meta-writer': `c${c}-i${i}` }, body: contentOf(key, size) });
            if (res.status === 201) acked.set(key, { size, meta: `c${c}-i${i}` });
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, c) => worker(c)));
    await expect.poll(() => acked.size + ackedParts.size, { timeout: 60_000, interval: 20 }).toBeGreaterThan(300);
    child.kill('SIGKILL');
    control.stop = true;
    await load;
    first.close();
    await new Promise<void>((resolve) => {
      if (child?.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });

    started = await startChild();
    child = started.child;
    port = started.port;
    const second = signedClient(() => port);
    try {
      // Every object in the bucket was sent, is complete, and carries what was sent with it.
      const present = new Map<string, number>();
      let marker = '';
      for (;;) {
        const page = jsonBody(await second.request('GET', `/${bucket}?prefix=obj%2F&limit=1000&marker=${encodeURIComponent(marker)}`)) as {
          keys: Array<{ key: string; size: number; etag: string }>;
          has_more: boolean;
          next_marker: string;
        };
        for (const entry of page.keys) {
          const size = sent.get(entry.key);
          expect(size, `unexpected object ${entry.key}`).toBeDefined();
          expect(entry.size).toBe(size);
          expect(entry.etag).toBe(`"${md5Hex(contentOf(entry.key, size ?? 0))}"`);
          present.set(entry.key, entry.size);
        }
        if (!page.has_more) break;
        marker = page.next_marker;
      }
      for (const [key] of acked) expect(present.has(key), `acknowledged ${key} is missing`).toBe(true);
      // Spot-check bodies and metadata of acknowledged objects over GET.
      const sample = [...acked].filter((_, i) => i % 25 === 0);
      for (const [key, { size, meta }] of sample) {
        const got = await second.request('GET', `/${bucket}/${key}`);
        expect(got.status).toBe(200);
        expect(md5Hex(got.body)).toBe(md5Hex(contentOf(key, size)));
        expect(got.headers['x-qs-meta-writer']).toBe(meta);
      }
      // Uploads list their acknowledged parts with the right ETags.
      for (let c = 0; c < 16; c += 1) {
        const listed = jsonBody(await second.request('GET', `/${bucket}/upload-${c}?upload_id=${uploadIds[c]}`)) as { object_parts: Array<{ part_number: number; size: number; etag: string }> };
        const byNumber = new Map(listed.object_parts.map((p) => [p.part_number, p]));
        for (const [id, size] of ackedParts) {
          const [owner, part] = id.split(':').map(Number);
          if (owner !== c || part === undefined) continue;
          expect(byNumber.get(part), `part ${id}`).toMatchObject({ size, etag: md5Hex(contentOf(`part-${c}-${part}`, size)) });
        }
        for (const p of listed.object_parts) expect(p.etag).toBe(md5Hex(contentOf(`part-${c}-${p.part_number}`, p.size)));
      }
      expect(acked.size).toBeGreaterThan(100);
    } finally {
      second.close();
    }
  }, 120_000);
});
