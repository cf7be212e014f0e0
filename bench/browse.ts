/**
 * Browsing the 100,000-object demo bucket (`demo-archive`, zone sh1a, mocks/seed.ts) in the production
 * build, in Debian's Chromium (headless, software rendering, like the e2e runs). The built console (and,
 * for the reference, the standalone emulator) are served from a child process (bench/servers-process.ts).
 *
 *   - first row painted (Element Timing: the browser's paint time of the first object row, ms since
 *     navigation start), demo mode, cold (a new browser context: empty HTTP cache, the mock service worker
 *     registers) and warm (a reload of that tab), median and range of N samples (default 5); beside them a
 *     second reload, when Chromium reads the code cache it wrote for the scripts during the first (the goals
 *     are on the first reload);
 *   - the same bucket listed from the standalone emulator over HTTP (endpoint mode, seeded the same way),
 *     cold and warm, sampled in between the demo samples;
 *   - floors (bench/floors.ts), sampled in the same rounds: a minimal page signing the console's own first
 *     request in the query string and rendering 50 rows (the demo's floor as first measured, and the
 *     1M-key bucket's); the emulator started in a minimal page with the demo seed and asked through its
 *     handlers (what demo mode must do at least); a minimal React app doing the same (the floor of the JS
 *     fetched before the first row). Each console figure is printed over its floor as a ratio, the median of
 *     same-round ratios;
 *   - the JS fetched before the first row of the endpoint object browser: every script whose request
 *     started before the first row was painted (Resource Timing), files and KiB gzip -9;
 *   - frame times while scrolling the flat listing through many pages (infinite scroll, 100 keys a page):
 *     requestAnimationFrame deltas, each frame also moving the list down;
 *   - how many rows the DOM holds during and after the scroll (the list is virtualized);
 *   - a bucket of 1,000,000 keys (default; `bucketKeys`) in the standalone emulator (bench/servers-process.ts
 *     `bench-million`, generated page by page as listed): first row painted cold and warm in endpoint mode,
 *     and a scroll through 10,000 of its rows with the browser's long tasks (PerformanceObserver
 *     'longtask': main-thread work over 50 ms) counted.
 *
 * `npm run bench:browse -- [samples] [--dist <dir>] [--keys <n>]` prints the figures (`--dist`: another build, e.g. a copy
 * kept for a before/after; `--keys 0`: without the big bucket); `npm run bench:browse -- --ab <distA>
 * <distB> [samples]` compares the demo figures of two builds, samples interleaved.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { floorTarget, medianFigure, ratioFigure, restoreSession, sampleTargets, type ColdWarm, type Target } from './first-row.ts';
import { buildFloors, floorUrl, jsWeight, unsignedRequest, type FloorPage, type JsWeight } from './floors.ts';
import { startServersProcess, summarize, type Figure, type ServersProcess } from './lib.ts';
import { CHROMIUM_ARGS, connectConsole } from './multipart-inspector.ts';
import { BIG_BUCKET } from './servers-process.ts';

export type { Figure } from './lib.ts';

export interface BrowseBenchOptions {
  /** Run `vite build` first. Default: only when dist/index.html is missing. */
  build?: boolean;
  /** Built console. Default: <repo>/dist. */
  dist?: string;
  /** Chromium binary. Default: CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath?: string;
  /** Cold/warm samples of each kind. Default 5. */
  samples?: number;
  /** Stop scrolling once this many rows are loaded (or after maxScrollMs). Default 3,000 (30 pages). */
  targetRows?: number;
  /** Keys of the big bucket. Default 1,000,000; 0 skips it. */
  bucketKeys?: number;
  /** Rows to scroll through in the big bucket. Default 10,000. */
  bigTargetRows?: number;
  /** Pixels the list moves per animation frame. Default 600 (a fast fling). */
  stepPx?: number;
  maxScrollMs?: number;
}

const root = resolve(import.meta.dirname, '..');
const BUCKET_PATH = '/buckets/sh1a/demo-archive?flat=1';
const BIG_BUCKET_PATH = `/buckets/sh1a/${BIG_BUCKET}?flat=1`;
const ROWS = '[role="grid"] [role="rowgroup"].object-list__body [role="row"]';
const FIRST_KEY = 'logs/2024/01/01/event-0000.json';
const DEMO_CREDENTIALS = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };

function consoleTarget(label: string, url: string, session?: Array<[string, string]>): Target {
  // The name link of the first row: Element Timing reports an element's own text.
  return { label, url, paint: `${ROWS} a`, firstKey: FIRST_KEY, keyOf: (page) => page.locator(ROWS).first().getAttribute('data-key'), ...(session ? { session } : {}) };
}

interface Connected {
  session: Array<[string, string]>;
  /** The console's first listing request of the 100k bucket and of the big one (signed as sent). */
  listing: string;
  bigListing: string | undefined;
}

/** The first ListObjects request the console sends for `path`, as sent. */
async function firstListing(page: Page, site: string, emulator: string, path: string, bucket: string): Promise<string> {
  const request = page.waitForRequest((r) => r.method() === 'GET' && r.url().startsWith(`${emulator}/${bucket}?`), { timeout: 60_000 });
  await page.goto(`${site}${path}`);
  return (await request).url();
}

/** Connects a tab through the Connect form; answers its sessionStorage and the console's first listing requests. */
export async function connectedSession(browser: Browser, servers: ServersProcess, big: boolean): Promise<Connected> {
  const emulator = servers.emulator;
  if (!emulator) throw new Error('servers process: no emulator');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await connectConsole(page, servers.site, { url: emulator });
    const session = await page.evaluate(() => Object.entries(sessionStorage));
    const listing = await firstListing(page, servers.site, emulator, BUCKET_PATH, 'demo-archive');
    const bigListing = big ? await firstListing(page, servers.site, emulator, BIG_BUCKET_PATH, BIG_BUCKET) : undefined;
    return { session, listing, bigListing };
  } finally {
    await context.close();
  }
}

function launch(executablePath: string | undefined): Promise<Browser> {
  return chromium.launch({ executablePath: executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

const noSamples: ColdWarm = { cold: [], warm: [], settled: [], scripts: [] };

/** A/B: demo first-row figures of two builds, interleaved. */
export async function compareBrowseBuilds(dists: Array<{ label: string; dist: string }>, samples: number, executablePath?: string): Promise<Figure[]> {
  const browser = await launch(executablePath);
  const started: ServersProcess[] = [];
  try {
    const targets: Target[] = [];
    for (const { label, dist } of dists) {
      const servers = await startServersProcess({ dist });
      started.push(servers);
      targets.push(consoleTarget(label, `${servers.site}${BUCKET_PATH}`));
    }
    const results = await sampleTargets(browser, targets, samples);
    return targets.flatMap((target, i) => {
      const r = results[i] ?? noSamples;
      return [
        medianFigure(`[${target.label}] browse 100k demo bucket: first row painted, cold`, r.cold, 'new browser context'),
        medianFigure(`[${target.label}] browse 100k demo bucket: first row painted, warm`, r.warm, 'reload'),
        medianFigure(`[${target.label}] browse 100k demo bucket: first row painted, second reload`, r.settled, 'code cache read'),
      ];
    });
  } finally {
    await browser.close();
    await Promise.all(started.map((s) => s.close()));
  }
}

interface ScrollResult {
  frames: number[];
  /** Durations of the long tasks (over 50 ms) the browser reported while scrolling. */
  longTasks: number[];
  loadedRows: number;
  maxDomRows: number;
  minDomRows: number;
  elapsedMs: number;
  reachedTarget: boolean;
}

/** In the page: scrolls the grid one step per frame, recording frame deltas and DOM row counts. */
function scrollThrough(args: { selector: string; targetRows: number; stepPx: number; maxMs: number }): Promise<ScrollResult> {
  const grid = document.querySelector<HTMLElement>('[role="grid"]');
  if (!grid) throw new Error('no grid');
  const loaded = (): number => Number(grid.getAttribute('data-row-count') ?? '0');
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  return new Promise((done) => {
    const frames: number[] = [];
    let maxDomRows = 0;
    let minDomRows = Number.POSITIVE_INFINITY;
    const started = performance.now();
    let last = started;
    const frame = (now: number): void => {
      frames.push(now - last);
      last = now;
      const inDom = document.querySelectorAll(args.selector).length;
      maxDomRows = Math.max(maxDomRows, inDom);
      minDomRows = Math.min(minDomRows, inDom);
      grid.scrollTop += args.stepPx;
      const reachedTarget = loaded() >= args.targetRows;
      if (reachedTarget || now - started > args.maxMs) {
        observer.disconnect();
        done({ frames: frames.slice(1), longTasks, loadedRows: loaded(), maxDomRows, minDomRows, elapsedMs: now - started, reachedTarget });
        return;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(frame);
    });
  });
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** A long scroll in the big bucket, endpoint mode against the standalone emulator. */
async function scrollBigBucket(browser: Browser, session: Array<[string, string]>, servers: ServersProcess, label: string, targetRows: number, stepPx: number, maxMs: number): Promise<Figure[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(restoreSession, session);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${servers.site}${BIG_BUCKET_PATH}`);
    await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
    const scroll = await page.evaluate(scrollThrough, { selector: ROWS, targetRows, stepPx, maxMs });
    if (errors.length > 0) throw new Error(`page errors in the big bucket: ${errors.join('; ')}`);
    if (!scroll.reachedTarget) throw new Error(`the big bucket loaded only ${scroll.loadedRows} rows in ${Math.round(scroll.elapsedMs)} ms (target ${targetRows})`);
    const longest = Math.max(0, ...scroll.longTasks);
    return [
      {
        name: `scroll ${targetRows.toLocaleString('en-US')} rows of the ${label}: longest long task`,
        value: Math.round(longest),
        unit: 'ms',
        note: `${scroll.longTasks.length} long tasks (over 50 ms); ${scroll.loadedRows} rows loaded in ${(scroll.elapsedMs / 1000).toFixed(1)} s; DOM rows at most ${scroll.maxDomRows}`,
      },
      { name: `scroll ${targetRows.toLocaleString('en-US')} rows of the ${label}: DOM rows (max)`, value: scroll.maxDomRows, unit: 'rows', note: `min ${scroll.minDomRows}` },
    ];
  } finally {
    await context.close();
  }
}

/** The cold sample whose scripts weigh the median, weighed. */
function medianWeight(dir: string, samples: readonly string[][]): JsWeight {
  const weights = samples.map((paths) => jsWeight(dir, paths)).sort((a, b) => a.kib - b.kib);
  const middle = weights[Math.floor(weights.length / 2)];
  if (!middle) throw new Error('no cold sample recorded its scripts');
  return middle;
}

function jsFigures(name: string, weight: JsWeight, note: string): Figure[] {
  const top = weight.list.slice(0, 5).map((f) => `${f.path.replace(/^\/assets\//, '')} ${f.kib.toFixed(1)}`).join(', ');
  return [
    { name: `${name} (gzip)`, value: weight.kib, unit: 'KiB', note: `${weight.files} files; ${note}; largest: ${top}` },
    { name: `${name} (files)`, value: weight.files, unit: 'files', note },
  ];
}

/** The demo console's request for the same page: the demo host of the zone, same path and query. */
function demoRequest(listing: string): string {
  const url = new URL(listing);
  return new URL(`${url.pathname}${url.search}`, 'https://sh1a.qingstor.invalid').href;
}

export async function benchBrowse(options: BrowseBenchOptions = {}): Promise<Figure[]> {
  const dist = options.dist ?? join(root, 'dist');
  if (options.build === true || (options.build === undefined && !existsSync(join(dist, 'index.html')))) {
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  }
  const samples = options.samples ?? 5;
  const targetRows = options.targetRows ?? 3000;
  const stepPx = options.stepPx ?? 600;
  const maxScrollMs = options.maxScrollMs ?? 30_000;
  const bucketKeys = options.bucketKeys ?? 1_000_000;
  const bigTargetRows = options.bigTargetRows ?? 10_000;
  const floorsDir = await buildFloors();
  const servers = await startServersProcess({ dist, emulator: true, floors: floorsDir, ...(bucketKeys > 0 ? { bucketKeys } : {}) });
  let browser: Browser | undefined;
  try {
    const floors = servers.floors;
    if (!floors) throw new Error('servers process: no floors');
    browser = await launch(options.executablePath);
    const { session, listing, bigListing } = await connectedSession(browser, servers, bucketKeys > 0);
    const floor = (page: FloorPage, request: string) => floorUrl(floors, page, { request: unsignedRequest(request), ...DEMO_CREDENTIALS });
    const targets: Target[] = [
      consoleTarget('demo', `${servers.site}${BUCKET_PATH}`),
      floorTarget('floor: minimal page over HTTP', floor('list', listing), FIRST_KEY),
      floorTarget('floor: emulator in a minimal page', floor('demo', demoRequest(listing)), FIRST_KEY),
      consoleTarget('emulator', `${servers.site}${BUCKET_PATH}`, session),
      floorTarget('floor: minimal React app', floor('react', listing), FIRST_KEY),
      ...(bigListing ? [consoleTarget('emulator 1M', `${servers.site}${BIG_BUCKET_PATH}`, session), floorTarget('floor: minimal page, 1M', floor('list', bigListing), FIRST_KEY)] : []),
    ];
    const [demo = noSamples, floorHttp = noSamples, floorDemo = noSamples, endpoint = noSamples, react = noSamples, big, floorBig] = await sampleTargets(browser, targets, samples);
    const label = `${(bucketKeys / 1_000_000).toLocaleString('en-US')}M-key bucket`;
    const bigFigures =
      big && floorBig
        ? [
            medianFigure(`first row painted, ${label}, cold`, big.cold, 'endpoint mode, standalone emulator, new browser context'),
            medianFigure(`first row painted, ${label}, warm`, big.warm, 'reload'),
            medianFigure(`first row painted, ${label}, second reload`, big.settled, "for comparison: Chromium's code cache, written by the first reload, is read"),
            medianFigure(`floor: minimal page, first page of the ${label}: first row painted, cold`, floorBig.cold, 'the same request signed in the query string, 50 rows in a plain table'),
            medianFigure(`floor: minimal page, first page of the ${label}: first row painted, warm`, floorBig.warm, 'reload'),
            ratioFigure(`first row, ${label}, cold / floor`, big.cold, floorBig.cold),
            ratioFigure(`first row, ${label}, warm / floor`, big.warm, floorBig.warm),
            ...(await scrollBigBucket(browser, session, servers, label, bigTargetRows, stepPx, maxScrollMs)),
          ]
        : [];

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${servers.site}${BUCKET_PATH}`);
    await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
    const scroll = await page.evaluate(scrollThrough, { selector: ROWS, targetRows, stepPx, maxMs: maxScrollMs });
    // Measure once the page that scrolling last asked for has arrived (the grid is no longer busy).
    await page.locator('[role="grid"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    const domAfter = await page.locator(ROWS).count();
    const loadedAfter = Number(await page.locator('[role="grid"]').getAttribute('data-row-count'));
    await context.close();
    if (errors.length > 0) throw new Error(`page errors during the bench: ${errors.join('; ')}`);
    if (!scroll.reachedTarget) throw new Error(`scrolling loaded only ${scroll.loadedRows} rows in ${Math.round(scroll.elapsedMs)} ms (target ${targetRows})`);

    const sorted = [...scroll.frames].sort((a, b) => a - b);
    const long = scroll.frames.filter((f) => f > 50).length;
    const pages = Math.round(scroll.loadedRows / 100);
    const scrollNote = `${scroll.frames.length} frames, ${stepPx} px/frame, ${pages} pages (${scroll.loadedRows} rows) in ${(scroll.elapsedMs / 1000).toFixed(1)} s; frame times come in display-refresh steps`;
    return [
      medianFigure('browse 100k demo bucket: first row painted, cold', demo.cold, 'new browser context: worker registration, demo backend start'),
      medianFigure('browse 100k demo bucket: first row painted, warm', demo.warm, 'reload, worker installed'),
      medianFigure('browse 100k demo bucket: first row painted, second reload', demo.settled, "for comparison: Chromium's code cache written by the first reload is read"),
      medianFigure('floor: minimal page, first page of the 100k bucket from the emulator over HTTP: first row painted, cold', floorHttp.cold, "the console's request signed in the query string, 50 rows in a plain table"),
      medianFigure('floor: minimal page, first page of the 100k bucket from the emulator over HTTP: first row painted, warm', floorHttp.warm, 'reload'),
      medianFigure('floor: the emulator started in a minimal page, first page of the 100k demo bucket: first row painted, cold', floorDemo.cold, "the demo backend's emulator and seed in memory, asked through its handlers, 50 rows"),
      medianFigure('floor: the emulator started in a minimal page, first page of the 100k demo bucket: first row painted, warm', floorDemo.warm, 'reload'),
      ratioFigure('first row, demo 100k bucket, cold / floor', demo.cold, floorHttp.cold),
      ratioFigure('first row, demo 100k bucket, warm / floor', demo.warm, floorHttp.warm),
      ratioFigure('first row, demo 100k bucket, cold / in-page emulator floor', demo.cold, floorDemo.cold),
      ratioFigure('first row, demo 100k bucket, warm / in-page emulator floor', demo.warm, floorDemo.warm),
      medianFigure('browse 100k bucket from the emulator: first row painted, cold', endpoint.cold, 'endpoint mode, standalone emulator in its own process'),
      medianFigure('browse 100k bucket from the emulator: first row painted, warm', endpoint.warm, 'reload'),
      medianFigure('browse 100k bucket from the emulator: first row painted, second reload', endpoint.settled, 'code cache read'),
      ...jsFigures('JS fetched before the first row, endpoint object browser', medianWeight(dist, endpoint.scripts), 'every script the page started fetching before the first row painted (Resource Timing), cold, the median sample; weighed gzip -9'),
      ...jsFigures('floor: minimal React app, JS fetched before the first row', medianWeight(floorsDir, react.scripts), `react and react-dom of this repository, the same listing; its first row painted at ${Math.round(summarize(react.cold).median)} ms (median, cold)`),
      { name: 'browse 100k demo bucket: scroll frame time p50', value: round1(quantile(sorted, 0.5)), unit: 'ms', note: scrollNote },
      { name: 'browse 100k demo bucket: scroll frame time p95', value: round1(quantile(sorted, 0.95)), unit: 'ms' },
      { name: 'browse 100k demo bucket: scroll frame time max', value: round1(sorted[sorted.length - 1] ?? 0), unit: 'ms', note: `${long} frames over 50 ms` },
      { name: 'browse 100k demo bucket: DOM rows during scroll (max)', value: scroll.maxDomRows, unit: 'rows', note: `min ${scroll.minDomRows}; rows loaded ${scroll.loadedRows}` },
      { name: 'browse 100k demo bucket: DOM rows after scroll', value: domAfter, unit: 'rows', note: `of ${loadedAfter} loaded` },
      ...bigFigures,
    ];
  } finally {
    await browser?.close();
    await servers.close();
    await rm(floorsDir, { recursive: true, force: true });
  }
}

/** `--dist <dir>` (a build other than dist/, e.g. a copy kept for a before/after), `--keys <n>` (0 skips the big bucket). */
function cliOptions(args: readonly string[]): BrowseBenchOptions {
  const options: BrowseBenchOptions = {};
  for (let i = 0; i < args.length; i += 2) {
    const value = args[i + 1];
    if (value === undefined) throw new Error(`${args[i]} needs a value`);
    if (args[i] === '--dist') options.dist = resolve(value);
    else if (args[i] === '--keys') options.bucketKeys = Number(value);
    else throw new Error(`unknown option ${args[i]}: use [samples] [--dist <dir>] [--keys <n>]`);
  }
  return options;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const figures =
    args[0] === '--ab'
      ? await compareBrowseBuilds(
          [
            { label: 'A', dist: resolve(args[1] ?? '') },
            { label: 'B', dist: resolve(args[2] ?? '') },
          ],
          Number(args[3] ?? 5),
        )
      : await benchBrowse({ samples: Number(args[0] ?? 5), ...cliOptions(args.slice(1)) });
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
