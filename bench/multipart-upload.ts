/**
 * A 1 GiB multipart upload from Chromium into the standalone emulator over real HTTP (a project target),
 * through the console's own upload panel (production build, endpoint mode, default settings: 8 MiB parts,
 * 4 parts in parallel, Content-MD5 per part computed in the MD5 workers), beside a curl PUT of the same
 * file to the same emulator (the reference: what the line and the server can take). The console and the
 * emulator run in a process of their own (bench/servers-process.ts), so this driver's work does not slow
 * the server down. Per run:
 *
 *   - throughput: 1 GiB / (click "Upload" → the transfer shows Done, i.e. parts sent and Complete answered);
 *   - curl: 1 GiB / the time of one pre-signed PutObject of the same file (`curl -T`);
 *   - plain XHR PUTs: the file's 8 MiB slices PUT from the page as separate objects, 4 at a time, with
 *     pre-signed URLs and nothing else (no hashing, no console code): the page's transport ceiling;
 *   - one plain XHR PUT of the whole file from the page (one request, as curl sends it): the other shape of
 *     that ceiling, and the upload's floor: the console's throughput over it is the figure with
 *     a goal. The better of the two, against curl, is the most any console code could reach here;
 *   - browser / curl and browser / plain PUTs: medians of the ratios within each run (the machine's load
 *     drifts between runs; within a run the three transfers are back to back);
 *   - parts in flight: UploadMultipart requests open at once (the page's resource timings of the part
 *     requests), time-weighted from the first part sent until the last part starts, against the setting;
 *   - peak JS heap of the page's main thread while uploading (CDP Performance.getMetrics JSHeapUsedSize,
 *     sampled every 200 ms). Workers have heaps of their own (the MD5 pool); they are not included.
 *
 * Figures are medians of `runs` (default 3) runs; the objects are deleted after each transfer, so the
 * emulator (which keeps objects in memory) holds at most ~2 GiB. The file is a real file on disk (a seeded
 * 1 MiB chunk written 1,024 times to the temp directory), given to the panel's "Choose files" input, so the
 * page holds a disk-backed File as it does for a user. (A 1 GiB Blob made in the page cannot be used:
 * Chromium keeps Blobs of a non-persistent profile in memory and refuses to read one that large.)
 *
 *   npm run bench:multipart-upload -- [runs] [dist]
 *   npm run bench:multipart-upload -- --ab <distA> <distB> [runs]   (two builds, runs interleaved A, B, A, B…)
 */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { presignUrl } from '../src/api/signing.ts';
import { startServersProcess, summarize, type ServersProcess } from './lib.ts';
import type { Figure } from './lib.ts';
import { CHROMIUM_ARGS, connectConsole, ensureBuild, type ConsoleBenchOptions } from './multipart-inspector.ts';

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const PARALLEL = 4;
const BUCKET = 'demo-photos';
const run = promisify(execFile);

async function heapUsed(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
}

/** Writes `size` bytes of a seeded pseudo-random 1 MiB chunk, repeated, to a new temp file. */
async function writeTestFile(size: number): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'qsc-bench-'));
  const path = join(dir, 'bench-1gib.bin');
  const chunk = Buffer.alloc(MiB);
  let x = 42;
  for (let i = 0; i < chunk.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    chunk[i] = x & 0xff;
  }
  const out = createWriteStream(path);
  for (let done = 0; done < size; done += MiB) {
    if (!out.write(size - done >= MiB ? chunk : chunk.subarray(0, size - done))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };

function signed(emulator: string, method: string, key: string): Promise<URL> {
  return presignUrl({ method, url: new URL(`${emulator}/${BUCKET}/${key}`), credentials, expires: Math.floor(Date.now() / 1000) + 3600 });
}

/** One pre-signed request with curl; answers the HTTP status and curl's total time in seconds. */
async function curl(args: readonly string[]): Promise<{ status: number; seconds: number }> {
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', 'Expect:', ...args], { maxBuffer: MiB });
  const [status, seconds] = stdout.trim().split(' ');
  return { status: Number(status), seconds: Number(seconds) };
}

/** In the page, before its scripts: room for every request's resource timing (the default keeps 250). */
function keepResourceTimings(): void {
  performance.setResourceTimingBufferSize(100_000);
}

/**
 * UploadMultipart requests open at once, on average, time-weighted from the first part sent until the
 * last part starts (the tail, when fewer parts are left than the setting, is not the pipeline's doing).
 */
export function averageInFlight(intervals: ReadonlyArray<{ start: number; end: number }>): number {
  if (intervals.length === 0) return Number.NaN;
  const from = Math.min(...intervals.map((i) => i.start));
  const to = Math.max(...intervals.map((i) => i.start));
  if (to <= from) return Number.NaN;
  let area = 0;
  for (const { start, end } of intervals) area += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return area / (to - from);
}

/**
 * In the page: PUTs `urls.length` consecutive `partSize` slices of the file in `input`, `parallel` at a
 * time, with plain XMLHttpRequests (no hashing, no signing, no console code): the most the page's
 * transport can do, the ceiling for the console's upload. Answers the seconds it took.
 */
async function rawPuts(input: HTMLInputElement, args: { urls: string[]; partSize: number; parallel: number }): Promise<number> {
  const file = input.files?.[0];
  if (!file) throw new Error('no file');
  let next = 0;
  const started = performance.now();
  const sender = async (): Promise<void> => {
    for (let n = next++; n < args.urls.length; n = next++) {
      const url = args.urls[n] ?? '';
      const body = file.slice(n * args.partSize, (n + 1) * args.partSize);
      await new Promise<void>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', url);
        xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`PUT answered ${xhr.status}`)));
        xhr.onerror = () => reject(new Error('PUT failed'));
        xhr.send(body);
      });
    }
  };
  await Promise.all(Array.from({ length: args.parallel }, sender));
  return (performance.now() - started) / 1000;
}

interface RunFigures {
  browser: number;
  curl: number;
  /** Plain XHR PUTs of the file's 8 MiB slices from the page, 4 at a time. */
  raw: number;
  /** One plain XHR PUT of the whole file from the page. */
  rawWhole: number;
  inFlight: number;
  heapPeak: number;
  heapBefore: number;
  parts: string;
}

async function oneRun(browser: Browser, servers: ServersProcess & { emulator: string }, file: string, size: number): Promise<RunFigures> {
  const { emulator } = servers;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    await context.addInitScript(keepResourceTimings);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await connectConsole(page, servers.site, { url: emulator });
    await page.goto(`${servers.site}/buckets/pek3a/${BUCKET}`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const panel = page.getByRole('region', { name: `Upload to ${BUCKET}` });
    const heapBefore = await heapUsed(cdp);

    // The picker's own input (what "Choose files" opens); Chromium gets the path, so no bytes cross the protocol.
    await panel.getByLabel('Choose files', { exact: true }).setInputFiles(file);
    await panel.getByTestId('staged-summary').waitFor();
    const item = panel.getByRole('listitem', { name: 'bench-1gib.bin' });

    let peak = await heapUsed(cdp);
    sampler = setInterval(() => {
      heapUsed(cdp).then(
        (used) => {
          peak = Math.max(peak, used);
        },
        () => {
          // the page went away (the run is failing); the failure itself is reported by the awaited step
        },
      );
    }, 200);
    const started = performance.now();
    await panel.getByRole('button', { name: /^Upload 1 files?$/ }).click();
    await item.and(page.locator('[data-state="done"], [data-state="failed"]')).waitFor({ timeout: 15 * 60_000 });
    if ((await item.getAttribute('data-state')) !== 'done') throw new Error(`the upload failed: ${(await item.textContent()) ?? ''}`);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, await heapUsed(cdp));
    const intervals = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('part_number='))
        .map((e) => ({ start: e.startTime, end: e.startTime + e.duration })),
    );
    const flight = averageInFlight(intervals);
    const parts = /parts ([\d,]+) of ([\d,]+)/.exec((await item.textContent()) ?? '')?.[2] ?? '?';

    const head = await curl(['-I', (await signed(emulator, 'HEAD', 'bench-1gib.bin')).href]);
    if (head.status !== 200) throw new Error(`HEAD of the uploaded object answered ${head.status}`);
    await curl(['-X', 'DELETE', (await signed(emulator, 'DELETE', 'bench-1gib.bin')).href]);

    const put = await curl(['-X', 'PUT', '-T', file, (await signed(emulator, 'PUT', 'curl-1gib.bin')).href]);
    if (put.status !== 201 && put.status !== 200) throw new Error(`curl PUT answered ${put.status}`);
    await curl(['-X', 'DELETE', (await signed(emulator, 'DELETE', 'curl-1gib.bin')).href]);

    // The page's own transport, without the console: the same slices as plain PUTs of separate objects.
    const partSize = 8 * MiB;
    const keys = Array.from({ length: Math.ceil(size / partSize) }, (_, n) => `raw/part-${n}`);
    const urls = await Promise.all(keys.map(async (key) => (await signed(emulator, 'PUT', key)).href));
    const rawInput = page.locator('#qsc-bench-raw');
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'qsc-bench-raw';
      input.hidden = true;
      document.body.append(input);
    });
    await rawInput.setInputFiles(file);
    const rawSeconds = await rawInput.evaluate(rawPuts, { urls, partSize, parallel: PARALLEL });
    for (const key of keys) await fetch(await signed(emulator, 'DELETE', key), { method: 'DELETE' });
    const wholeSeconds = await rawInput.evaluate(rawPuts, { urls: [(await signed(emulator, 'PUT', 'raw/whole.bin')).href], partSize: size, parallel: 1 });
    await fetch(await signed(emulator, 'DELETE', 'raw/whole.bin'), { method: 'DELETE' });

    return { browser: size / 1e6 / seconds, curl: size / 1e6 / put.seconds, raw: size / 1e6 / rawSeconds, rawWhole: size / 1e6 / wholeSeconds, inFlight: flight, heapPeak: peak / MiB, heapBefore: heapBefore / MiB, parts };
  } finally {
    clearInterval(sampler);
    await context.close();
  }
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** The figures of a set of runs; `prefix` tells builds apart in an A/B comparison. */
function figuresOf(results: readonly RunFigures[], size: number, prefix = ''): Figure[] {
  const median = (pick: (r: RunFigures) => number) => summarize(results.map(pick));
  const range = (pick: (r: RunFigures) => number) => {
    const s = median(pick);
    const r = (n: number): number => (Math.abs(n) < 10 ? Math.round(n * 100) / 100 : round1(n));
    return `median of ${s.n}, range ${r(s.min)}–${r(s.max)}`;
  };
  const browserMb = median((r) => r.browser).median;
  const curlMb = median((r) => r.curl).median;
  const label = size % (1024 * MiB) === 0 ? `${size / (1024 * MiB)} GiB` : `${Math.round(size / MiB)} MiB`;
  const parts = results[0]?.parts ?? '?';
  return [
    { name: `${prefix}multipart upload ${label} from Chromium: throughput`, value: round1(browserMb), unit: 'MB/s', note: `${range((r) => r.browser)}; ${parts} parts of 8 MiB, ${PARALLEL} in parallel, Content-MD5 per part` },
    { name: `${prefix}curl PUT ${label} to the same emulator: throughput`, value: round1(curlMb), unit: 'MB/s', note: range((r) => r.curl) },
    { name: `${prefix}plain XHR PUTs of the 8 MiB slices from the page, ${PARALLEL} at a time: throughput`, value: round1(median((r) => r.raw).median), unit: 'MB/s', note: `${range((r) => r.raw)}; no hashing, no console code: the page's transport ceiling` },
    { name: `${prefix}one plain XHR PUT of the whole file from the page: throughput`, value: round1(median((r) => r.rawWhole).median), unit: 'MB/s', note: `${range((r) => r.rawWhole)}; one request, as curl sends it` },
    {
      name: `${prefix}upload: the page's best plain transport / curl`,
      value: Math.round(median((r) => Math.max(r.raw, r.rawWhole) / r.curl).median * 100) / 100,
      unit: '×',
      note: `median of the per-run ratios (${range((r) => Math.max(r.raw, r.rawWhole) / r.curl)}); the better of the two plain transfers above, with no hashing and no console code: the most the console could reach here`,
    },
    {
      name: `${prefix}upload: console / floor (plain XHR PUT of the same File)`,
      value: Math.round(median((r) => r.browser / r.rawWhole).median * 100) / 100,
      unit: '×',
      note: `median of the per-run ratios (${range((r) => r.browser / r.rawWhole)}); the floor: one plain XHR PUT of the whole file from the same page, in the same run`,
    },
    { name: `${prefix}upload: browser / curl`, value: Math.round(median((r) => r.browser / r.curl).median * 100) / 100, unit: '×', note: `median of the per-run ratios (${range((r) => r.browser / r.curl)}); ratio of the medians ${Math.round((browserMb / curlMb) * 100) / 100}` },
    { name: `${prefix}upload: browser / plain XHR PUTs`, value: Math.round(median((r) => r.browser / r.raw).median * 100) / 100, unit: '×', note: `median of the per-run ratios (${range((r) => r.browser / r.raw)})` },
    { name: `${prefix}upload: parts in flight`, value: Math.round((median((r) => r.inFlight).median / PARALLEL) * 100), unit: '%', note: `${Math.round(median((r) => r.inFlight).median * 100) / 100} of ${PARALLEL} on average (${range((r) => r.inFlight)}), first part sent → last part started` },
    { name: `${prefix}multipart upload ${label} from Chromium: peak JS heap (main thread)`, value: round1(median((r) => r.heapPeak).median), unit: 'MiB', note: `${range((r) => r.heapPeak)}; before the file: ${round1(median((r) => r.heapBefore).median)} MiB; sampled every 200 ms via CDP` },
  ];
}

/**
 * Runs against each build in turn, `runs` rounds (A, B, A, B, …: the machine's load drifts, so the
 * builds are compared on neighbouring runs), each build with servers of its own.
 */
async function measure(builds: ReadonlyArray<{ label: string; dist: string }>, runs: number, size: number, executablePath: string): Promise<RunFigures[][]> {
  const servers: Array<ServersProcess & { emulator: string }> = [];
  const file = await writeTestFile(size);
  let browser: Browser | undefined;
  try {
    for (const build of builds) {
      const started = await startServersProcess({ dist: build.dist, emulator: true });
      const emulator = started.emulator;
      if (emulator === undefined) {
        await started.close();
        throw new Error('the servers process started no emulator');
      }
      servers.push({ ...started, emulator });
    }
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const results: RunFigures[][] = builds.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [b, server] of servers.entries()) results[b]?.push(await oneRun(browser, server, file.path, size));
    }
    return results;
  } finally {
    await browser?.close();
    for (const server of servers) await server.close();
    await file.remove();
  }
}

export async function benchMultipartUpload(options: ConsoleBenchOptions & { sizeBytes?: number; runs?: number } = {}): Promise<Figure[]> {
  const size = options.sizeBytes ?? SIZE;
  const dist = ensureBuild(options);
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const [results = []] = await measure([{ label: '', dist }], options.runs ?? 3, size, executablePath);
  return figuresOf(results, size);
}

/** Two builds (`vite build --outDir …`), runs interleaved on the same machine. */
export async function compareUploadBuilds(builds: ReadonlyArray<{ label: string; dist: string }>, runs: number, options: ConsoleBenchOptions = {}): Promise<Figure[]> {
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const results = await measure(builds, runs, SIZE, executablePath);
  return builds.flatMap((build, i) => figuresOf(results[i] ?? [], SIZE, `[${build.label}] `));
}

function print(figures: readonly Figure[]): void {
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args[0] === '--ab') {
    const [, a, b, runs] = args;
    if (a === undefined || b === undefined) throw new Error('usage: npm run bench:multipart-upload -- --ab <distA> <distB> [runs]');
    print(await compareUploadBuilds([{ label: 'A', dist: a }, { label: 'B', dist: b }], runs === undefined ? 3 : Number(runs)));
  } else {
    const runs = args[0] === undefined ? undefined : Number(args[0]);
    const dist = args[1];
    print(await benchMultipartUpload({ ...(runs === undefined ? {} : { runs }), ...(dist === undefined ? {} : { dist }) }));
  }
}
