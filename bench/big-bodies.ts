/**
 * Large bodies through the standalone emulator, side by side with a server that only discards what it
 * receives (the loopback limit of this machine) and one that discards it and computes its MD5 (the floor
 * of the speed issue: the simplest server that does the emulator's per-byte work, an ETag):
 *
 *   - one 1 GiB PutObject: MB/s and server CPU-seconds for the discard server, the discard+MD5 server, the
 *     emulator in memory and with --data-dir; the emulator's ratio to the discard+MD5 server beside its goal,
 *     and its peak RSS above its idle RSS;
 *   - an anonymous 1 GiB PostObject to a bucket that does not exist: time to the refusal, peak RSS above idle;
 *   - one 4 GiB PutObject with --data-dir: status, MB/s, peak RSS above idle.
 *
 * The emulator runs with the Node flags `npm run serve:mock` uses (SERVER_NODE_FLAGS). Every server runs
 * in a child process (2 cores: one for the server, one for this client); the client
 * sends the same 1 MiB buffer over and over with backpressure. Peak RSS is VmHWM from /proc, reset before
 * each phase through /proc/<pid>/clear_refs (Linux).
 */
import type { ChildProcess } from 'node:child_process';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../src/api/protocol/demo.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../mocks/server-options.ts';
import { signRequest } from '../src/api/signing.ts';
import type { Figure } from './lib.ts';

const root = resolve(import.meta.dirname, '..');
const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

/** A server that reads and drops every request body, then answers 201. */
const DISCARD_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => { req.on('data', () => {}); req.on('end', () => { res.writeHead(201, { 'content-length': '0' }); res.end(); }); });
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/** The floor: reads every byte, computes its MD5 (node:crypto, as the emulator does), answers 201 with the ETag. */
const DISCARD_MD5_SERVER = `
const http = require('node:http');
const { createHash } = require('node:crypto');
const server = http.createServer((req, res) => {
  const hash = createHash('md5');
  req.on('data', (chunk) => hash.update(chunk));
  req.on('end', () => { res.writeHead(201, { 'content-length': '0', etag: '"' + hash.digest('hex') + '"' }); res.end(); });
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/** The speed issue's goal: the emulator's 1 GiB PUT at least this share of the discard+MD5 server's rate. */
export const BIG_PUT_GOAL = 0.9;

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function startChild(args: readonly string[]): Promise<ChildServer> {
  return startChildServer(args, { timeoutMs: 30_000 });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

function status(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(text);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Idle RSS now; resets the peak so that the next VmHWM reading covers only what follows. */
function resetPeak(pid: number | undefined): number {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return status(pid, 'VmRSS');
}

interface Sent {
  status: number;
  seconds: number;
  /** Bytes written when the answer came. */
  sent: number;
}

/** Sends `total` bytes (after `prefix`) with backpressure; stops early if the server answers first. */
function push(port: number, method: string, path: string, headers: Record<string, string>, total: number, prefix = new Uint8Array(0), suffix = new Uint8Array(0)): Promise<Sent> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const state = { answered: false, sent: 0 };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      state.answered = true;
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000, sent: state.sent }));
    });
    req.on('error', (error) => {
      if (state.answered) return;
      // A server that refuses a body early answers and closes; the client may hit the closed socket
      // (EPIPE, ECONNRESET) before it has parsed that answer. That is a refusal, reported as status 0.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE' || code === 'ECONNRESET') {
        state.answered = true;
        done({ status: 0, seconds: (performance.now() - started) / 1000, sent: state.sent });
        return;
      }
      fail(error);
    });
    const chunk = new Uint8Array(MIB).map((_, i) => (i * 31) & 0xff);
    req.write(prefix);
    const pump = (): void => {
      while (!state.answered && state.sent < total) {
        const size = Math.min(chunk.byteLength, total - state.sent);
        state.sent += size;
        if (!req.write(size === chunk.byteLength ? chunk : chunk.subarray(0, size))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!state.answered) req.end(suffix);
    };
    pump();
  });
}

async function signed(port: number, method: string, path: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const headers = new Headers(extra);
  await signRequest({ method, url: new URL(`http://127.0.0.1:${port}${path}`), headers, credentials });
  return Object.fromEntries(headers);
}

async function putBucket(port: number, bucket: string): Promise<void> {
  const result = await push(port, 'PUT', `/${bucket}`, await signed(port, 'PUT', `/${bucket}`), 0);
  if (result.status !== 201) throw new Error(`PutBucket answered ${result.status}`);
}

const mbps = (bytes: number, seconds: number): number => Math.round(bytes / MIB / seconds);
const round1 = (n: number): number => Math.round(n * 10) / 10;

export async function benchBigBodies(): Promise<Figure[]> {
  const figures: Figure[] = [];

  const discard = await startChild(['-e', DISCARD_SERVER]);
  let loopback: number;
  try {
    const r = await push(discard.port, 'PUT', '/x', { 'content-length': String(GIB) }, GIB);
    loopback = mbps(GIB, r.seconds);
    figures.push({ name: 'big bodies: 1 GiB PUT to a discard server (loopback limit)', value: loopback, unit: 'MiB/s' });
  } finally {
    await stop(discard.child);
  }
  const floor = await startChild(['-e', DISCARD_MD5_SERVER]);
  let md5Rate: number;
  let md5Cpu: number;
  try {
    const before = cpuSeconds(floor.child.pid);
    const r = await push(floor.port, 'PUT', '/x', { 'content-length': String(GIB) }, GIB);
    md5Cpu = cpuSeconds(floor.child.pid) - before;
    md5Rate = mbps(GIB, r.seconds);
    figures.push({ name: 'big bodies: 1 GiB PUT to a discard+MD5 server (the floor)', value: md5Rate, unit: 'MiB/s', note: `${md5Cpu.toFixed(2)} server CPU-s` });
  } finally {
    await stop(floor.child);
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'qs-bench-data-'));
  try {
    for (const mode of ['memory', 'data-dir'] as const) {
      const args = [...SERVER_NODE_FLAGS, join(root, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', '--quiet', ...(mode === 'data-dir' ? ['--data-dir', dataDir] : [])];
      const emulator = await startChild(args);
      try {
        await putBucket(emulator.port, 'bench-big');
        const idle = resetPeak(emulator.child.pid);
        const path = '/bench-big/one-gib';
        const headers = { ...(await signed(emulator.port, 'PUT', path)), 'content-length': String(GIB) };
        const cpuBefore = cpuSeconds(emulator.child.pid);
        const r = await push(emulator.port, 'PUT', path, headers, GIB);
        const cpu = cpuSeconds(emulator.child.pid) - cpuBefore;
        if (r.status !== 201) throw new Error(`1 GiB PUT (${mode}) answered ${r.status}`);
        const rate = mbps(GIB, r.seconds);
        figures.push({
          name: `big bodies: 1 GiB PUT, emulator (${mode}) / discard+MD5 server`,
          value: Math.round((rate / md5Rate) * 100) / 100,
          unit: '×',
          note: `${rate} vs ${md5Rate} MiB/s; server CPU ${cpu.toFixed(2)} vs ${md5Cpu.toFixed(2)} s; goal >= ${BIG_PUT_GOAL}`,
        });
        const peak = status(emulator.child.pid, 'VmHWM') - idle;
        figures.push({ name: `big bodies: 1 GiB PUT to the emulator (${mode}), share of loopback`, value: round1(rate / loopback), unit: 'x', note: `${rate} MiB/s vs ${loopback} MiB/s` });
        figures.push({ name: `big bodies: 1 GiB PUT, emulator peak RSS above idle (${mode})`, value: Math.round(peak), unit: 'MiB', note: `idle ${Math.round(idle)} MiB` });

        if (mode === 'data-dir') {
          const boundary = 'benchBoundary';
          const prefix = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nbig.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
          const suffix = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
          const idlePost = resetPeak(emulator.child.pid);
          const post = await push(
            emulator.port,
            'POST',
            '/no-such-bucket',
            { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(prefix.byteLength + GIB + suffix.byteLength) },
            GIB,
            prefix,
            suffix,
          );
          const postPeak = status(emulator.child.pid, 'VmHWM') - idlePost;
          figures.push({
            name: 'big bodies: anonymous 1 GiB PostObject to a missing bucket, peak RSS above idle',
            value: Math.round(postPeak),
            unit: 'MiB',
            note: `${post.status === 0 ? 'connection closed by the server (before its answer was read)' : `answered ${post.status}`} after ${Math.round(post.seconds * 1000)} ms, ${Math.round(post.sent / MIB)} MiB of 1024 sent`,
          });

          const idle4 = resetPeak(emulator.child.pid);
          const path4 = '/bench-big/four-gib';
          const r4 = await push(emulator.port, 'PUT', path4, { ...(await signed(emulator.port, 'PUT', path4)), 'content-length': String(4 * GIB) }, 4 * GIB);
          figures.push({
            name: 'big bodies: 4 GiB PUT (data-dir)',
            value: mbps(4 * GIB, r4.seconds),
            unit: 'MiB/s',
            note: `status ${r4.status}; peak RSS ${Math.round(status(emulator.child.pid, 'VmHWM') - idle4)} MiB above idle`,
          });
        }
      } finally {
        await stop(emulator.child);
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.main) {
  for (const f of await benchBigBodies()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
