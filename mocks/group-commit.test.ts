/**
 * `--data-dir` commits in groups (mocks/store/disk.ts): concurrent requests share one flush. The attack: 32
 * clients overwrite and delete keys as fast as they can, small bodies (kept in the database) and large ones
 * (body files) mixed, and the server is killed with SIGKILL in the middle of it. After a restart every key
 * must hold what its last acknowledged request left, or what the one request still in flight for it would
 * have left: an acknowledged PUT is never lost, an acknowledged DELETE never undone, and nothing is torn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders, type RawResponse } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, SERVER_NODE_FLAGS } from './server-options.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bucket = 'group-kill';
const CLIENTS = 32;
const KEYS_EACH = 4;

async function startChild(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/node'), [...SERVER_NODE_FLAGS, path.join(repoRoot, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', '--quiet', '--data-dir', dir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  child.stdout?.resume();
  return { child, port };
}

function client(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const request = async (method: string, target: string, body?: Uint8Array): Promise<RawResponse> => {
    const host = `127.0.0.1:${port}`;
    const headers = await signedHeaders({ method, host, pathAndQuery: target, credentials: demo });
    return rawHttp({ port, method, target, host, headers, agent, ...(body ? { body } : {}) });
  };
  return { request, close: () => agent.destroy() };
}

/** The body of write `n` to `key`: small (the database) or larger than 64 KiB (a body file), deterministic. */
function bodyOf(key: string, n: number): Buffer {
  const size = n % 3 === 0 ? 70_000 + (n % 7) * 1000 : 100 + (n % 13) * 300;
  const out = Buffer.alloc(size);
  let x = (n * 2654435761) ^ key.length;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');

/** What a key holds after an operation: the MD5 of its body, or null (absent). */
type State = string | null;

interface KeyLog {
  /** State after the last acknowledged operation (null before any). */
  acked: State;
  /** State the operation in flight would leave, if one was in flight. */
  inFlight: State | undefined;
}

describe('--data-dir: group commit under SIGKILL', () => {
  let dir = '';
  let child: ChildProcess | undefined;

  afterAll(async () => {
    child?.kill('SIGKILL');
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('32 clients overwriting and deleting, killed mid-burst: every key holds its last acknowledged state or its in-flight one', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'qs-emu-group-'));
    let started = await startChild(dir);
    child = started.child;
    const first = client(started.port);
    expect((await first.request('PUT', `/${bucket}`)).status).toBe(201);

    const logs = new Map<string, KeyLog>();
    let acknowledged = 0;
    const control = { stop: false };
    const worker = async (c: number): Promise<void> => {
      for (let n = 0; !control.stop; n += 1) {
        const key = `c${c}/k${n % KEYS_EACH}`;
        const log = logs.get(key) ?? { acked: null, inFlight: undefined };
        logs.set(key, log);
        const remove = n % 5 === 4;
        const body = remove ? undefined : bodyOf(key, n);
        log.inFlight = body ? md5(body) : null;
        try {
          const res = await first.request(remove ? 'DELETE' : 'PUT', `/${bucket}/${key}`, body);
          if (res.status !== (remove ? 204 : 201)) throw new Error(`${remove ? 'DELETE' : 'PUT'} ${key} answered ${res.status}`);
          log.acked = log.inFlight;
          log.inFlight = undefined;
          acknowledged += 1;
        } catch (error) {
          if (control.stop) return; // the server is gone: this one stays "in flight"
          throw error;
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => worker(c)));
    await expect.poll(() => acknowledged, { timeout: 90_000, interval: 10 }).toBeGreaterThan(600);
    child.kill('SIGKILL');
    control.stop = true;
    await load;
    first.close();
    await new Promise<void>((resolve) => (child?.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

    started = await startChild(dir);
    child = started.child;
    const second = client(started.port);
    try {
      let checked = 0;
      for (const [key, log] of logs) {
        const got = await second.request('GET', `/${bucket}/${key}`);
        const state: State = got.status === 404 ? null : md5(got.body);
        expect(got.status === 200 || got.status === 404, `${key}: status ${got.status}`).toBe(true);
        const allowed = log.inFlight === undefined ? [log.acked] : [log.acked, log.inFlight];
        expect(allowed, `${key} holds a state no acknowledged or in-flight request left`).toContain(state);
        expect(got.status === 200 ? got.headers.etag : null).toBe(state === null ? null : `"${state}"`);
        checked += 1;
      }
      expect(checked).toBe(CLIENTS * KEYS_EACH);
    } finally {
      second.close();
    }
  }, 180_000);
});
