/**
 * Small durable writes: 1 KiB PutObject with 32 keep-alive clients into the standalone emulator with
 * `--data-dir` (every acknowledged write survives SIGKILL and a power cut: mocks/store/disk.ts), beside the
 * floor the speed issue names, s3rver 3.7 (an S3 emulator, a devDependency used only here) keeping its
 * objects in a directory on the same disk, without any fsync. Both servers run in a child process of their
 * own, one after the other, in ROUNDS rounds interleaved (the machine may be shared); the figure of each is
 * the median of its rounds, and the ratio and its goal are printed beside them.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../mocks/server-options.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../src/api/protocol/demo.ts';
import { signRequest } from '../src/api/signing.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import { summarize, type Figure } from './lib.ts';
import { BUCKET, CONCURRENCY, drive, prepare, send, type Prepared, type Run } from './server-throughput.ts';

const root = resolve(import.meta.dirname, '..');
const ROUNDS = 3;
const PHASE = { requests: 20_000, maxSeconds: 6 };
const WARMUP = 2_000;
/** The goal of the speed issue: durable small PUTs at least this many times s3rver's on the same disk. */
export const DURABLE_PUT_GOAL = 1.5;

/** s3rver in a child process, its objects in `dir`, the bench bucket configured. */
const S3RVER = `
const S3rver = require('s3rver');
new S3rver({ port: 0, address: '127.0.0.1', directory: process.argv[1], silent: true, configureBuckets: [{ name: '${BUCKET}' }] })
  .run().then((address) => console.log('listening on http://127.0.0.1:' + address.port));
`;

async function stop(server: ChildServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  await exited;
}

/** One timed phase of 1 KiB PUTs against a server, after a warm-up that writes every key once. */
async function putPhase(server: ChildServer, work: Prepared[], body: Uint8Array, expected: number): Promise<Run> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    await drive(agent, server.port, server.child.pid, work, WARMUP, body, expected, 30);
    return await drive(agent, server.port, server.child.pid, work, PHASE.requests, body, expected, PHASE.maxSeconds);
  } finally {
    agent.destroy();
  }
}

async function emulatorRound(body: Uint8Array): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'qs-bench-durable-'));
  const server = await startChildServer([...SERVER_NODE_FLAGS, join(root, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', '--quiet', '--data-dir', dir], { what: 'emulator' });
  try {
    const headers = new Headers();
    await signRequest({ method: 'PUT', url: new URL(`http://127.0.0.1:${server.port}/${BUCKET}`), headers, credentials: { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY } });
    const agent = new http.Agent({ keepAlive: true });
    const status = await send(agent, server.port, { method: 'PUT', path: `/${BUCKET}`, headers: Object.fromEntries(headers) }, undefined);
    agent.destroy();
    if (status !== 201) throw new Error(`PutBucket answered ${status}`);
    return await putPhase(server, await prepare('PUT', server.port, body), body, 201);
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function s3rverRound(body: Uint8Array): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'qs-bench-s3rver-'));
  const server = await startChildServer(['-e', S3RVER, dir], { what: 's3rver' });
  try {
    const work: Prepared[] = Array.from({ length: 2000 }, (_, i) => ({
      method: 'PUT',
      path: `/${BUCKET}/obj-${i.toString().padStart(6, '0')}`,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.byteLength) },
    }));
    return await putPhase(server, work, body, 200);
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

const perSecond = (r: Run): number => r.completed / r.seconds;

export async function benchDurablePuts(): Promise<Figure[]> {
  const body = new Uint8Array(1024).map((_, i) => (i * 7) & 0xff);
  const emulator: Run[] = [];
  const s3rver: Run[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    emulator.push(await emulatorRound(body));
    s3rver.push(await s3rverRound(body));
  }
  const e = summarize(emulator.map(perSecond));
  const s = summarize(s3rver.map(perSecond));
  const failed = (runs: Run[]): number => runs.reduce((n, r) => n + r.failed, 0);
  const cpu = (runs: Run[]): string => {
    const used = runs.reduce((n, r) => n + (r.serverCpu ?? 0), 0);
    const requests = runs.reduce((n, r) => n + r.completed + r.failed, 0);
    return used > 0 ? `${Math.round((used * 1e6) / requests)} µs of server CPU each` : 'server CPU not measured';
  };
  const range = (x: ReturnType<typeof summarize>): string => `median of ${x.n}, range ${Math.round(x.min)}–${Math.round(x.max)}`;
  const ratio = e.median / s.median;
  return [
    { name: 'durable PUTs: emulator with --data-dir, PutObject 1 KiB, 32 clients', value: Math.round(e.median), unit: 'req/s', note: `${range(e)}; ${failed(emulator)} failed; ${cpu(emulator)}; every answer after its fdatasync` },
    { name: 'durable PUTs: s3rver 3.7 on disk (no fsync), PutObject 1 KiB, 32 clients', value: Math.round(s.median), unit: 'req/s', note: `${range(s)}; ${failed(s3rver)} failed; ${cpu(s3rver)}` },
    { name: 'durable PUTs: emulator --data-dir / s3rver on disk', value: Math.round(ratio * 100) / 100, unit: '×', note: `goal >= ${DURABLE_PUT_GOAL}` },
  ];
}

if (import.meta.main) {
  for (const f of await benchDurablePuts()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
