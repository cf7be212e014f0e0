/**
 * `--data-dir` on a disk that fills up, for real: a 24 MiB tmpfs mounted for this file (the tests run as
 * root, in CI too). Writes the disk cannot take are refused with a QingStor error and leave nothing behind;
 * DELETE still works when the disk is completely full and gives the space back; a restart finds exactly
 * what was acknowledged.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const MIB = 1024 * 1024;
const bucket = 'full-bucket';

let mount = '';
let dir = '';
let server: RunningEmulatorServer | undefined;
const agent = new http.Agent({ keepAlive: true });

beforeAll(() => {
  mount = fs.mkdtempSync(path.join(tmpdir(), 'qs-emu-full-'));
  // A small filesystem of its own, so that "full" is reached in a second and nothing else is affected.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
  dir = path.join(mount, 'data');
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
  if (mount !== '') {
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  }
});

async function request(method: string, target: string, body?: Uint8Array): Promise<RawResponse> {
  if (!server) throw new Error('no server');
  const host = `127.0.0.1:${server.port}`;
  const headers = await signedHeaders({ method, host, pathAndQuery: target, credentials: demo });
  return rawHttp({ port: server.port, method, target, host, headers, agent, ...(body ? { body } : {}) });
}

function content(seed: number, size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed * 2654435761 || 1;
  for (let i = 0; i < size; i += 4) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.writeUInt32LE(x, Math.min(i, size - 4));
  }
  return out;
}

const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');
const free = (): number => {
  const s = fs.statfsSync(mount);
  return s.bavail * s.bsize;
};
const leftovers = (): string[] => fs.readdirSync(path.join(dir, 'tmp'));
const bodyFiles = (): string[] => fs.readdirSync(path.join(dir, 'bodies'));

function refusedAsFull(res: RawResponse): void {
  expect(res.status).toBe(503);
  const body = JSON.parse(res.body.toString()) as { code: string; message: string };
  expect(body.code).toBe('service_unavailable');
  expect(body.message).toMatch(/data directory is full/);
}

/** Fills the filesystem with a file of the test's own (another program filling the disk), leaving `leave` bytes. */
function fillDisk(leave: number): string {
  const filler = path.join(mount, `filler-${Date.now()}`);
  const fd = fs.openSync(filler, 'w');
  const block = Buffer.alloc(256 * 1024);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOSPC')) throw error;
  } finally {
    fs.closeSync(fd);
  }
  if (leave > 0) fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - leave));
  return filler;
}

describe('--data-dir on a full disk', () => {
  const stored = new Map<string, string>();

  it('refuses writes the disk cannot take with 503 service_unavailable, leaving nothing in tmp/ or bodies/', async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir });
    expect((await request('PUT', `/${bucket}`)).status).toBe(201);
    // Body files (1 MiB each) until the disk says no.
    let refused: RawResponse | undefined;
    for (let i = 0; i < 40 && !refused; i += 1) {
      const body = content(i, MIB);
      const res = await request('PUT', `/${bucket}/big-${i}`, body);
      if (res.status === 201) stored.set(`big-${i}`, md5(body));
      else refused = res;
    }
    if (!refused) throw new Error('the disk never filled');
    refusedAsFull(refused);
    expect(stored.size).toBeGreaterThan(5);
    expect(leftovers()).toEqual([]);
    expect(bodyFiles()).toHaveLength(stored.size);
    // Small bodies (kept in the database) until that is refused too.
    let small: RawResponse | undefined;
    for (let i = 0; i < 2000 && !small; i += 1) {
      const body = content(1000 + i, 16 * 1024);
      const res = await request('PUT', `/${bucket}/small-${i}`, body);
      if (res.status === 201) stored.set(`small-${i}`, md5(body));
      else small = res;
    }
    if (!small) throw new Error('small writes were never refused');
    refusedAsFull(small);
    // A body cut off by the disk itself mid-write (another program took the space): refused, nothing left.
    const filler = fillDisk(MIB + 512 * 1024);
    refusedAsFull(await request('PUT', `/${bucket}/cut-off`, content(7, 3 * MIB)));
    expect(leftovers()).toEqual([]);
    expect(bodyFiles()).toHaveLength([...stored.keys()].filter((k) => k.startsWith('big-')).length);
    expect((await request('HEAD', `/${bucket}/cut-off`)).status).toBe(404);
    fs.rmSync(filler);
  }, 60_000);

  it('DELETE works on a completely full disk and gives the space back; writes work again after', async () => {
    const filler = fillDisk(0);
    expect(free()).toBeLessThan(64 * 1024);
    for (const key of ['big-0', 'big-1', 'big-3', 'big-4', 'big-5', 'big-6', 'small-0']) {
      expect((await request('DELETE', `/${bucket}/${key}`)).status).toBe(204);
      stored.delete(key);
    }
    expect((await request('HEAD', `/${bucket}/big-0`)).status).toBe(404);
    // The deleted bodies are removed at once on a full disk (not a minute later).
    await expect.poll(free, { timeout: 10_000 }).toBeGreaterThan(4 * MIB);
    fs.rmSync(filler);
    const body = content(99, MIB);
    expect((await request('PUT', `/${bucket}/after`, body)).status).toBe(201);
    stored.set('after', md5(body));
    // The reserve is taken again once there is room for it.
    await expect.poll(() => fs.existsSync(path.join(dir, 'reserve')), { timeout: 10_000 }).toBe(true);
  }, 60_000);

  it('after a restart every acknowledged object is there with its bytes, and nothing refused or deleted is', async () => {
    await server?.close();
    server = await startEmulatorServer({ port: 0, seed: 'empty', dataDir: dir });
    const listed = JSON.parse((await request('GET', `/${bucket}?limit=1000`)).body.toString()) as { keys: Array<{ key: string; etag: string }> };
    expect(new Map(listed.keys.map((k) => [k.key, k.etag.replaceAll('"', '')]))).toEqual(stored);
    for (const key of ['big-2', 'after', 'small-1']) expect(md5((await request('GET', `/${bucket}/${key}`)).body)).toBe(stored.get(key));
    expect(leftovers()).toEqual([]);
  }, 60_000);
});
