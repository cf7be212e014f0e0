/**
 * A metadata edit of an object above the copy limit, end to end over real HTTP:
 *
 *   npm run bench:large-copy-edit -- [--size-mib 6144] [--data-dir DIR] [--copy-limit-mib N] [--max-rss-mib 8192] [--emulator-arg X]...
 *
 * 1. starts the standalone emulator (mocks/server.ts) in a CHILD PROCESS, so its memory is its own;
 *    `--emulator-arg` passes flags through (e.g. a disk-backed storage option where the emulator has one);
 * 2. creates a real object of `--size-mib` MiB by a streamed multipart upload (256 MiB parts of random bytes,
 *    MD5 computed while sending, never held whole by this process), completed with that MD5 as its ETag;
 * 3. edits its metadata with the console's own save (src/api/metadata/save.ts → large-copy.ts): HEAD,
 *    Initiate with the full REPLACE set, conditional Upload Part - Copy of each range, HEAD, Complete, HEAD;
 * 4. reads the body back streamed and checks size and MD5, and that the metadata changed;
 * 5. prints the time of the edit and the peak RSS of both processes (this one: getrusage maxrss; the
 *    emulator: VmHWM from /proc).
 *
 * The emulator keeps bodies in memory unless given a disk-backed option, so its RSS grows by the object size.
 * A guard refuses sizes whose in-memory estimate is above `--max-rss-mib` (default 8192, shared machine), and
 * stops the run if the emulator's RSS passes it anyway. `--copy-limit-mib` lowers the emulator's copy limit
 * (and tells the console) so a smaller object still takes the multipart path; by default both use their
 * real limits (emulator 5 GiB, console 5 GB), which a 6 GiB object exceeds.
 */
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../src/api/protocol/demo.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { putBucket } from '../src/api/buckets/operations.ts';
import { createClient, type QsClient } from '../src/api/client.ts';
import type { Connection } from '../src/api/connection.ts';
import { completeMultipartUpload, initiateMultipartUpload } from '../src/api/multipart/operations.ts';
import { headObject } from '../src/api/objects/read.ts';
import { copyLimitOf, type LargeCopyProgress } from '../src/api/metadata/large-copy.ts';
import { saveMetadataEdits } from '../src/api/metadata/save.ts';

const MiB = 1024 * 1024;
const root = resolve(import.meta.dirname, '..');
const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const BUCKET = 'bench-large-copy';
const KEY = 'large/object.bin';
const UPLOAD_PART = 256 * MiB;
const CHUNK = 4 * MiB;

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '6144' },
    'copy-limit-mib': { type: 'string' },
    'max-rss-mib': { type: 'string', default: '8192' },
    'emulator-arg': { type: 'string', multiple: true, default: [] },
    /** Run the emulator on disk (--data-dir DIR, created if missing): bodies are streamed to files, not held in memory. */
    'data-dir': { type: 'string' },
  },
});
const size = Number(values['size-mib']) * MiB;
const copyLimit = values['copy-limit-mib'] === undefined ? undefined : Number(values['copy-limit-mib']) * MiB;
const maxRssMib = Number(values['max-rss-mib']);
const dataDir = values['data-dir'];
const emulatorArgs = [...values['emulator-arg'], ...(dataDir !== undefined ? ['--data-dir', dataDir, '--quiet'] : [])];
for (const [name, v] of [['size-mib', size], ['max-rss-mib', maxRssMib], ['copy-limit-mib', copyLimit ?? 1]] as const) {
  if (!Number.isSafeInteger(v) || v <= 0) throw new Error(`--${name} must be a positive whole number`);
}

/** VmRSS / VmHWM of a process in MiB (Linux /proc). */
function procMib(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  if (pid === undefined) return Number.NaN;
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function startEmulator(): Promise<ChildServer> {
  const args = [join(root, 'mocks/server.ts'), '--port', '0', '--seed', 'empty', ...(copyLimit !== undefined ? ['--copy-limit', String(copyLimit)] : []), ...emulatorArgs];
  return startChildServer(['--max-old-space-size=4096', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    what: 'emulator',
  });
}

/** Streams `length` random bytes as part `partNumber`; feeds them to `md5` too. Resolves with the part ETag. */
async function streamPart(client: QsClient, uploadId: string, partNumber: number, length: number, md5: ReturnType<typeof createHash>): Promise<string> {
  const prepared = await client.prepare({ operation: 'UploadMultipart', method: 'PUT', bucket: BUCKET, key: KEY, query: { upload_id: uploadId, part_number: partNumber } });
  const headers: Record<string, string> = {};
  prepared.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(length);
  return new Promise<string>((done, fail) => {
    const request = http.request(prepared.url, { method: 'PUT', headers }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 201 ? done(String(response.headers.etag ?? '')) : fail(new Error(`part ${partNumber}: HTTP ${response.statusCode}`))));
    });
    request.on('error', fail);
    let sent = 0;
    const pump = (): void => {
      while (sent < length) {
        const chunk = randomBytes(Math.min(CHUNK, length - sent));
        md5.update(chunk);
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      request.end();
    };
    pump();
  });
}

/** GETs the object streamed; resolves with its size and MD5. */
async function readBack(client: QsClient): Promise<{ size: number; md5: string }> {
  const prepared = await client.prepare({ operation: 'GetObject', method: 'GET', bucket: BUCKET, key: KEY });
  const headers: Record<string, string> = {};
  prepared.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return new Promise((done, fail) => {
    http
      .get(prepared.url, { headers }, (response) => {
        if (response.statusCode !== 200) return fail(new Error(`GET: HTTP ${response.statusCode}`));
        const md5 = createHash('md5');
        let n = 0;
        response.on('data', (chunk: Buffer) => {
          md5.update(chunk);
          n += chunk.length;
        });
        response.on('end', () => done({ size: n, md5: md5.digest('hex') }));
        response.on('error', fail);
      })
      .on('error', fail);
  });
}

async function main(): Promise<void> {
  const inMemory = dataDir === undefined;
  // Bodies in memory: the object, plus one part buffered on upload, plus the runtime.
  const estimateMib = Math.ceil((size + 2 * UPLOAD_PART) / MiB) + 300;
  if (inMemory && estimateMib > maxRssMib) {
    console.error(
      `large-copy-edit: a ${size / MiB} MiB object in the in-memory emulator needs about ${estimateMib} MiB of RSS, above --max-rss-mib ${maxRssMib}. ` +
        'Run a smaller --size-mib with --copy-limit-mib below it, or run the emulator on disk with --data-dir DIR.',
    );
    process.exit(2);
  }
  const { child, port } = await startEmulator();
  let peakSeen = 0;
  const watch = setInterval(() => {
    const rss = procMib(child.pid, 'VmRSS');
    peakSeen = Math.max(peakSeen, rss);
    if (rss > maxRssMib) {
      console.error(`large-copy-edit: emulator RSS ${rss.toFixed(0)} MiB passed --max-rss-mib ${maxRssMib}; stopping.`);
      child.kill('SIGKILL');
      process.exit(3);
    }
  }, 200);
  try {
    const connection: Connection = {
      endpoint: `http://127.0.0.1:${port}`,
      zoneInHost: false,
      style: 'path',
      defaultZone: 'pek3a',
      credentials,
      ...(copyLimit !== undefined ? { copyLimit } : {}),
    };
    const client = createClient(connection);
    await putBucket(client, { bucket: BUCKET });

    const createStart = performance.now();
    const { upload_id: uploadId } = await initiateMultipartUpload(client, {
      bucket: BUCKET,
      key: KEY,
      metadata: { standard: { 'content-type': 'application/octet-stream', 'cache-control': 'private, max-age=600' }, custom: { origin: 'bench' } },
    });
    const md5 = createHash('md5');
    const parts: Array<{ partNumber: number; etag: string }> = [];
    for (let offset = 0, n = 1; offset < size; offset += UPLOAD_PART, n++) {
      parts.push({ partNumber: n, etag: await streamPart(client, uploadId, n, Math.min(UPLOAD_PART, size - offset), md5) });
    }
    const bodyMd5 = md5.digest('hex');
    await completeMultipartUpload(client, { bucket: BUCKET, key: KEY, uploadId, parts, etag: bodyMd5 });
    const createSeconds = (performance.now() - createStart) / 1000;
    const base = await headObject(client, { bucket: BUCKET, key: KEY });
    if (base.size !== size) throw new Error(`created ${base.size} bytes, expected ${size}`);

    const limit = copyLimitOf(connection);
    let last: LargeCopyProgress | undefined;
    const editStart = performance.now();
    const result = await saveMetadataEdits(client, {
      visibility: { kind: 'all', reason: 'same-origin' },
      ref: { bucket: BUCKET, key: KEY },
      base,
      edits: { standard: { 'cache-control': 'no-cache' }, custom: [{ op: 'set', key: 'edited', value: 'yes' }] },
      largeCopy: {
        copyLimit: limit,
        onProgress: (p) => {
          last = p;
        },
      },
    });
    const editSeconds = (performance.now() - editStart) / 1000;
    if (result.kind !== 'saved') throw new Error(`the edit ended in a ${result.kind}`);
    const after = await headObject(client, { bucket: BUCKET, key: KEY });
    const read = await readBack(client);
    const ok = read.size === size && read.md5 === bodyMd5 && after.metadata.custom.edited === 'yes' && after.metadata.standard['cache-control'] === 'no-cache' && after.etag === base.etag;

    const emulatorPeak = Math.max(procMib(child.pid, 'VmHWM'), peakSeen);
    const benchPeak = process.resourceUsage().maxRSS / 1024;
    console.log(`object: ${size / MiB} MiB, created by multipart upload in ${createSeconds.toFixed(1)} s`);
    console.log(`emulator storage: ${inMemory ? 'in memory (bodies held in the emulator process)' : `as configured by ${emulatorArgs.join(' ')}`}`);
    console.log(`copy limit: console ${limit} bytes, emulator ${copyLimit ?? 'default (5 GiB)'}; parts copied: ${last?.partsTotal ?? 0}`);
    console.log(`large-copy edit: ${editSeconds.toFixed(2)} s (HEAD, Initiate, ${last?.partsTotal ?? 0} conditional part copies, HEAD, Complete, HEAD)`);
    console.log(`body after the edit: ${read.size} bytes, MD5 ${read.md5} ${ok ? 'unchanged, metadata changed, ETag kept' : 'MISMATCH'}`);
    console.log(`peak RSS: emulator ${emulatorPeak.toFixed(0)} MiB, bench client ${benchPeak.toFixed(0)} MiB`);
    if (!ok) process.exitCode = 1;
  } finally {
    clearInterval(watch);
    child.kill('SIGTERM');
  }
}

await main();
