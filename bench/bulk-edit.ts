/**
 * A bulk edit of 20,000 objects (Content-Type set to text/csv on a folder) in the built console, in Debian's
 * Chromium, against the standalone emulator over HTTP (endpoint mode), beside a Node reference client on the
 * same emulator in the same run: list the folder, then for each object HEAD and a copy onto itself with
 * REPLACE conditional on the ETag just read (x-qs-copy-source-if-match), 8 objects in flight. Printed:
 *
 *   - objects/s of both, and the console's share of the reference's (goal ≥ 0.5×), the console run twice:
 *     straight to the emulator (CORS: the browser preflights each copy, whose URL is new each time) and
 *     behind `npm run serve`'s same-origin proxy (no CORS, no preflight);
 *   - per object for each console run: the main thread's busy time, the journal's IndexedDB write
 *     transactions, and the pool's limit over time (bench/bulk-probe.ts);
 *   - the page's heap, sampled through CDP Runtime.getHeapUsage every 250 ms (goal < 64 MiB at its largest);
 *   - the most table rows in the DOM at any sample during the run (goal < 200: no row per object);
 *   - the requests each made per object, by method, counted by the emulator (OPTIONS are the browser's
 *     CORS preflights);
 *   - CPU milliseconds per object of Chromium (every process of the browser), the emulator, the proxy and
 *     the bench process, from /proc, for the reference, each console run and each bare page: where the
 *     time goes (BULK_TRACE=file.json also records a Chromium trace of the direct console run);
 *   - and the ceiling (bench/bulk-ceiling.ts): bare pages sending the same two requests per object (signed
 *     in Node by the console's client), through the proxy and direct, 8 to 64 in flight, from the main
 *     thread and from a Worker, each beside the mean of two reference runs around them: what Chromium
 *     allows on this machine whatever the console's code does.
 *
 * The servers run in a child process (bench/bulk-servers.ts), so neither client shares their event loop.
 * `npm run bench:bulk-edit -- [--objects N] [--pool N] [--no-floor] [--ceiling] [--floor-objects N]` runs it alone (`--pool N`: N objects in flight, fixed; `--no-floor`: without the bare pages; `--ceiling`: the reference and the bare pages only); `--million [--keys N]` runs one edit job over a bucket of 1,000,000 keys instead (by hand: it
 * takes a long while) and prints its rate, the page heap and the job journal's size in IndexedDB.
 * The 1-minute load average is printed after each run: the machine is shared, so compare ratios.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Page } from '@playwright/test';
import { z } from 'zod';
import { createClient } from '../src/api/client.ts';
import { listObjects, nextObjectsMarker } from '../src/api/objects/operations.ts';
import { headObject } from '../src/api/objects/read.ts';
import { copyObject } from '../src/api/objects/write.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { runCeiling, type FloorVariant } from './bulk-ceiling.ts';
import { countIdbWrites, describeLimits, startProbe, treeCpuSeconds, type ProbeResult } from './bulk-probe.ts';
import type { Figure } from './lib.ts';
import { CHROMIUM_ARGS, connectConsole, ensureBuild } from './multipart-inspector.ts';

const CONSOLE_BUCKET = 'bench-bulk-console';
const NODE_BUCKET = 'bench-bulk-node';
const PAGE_BUCKET = 'bench-bulk-page';
const PROXIED_BUCKET = 'bench-bulk-proxied';
const MILLION_BUCKET = 'bench-bulk-million';
const FOLDER = 'data/';

interface Servers {
  pid: number | undefined;
  site: string;
  emulator: string;
  counts(): Promise<Record<string, number>>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

const countsSchema = z.record(z.string(), z.number());

async function startServers(args: object): Promise<Servers> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bulk-servers.ts'), JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { stdout, stdin } = child;
  if (!stdout || !stdin) throw new Error('bulk servers: no pipes');
  const lines = createInterface({ input: stdout });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
  const first = z.object({ site: z.string(), emulator: z.string() }).parse(JSON.parse(await nextLine()));
  const ask = async (command: string) => {
    const answer = nextLine();
    stdin.write(`${command}\n`);
    return countsSchema.parse(JSON.parse(await answer));
  };
  return {
    ...first,
    pid: child.pid,
    counts: () => ask('counts'),
    reset: async () => {
      await ask('reset');
    },
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        stdin.end();
      }),
  };
}

/** `npm run serve` in a process of its own (as deployed: not sharing the emulator's event loop), proxying to `endpoint`. */
async function startServeProcess(dist: string, endpoint: string): Promise<{ url: string; pid: number | undefined; close(): Promise<void> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../src/serve/serve.ts'), '--endpoint', endpoint, '--port', '0', '--dist', dist], { stdio: ['ignore', 'pipe', 'inherit'] });
  const { stdout } = child;
  if (!stdout) throw new Error('serve: no stdout');
  const lines = createInterface({ input: stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^QingStor console: (http:\/\/[^/]+)\//.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

function perObject(counts: Record<string, number>, objects: number): { total: number; note: string } {
  const total = Object.values(counts).reduce((a, b) => a + b, 0) / objects;
  const note = Object.entries(counts)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([method, n]) => `${method} ${(n / objects).toFixed(3)}`)
    .join(', ');
  return { total, note };
}

function benchClient(emulator: string) {
  return createClient({ endpoint: emulator, zoneInHost: false, style: 'path', defaultZone: 'pek3a', credentials: { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY } });
}

/** The reference: a Node client of the console's own api code, HEAD + conditional REPLACE copy, 8 in flight. */
async function referenceRun(emulator: string, objects: number): Promise<number> {
  const client = benchClient(emulator);
  const started = performance.now();
  // The listing streams into a queue that 8 workers drain: no pause at the end of each page.
  const queue: string[] = [];
  let marker: string | undefined = '';
  let listing: Promise<void> | undefined;
  const refill = () =>
    (listing ??= (async () => {
      const page = await listObjects(client, { zone: 'pek3a', bucket: NODE_BUCKET, prefix: FOLDER, marker, limit: 1000 });
      queue.push(...page.keys.map((k) => k.key));
      marker = nextObjectsMarker(page);
      listing = undefined;
    })());
  let edited = 0;
  const worker = async () => {
    for (;;) {
      if (queue.length < 50 && marker !== undefined) void refill();
      if (queue.length === 0) {
        if (marker === undefined && listing === undefined) return;
        await refill();
        continue;
      }
      const key = queue.shift() ?? '';
      const ref = { zone: 'pek3a', bucket: NODE_BUCKET, key };
      const head = await headObject(client, ref);
      const metadata = { ...head.metadata, standard: { ...head.metadata.standard, 'content-type': 'text/csv' } };
      await copyObject(client, { ...ref, source: { bucket: NODE_BUCKET, key }, directive: 'REPLACE', metadata, ...(head.etag ? { conditions: { ifMatch: head.etag } } : {}) });
      edited += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  if (edited !== objects) throw new Error(`reference edited ${edited} objects, expected ${objects}`);
  return performance.now() - started;
}

interface ConsoleRun extends ProbeResult {
  ms: number;
  journalBytes?: number;
}

async function consoleRun(page: Page, path: string, confirm: string | null, count: string, objects: number): Promise<ConsoleRun> {
  await page.goto(path);
  await page.getByTestId('listing-status').waitFor();
  // The folder's (or, at the root, the bucket's) bulk job is in the toolbar's More actions menu.
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: confirm === null ? 'Bulk-edit this folder…' : 'Bulk-edit the whole bucket…', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('bulk-listed').filter({ hasText: `${count} objects` }).waitFor({ timeout: 3_600_000 });
  await dialog.getByLabel('Content-Type', { exact: true }).selectOption({ label: 'Set to' });
  await dialog.getByLabel('New value of Content-Type').fill('text/csv');
  if (confirm !== null) await dialog.getByLabel('Type the bucket’s name to confirm').fill(confirm);
  const probe = await startProbe(page);
  const started = performance.now();
  await dialog.getByRole('button', { name: `Apply to ${count} objects` }).click();
  await dialog.getByTestId('job-phase').filter({ hasText: 'Finished.' }).waitFor({ timeout: 24 * 3_600_000 });
  const ms = performance.now() - started;
  const probed = await probe.stop();
  const summary = (await dialog.getByTestId('job-summary').textContent()) ?? '';
  if (!summary.startsWith(`${count} of ${count} done: ${count} changed`)) throw new Error(`console job ended with: ${summary}`);
  const journalBytes = objects >= 100_000 ? await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0) : undefined;
  return { ms, ...probed, ...(journalBytes !== undefined ? { journalBytes } : {}) };
}

/** Figures of one console run: rate, ratio to the reference, main thread, journal writes, pool, requests. */
function consoleFigures(label: string, run: ConsoleRun, counts: Record<string, number>, objects: number, referenceRate: number): Figure[] {
  const rate = objects / (run.ms / 1000);
  const c = perObject(counts, objects);
  const ms = (seconds: number) => ((seconds * 1000) / objects).toFixed(2);
  return [
    { name: `bulk edit: ${label} / reference`, value: Math.round((rate / referenceRate) * 1000) / 1000, unit: '×', note: `${Math.round(rate)} objects/s in ${(run.ms / 1000).toFixed(1)} s` },
    { name: `bulk edit: ${label} requests per object`, value: Math.round(c.total * 1000) / 1000, unit: 'requests', note: c.note },
    { name: `bulk edit: ${label} main thread per object`, value: Number(ms(run.busy.task)), unit: 'ms', note: `script ${ms(run.busy.script)} ms, style and layout ${ms(run.busy.layout)} ms` },
    { name: `bulk edit: ${label} journal write transactions per object`, value: Math.round((run.idbWrites / objects) * 1000) / 1000, unit: 'transactions', note: `${run.idbWrites} readwrite IndexedDB transactions` },
    { name: `bulk edit: ${label} objects in flight (the pool's limit)`, value: run.limits.length > 0 ? Math.max(...run.limits) : 0, unit: 'at most', note: describeLimits(run.limits) },
  ];
}

const load = () => (loadavg()[0] ?? 0).toFixed(1);

/** CPU seconds so far of the emulator, the proxy, this process (the reference's client), and Chromium (the rest of this process's tree). */
function cpuNow(emulatorPid: number | undefined, proxyPid: number | undefined) {
  const own = process.cpuUsage();
  const self = (own.user + own.system) / 1e6;
  const emulator = treeCpuSeconds(emulatorPid);
  const proxy = treeCpuSeconds(proxyPid);
  return { emulator, proxy, self, chromium: treeCpuSeconds(process.pid) - emulator - proxy - self };
}

type Cpu = ReturnType<typeof cpuNow>;

/** "emulator 0.81 ms, proxy …": CPU milliseconds per object of each process between two samples. */
function cpuNote(before: Cpu, after: Cpu, objects: number): string {
  const per = (k: keyof Cpu) => `${k === 'self' ? 'bench process (the reference client)' : k} ${(((after[k] - before[k]) * 1000) / objects).toFixed(2)} ms`;
  return (['chromium', 'emulator', 'proxy', 'self'] as const).map(per).join(', ');
}

export interface BulkEditBenchOptions {
  objects?: number;
  dist?: string;
  build?: boolean;
  /** Pins the console's pool (`{"initial":n,"min":n,"max":n}`) instead of its adaptive default. */
  pool?: { initial: number; min: number; max: number };
  /** Leaves out the ceiling's bare pages (`--no-floor`: a long run's time goes to the console and the reference). */
  floor?: boolean;
  /** Objects each bare page edits (`--floor-objects N`, default min(objects, 2,000)): 16 variants run. */
  floorObjects?: number;
  /** `--ceiling`: the reference and the bare pages only, no console run. */
  console?: boolean;
}

export async function benchBulkEdit(options: BulkEditBenchOptions = {}): Promise<Figure[]> {
  const objects = options.objects ?? 20_000;
  const dist = ensureBuild(options);
  const servers = await startServers({ dist, buckets: { [CONSOLE_BUCKET]: objects, [PROXIED_BUCKET]: objects, [NODE_BUCKET]: objects, [PAGE_BUCKET]: objects } });
  const serve = await startServeProcess(dist, servers.emulator);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const loads = [load()];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(countIdbWrites);
    await connectConsole(page, servers.site, { url: servers.emulator });
    const proxiedPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await proxiedPage.addInitScript(countIdbWrites);
    await connectConsole(proxiedPage, serve.url, { url: servers.emulator });
    for (const p of [page, proxiedPage]) if (options.pool) await p.evaluate((pool) => localStorage.setItem('qsc.jobs.pool', pool), JSON.stringify(options.pool));
    const count = objects.toLocaleString('en-US');
    const label = `bulk edit ${count} objects`;
    // The reference first, then the console (straight to the endpoint, then through the proxy), on buckets
    // seeded alike (each edit changes every object once), then the ceiling's pages and the reference again.
    const cpu = () => cpuNow(servers.pid, serve.pid);
    const cpuNotes: string[] = [];
    await servers.reset();
    let cpuBefore = cpu();
    const referenceMs = await referenceRun(servers.emulator, objects);
    const referenceCounts = await servers.counts();
    loads.push(load());
    let cpuAfter = cpu();
    cpuNotes.push(`reference: ${cpuNote(cpuBefore, cpuAfter, objects)}`);
    const r = perObject(referenceCounts, objects);
    const referenceRate = objects / (referenceMs / 1000);
    const figures: Figure[] = [{ name: `${label}: Node reference (HEAD + conditional REPLACE copy, 8 in flight)`, value: Math.round(referenceRate), unit: 'objects/s', note: `${(referenceMs / 1000).toFixed(1)} s, same emulator, load ${loads.at(-1)}` }];
    let consoleRate: number | undefined;
    if (options.console !== false) {
      await servers.reset();
      cpuBefore = cpu();
      // BULK_TRACE=file.json: a Chromium trace of the direct console run (devtools.timeline), for a profile.
      const trace = process.env['BULK_TRACE'];
      if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'IndexedDB', 'v8'] });
      const run = await consoleRun(page, `${servers.site}/buckets/pek3a/${CONSOLE_BUCKET}?prefix=${encodeURIComponent(FOLDER)}`, null, count, objects);
      if (trace) await browser.stopTracing();
      const consoleCounts = await servers.counts();
      loads.push(load());
      cpuAfter = cpu();
      cpuNotes.push(`console: ${cpuNote(cpuBefore, cpuAfter, objects)}`);
      await servers.reset();
      cpuBefore = cpu();
      const proxiedRun = await consoleRun(proxiedPage, `${serve.url}/buckets/pek3a/${PROXIED_BUCKET}?prefix=${encodeURIComponent(FOLDER)}`, null, count, objects);
      const proxiedCounts = await servers.counts();
      loads.push(load());
      cpuAfter = cpu();
      cpuNotes.push(`console through the proxy: ${cpuNote(cpuBefore, cpuAfter, objects)}`);
      consoleRate = objects / (run.ms / 1000);
      const heapMax = Math.max(run.heapMax, proxiedRun.heapMax);
      figures.push(
        { name: `${label}: console`, value: Math.round(consoleRate), unit: 'objects/s', note: `${(run.ms / 1000).toFixed(1)} s, endpoint mode straight to the emulator (CORS), load ${loads.at(-2)}` },
        { name: `${label}: console through the proxy`, value: Math.round(objects / (proxiedRun.ms / 1000)), unit: 'objects/s', note: `${(proxiedRun.ms / 1000).toFixed(1)} s, behind npm run serve's same-origin proxy in its own process (no CORS), load ${loads.at(-1)}` },
        { name: 'bulk edit: console / reference', value: Math.round((consoleRate / referenceRate) * 1000) / 1000, unit: '×' },
        ...consoleFigures('console', run, consoleCounts, objects, referenceRate).slice(1),
        ...consoleFigures('console through the proxy', proxiedRun, proxiedCounts, objects, referenceRate),
        { name: 'bulk edit: page heap (max)', value: Math.round((heapMax / 1024 / 1024) * 10) / 10, unit: 'MiB', note: 'both console runs, CDP Runtime.getHeapUsage every 250 ms' },
        { name: 'bulk edit: table rows in the DOM (max)', value: Math.max(run.rowsMax, proxiedRun.rowsMax), unit: 'rows', note: 'both console runs, tr and role=row, sampled every 100 ms' },
      );
    }
    if (options.floor !== false) {
      const floorObjects = Math.min(objects, options.floorObjects ?? 2000);
      const variants: Array<FloorVariant & { load: string; cpu: string }> = [];
      let cpuMark = cpu();
      await runCeiling({ browser, emulator: servers.emulator, site: servers.site, serve: serve.url, bucket: PAGE_BUCKET, objects: floorObjects, onVariant: (v) => {
          const cpuNext = cpu();
          // The bench process signs each variant's requests here: its share is not the page's.
          variants.push({ ...v, load: load(), cpu: cpuNote(cpuMark, cpuNext, floorObjects).replace(/, bench process.*$/, '') });
          cpuMark = cpuNext;
          console.error(`ceiling: ${v.route} ${v.where} ${v.inFlight} in flight: ${Math.round(floorObjects / (v.ms / 1000))} objects/s, load ${load()}`);
        } });
      loads.push(load());
      const againMs = await referenceRun(servers.emulator, objects);
      loads.push(load());
      const againRate = objects / (againMs / 1000);
      figures.push({ name: `${label}: Node reference again, after the ceiling's pages`, value: Math.round(againRate), unit: 'objects/s', note: `load ${loads.at(-1)}` });
      // Each page variant beside the mean of the two reference runs around it.
      const meanReference = (referenceRate + againRate) / 2;
      for (const v of variants) {
        const rate = floorObjects / (v.ms / 1000);
        figures.push({ name: `ceiling: bare page, ${v.route === 'proxy' ? 'through the proxy' : 'direct (CORS)'}, ${v.where === 'main' ? 'main thread' : 'Worker'}, ${v.inFlight} in flight`, value: Math.round(rate), unit: 'objects/s', note: `${(rate / meanReference).toFixed(3)}× the reference, ${floorObjects} objects, load ${v.load}; CPU per object: ${v.cpu}` });
      }
      const best = variants.reduce((a, b) => (a.ms <= b.ms ? a : b));
      figures.push({ name: 'bulk edit: best bare page / reference', value: Math.round((floorObjects / (best.ms / 1000) / meanReference) * 1000) / 1000, unit: '×', note: `${best.route}, ${best.where}, ${best.inFlight} in flight` });
      if (consoleRate !== undefined) figures.push({ name: 'bulk edit: console / best bare page', value: Math.round((consoleRate / (floorObjects / (best.ms / 1000))) * 1000) / 1000, unit: '×' });
    }
    figures.push(
      ...cpuNotes.map((note) => ({ name: `bulk edit: CPU per object, ${note.slice(0, note.indexOf(':'))}`, value: Number(note.match(/chromium ([\d.]+)/)?.[1] ?? 0), unit: 'ms of Chromium', note: note.slice(note.indexOf(':') + 2) })),
      { name: 'bulk edit: reference requests per object', value: Math.round(r.total * 1000) / 1000, unit: 'requests', note: r.note },
      { name: 'bulk edit: load average (1 min)', value: Number(loads.at(-1)), unit: '', note: `after each phase (start, reference, consoles, ceiling, reference again, as run): ${loads.join(', ')} on ${availableParallelism()} cores` },
    );
    return figures;
  } finally {
    await browser.close();
    await serve.close();
    await servers.close();
  }
}

/** One bulk edit over a bucket of `keys` keys (the archive layout, generated as listed): rate, heap, journal. */
export async function benchMillion(keys = 1_000_000, options: { dist?: string } = {}): Promise<Figure[]> {
  const dist = ensureBuild(options);
  const servers = await startServers({ dist, bigBucket: { name: MILLION_BUCKET, keys } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await connectConsole(page, servers.site, { url: servers.emulator });
    const count = keys.toLocaleString('en-US');
    const run = await consoleRun(page, `${servers.site}/buckets/pek3a/${MILLION_BUCKET}`, MILLION_BUCKET, count, keys);
    const counts = perObject(await servers.counts(), keys);
    return [
      { name: `bulk edit ${count} objects (whole bucket): console`, value: Math.round(keys / (run.ms / 1000)), unit: 'objects/s', note: `${(run.ms / 60_000).toFixed(1)} min` },
      { name: 'bulk edit 1M: page heap (max)', value: Math.round((run.heapMax / 1024 / 1024) * 10) / 10, unit: 'MiB' },
      { name: 'bulk edit 1M: table rows in the DOM (max)', value: run.rowsMax, unit: 'rows' },
      { name: 'bulk edit 1M: origin storage used (the job journal)', value: Math.round(((run.journalBytes ?? 0) / 1024 / 1024) * 10) / 10, unit: 'MiB', note: 'navigator.storage.estimate()' },
      { name: 'bulk edit 1M: requests per object', value: Math.round(counts.total * 1000) / 1000, unit: 'requests', note: counts.note },
    ];
  } finally {
    await browser.close();
    await servers.close();
  }
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  const fixed = value('--pool');
  const figures = argv.includes('--million')
    ? await benchMillion(value('--keys') ?? 1_000_000)
    : await benchBulkEdit({ objects: value('--objects') ?? 20_000, floor: !argv.includes('--no-floor'), console: !argv.includes('--ceiling'), ...(value('--floor-objects') ? { floorObjects: value('--floor-objects') } : {}), ...(fixed ? { pool: { initial: fixed, min: fixed, max: fixed } } : {}) });
  for (const figure of figures) console.log(`${figure.name}: ${figure.value.toLocaleString('en-US')} ${figure.unit}${figure.note ? ` (${figure.note})` : ''}`);
}

