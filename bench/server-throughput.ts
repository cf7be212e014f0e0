/**
 * Requests/second of the standalone emulator (mocks/server.ts) for 1 KiB PutObject and HeadObject with 32
 * concurrent keep-alive clients over loopback.
 *
 * The server runs in a CHILD PROCESS (`node mocks/server.ts --seed empty --port 0`) so that it and this load
 * generator each get their own event loop (the target machine has 2 cores). Every request is signed with the
 * console's signer (src/api/signing.ts, header signature with x-qs-date); signatures are computed BEFORE the
 * timed loop, so the figures measure the server (parse, verify the signature, store, respond), not the client's
 * HMACs. Each phase is bounded by a request count and a time limit.
 */
import { startChildServer, type ChildServer } from './child-server.ts';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../mocks/server-options.ts';
import { signRequest } from '../src/api/signing.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../src/api/protocol/demo.ts';
import type { Figure } from './lib.ts';

const root = resolve(import.meta.dirname, '..');
const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
export const CONCURRENCY = 32;
export const BUCKET = 'bench-throughput';

interface Phase {
  requests: number;
  maxSeconds: number;
}

const PUT_PHASE: Phase = { requests: 30_000, maxSeconds: 10 };
const HEAD_PHASE: Phase = { requests: 60_000, maxSeconds: 10 };
const WARMUP = 2_000;

function startChild(nodeArgs: readonly string[], serverArgs: readonly string[]): Promise<ChildServer> {
  return startChildServer([...SERVER_NODE_FLAGS, ...nodeArgs, join(root, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', ...serverArgs], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    what: 'emulator',
  });
}

/**
 * CPU seconds (user + system) the server process has used so far, from /proc (Linux). Requests per
 * CPU-second of the server is the figure that stays meaningful when other work shares the machine.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) are utime and stime in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export interface Prepared {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** Distinct objects; requests cycle over them (PUTs overwrite, HEADs find every one). */
const KEYS = 2_000;

/** Signs one request per distinct key; the timed loop cycles over these (same key ⇒ same valid signature). */
export async function prepare(method: 'PUT' | 'HEAD', port: number, body: Uint8Array): Promise<Prepared[]> {
  const now = new Date();
  const out: Prepared[] = [];
  for (let i = 0; i < KEYS; i++) {
    const path = `/${BUCKET}/obj-${i.toString().padStart(6, '0')}`;
    const headers = new Headers(method === 'PUT' ? { 'content-type': 'application/octet-stream' } : {});
    await signRequest({ method, url: new URL(`http://127.0.0.1:${port}${path}`), headers, credentials, now });
    const plain = Object.fromEntries(headers);
    if (method === 'PUT') plain['content-length'] = String(body.byteLength);
    out.push({ method, path, headers: plain });
  }
  return out;
}

export function send(agent: http.Agent, port: number, p: Prepared, body: Uint8Array | undefined): Promise<number> {
  return new Promise((done, fail) => {
    const req = http.request({ host: '127.0.0.1', port, method: p.method, path: p.path, headers: p.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

export interface Run {
  completed: number;
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Server CPU seconds used during the run, when /proc is available. */
  serverCpu: number | undefined;
}

export async function drive(agent: http.Agent, port: number, pid: number | undefined, work: Prepared[], total: number, body: Uint8Array | undefined, expected: number, maxSeconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(pid);
  let next = 0;
  let completed = 0;
  let failed = 0;
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + maxSeconds * 1000;
  async function worker(): Promise<void> {
    while (next < total && performance.now() < deadline) {
      const p = work[next++ % work.length]!;
      const t0 = performance.now();
      const status = await send(agent, port, p, body);
      latencies.push(performance.now() - t0);
      if (status === expected) completed++;
      else failed++;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpuSeconds(pid);
  const serverCpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  latencies.sort((a, b) => a - b);
  const pick = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { completed, failed, seconds, p50: pick(0.5), p99: pick(0.99), serverCpu };
}

/**
 * `nodeArgs` go to the server's node (e.g. ['--cpu-prof'] to profile it), `serverArgs` to mocks/server.ts
 * (e.g. ['--via-msw'] to measure the msw getResponse path).
 */
export async function benchServerThroughput(options: { nodeArgs?: readonly string[]; serverArgs?: readonly string[] } = {}): Promise<Figure[]> {
  const { child, port } = await startChild(options.nodeArgs ?? [], options.serverArgs ?? []);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const bucketHeaders = new Headers();
    await signRequest({ method: 'PUT', url: new URL(`http://127.0.0.1:${port}/${BUCKET}`), headers: bucketHeaders, credentials });
    const bucketStatus = await send(agent, port, { method: 'PUT', path: `/${BUCKET}`, headers: Object.fromEntries(bucketHeaders) }, undefined);
    if (bucketStatus !== 201) throw new Error(`PutBucket answered ${bucketStatus}`);

    const body = new Uint8Array(1024).map((_, i) => (i * 7) & 0xff);
    const puts = await prepare('PUT', port, body);
    const heads = await prepare('HEAD', port, body);

    // The warm-up PUTs create every key, so the HEAD phase never meets a 404.
    const pid = child.pid;
    await drive(agent, port, pid, puts, Math.max(WARMUP, KEYS), body, 201, 30);
    const put = await drive(agent, port, pid, puts, PUT_PHASE.requests, body, 201, PUT_PHASE.maxSeconds);
    await drive(agent, port, pid, heads, WARMUP, undefined, 200, 10);
    const head = await drive(agent, port, pid, heads, HEAD_PHASE.requests, undefined, 200, HEAD_PHASE.maxSeconds);

    const round = (n: number): number => Math.round(n);
    const ms = (n: number): number => Math.round(n * 100) / 100;
    const note = (r: Run, target: number): string =>
      `${r.completed} ok, ${r.failed} failed in ${r.seconds.toFixed(2)} s; p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms; target >= ${target}/s`;
    const figures: Figure[] = [
      { name: 'standalone server: PutObject 1 KiB, 32 clients', value: round(put.completed / put.seconds), unit: 'req/s', note: note(put, 2000) },
      { name: 'standalone server: HeadObject, 32 clients', value: round(head.completed / head.seconds), unit: 'req/s', note: note(head, 4000) },
    ];
    // Requests per second of server CPU: the wall-clock rate a dedicated core would sustain (load-independent).
    for (const [name, r] of [['PutObject 1 KiB', put], ['HeadObject', head]] as const) {
      if (r.serverCpu !== undefined && r.serverCpu > 0) {
        figures.push({
          name: `standalone server: ${name} per server CPU-second`,
          value: round((r.completed + r.failed) / r.serverCpu),
          unit: 'req/CPU-s',
          note: `${r.serverCpu.toFixed(2)} CPU-s for ${r.completed + r.failed} requests = ${Math.round((r.serverCpu * 1e6) / (r.completed + r.failed))} µs each`,
        });
      }
    }
    return figures;
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

if (import.meta.main) {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const serverArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
  for (const f of await benchServerThroughput({ nodeArgs, serverArgs })) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
