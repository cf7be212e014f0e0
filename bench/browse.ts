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
 *   - the reference from the same run: the same bucket listed from the standalone emulator over HTTP
 *     (endpoint mode, seeded the same way), cold and warm, sampled in between the demo samples;
 *   - frame times while scrolling the flat listing through many pages (infinite scroll, 100 keys a page):
 *     requestAnimationFrame deltas, each frame also moving the list down;
 *   - how many rows the DOM holds during and after the scroll (the list is virtualized);
 *   - a bucket of 1,000,000 keys (default; `bucketKeys`) in the standalone emulator (bench/servers-process.ts
 *     `bench-million`, generated page by page as listed): first row painted cold and warm in endpoint mode,
 *     and a scroll through 10,000 of its rows with the browser's long tasks (PerformanceObserver
 *     'longtask': main-thread work over 50 ms) counted.
 *
 * `npm run bench:browse -- [samples]` prints the figures; `npm run bench:browse -- --ab <distA>
 * <distB> [samples]` compares the demo figures of two builds, samples interleaved.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { markPaintOf, paintTimeOf, spread, startServersProcess, summarize, type Figure, type ServersProcess } from './lib.ts';
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

/** In the page before its scripts: restores the tab's sessionStorage (a remembered connection). */
function restoreSession(entries: Array<[string, string]>): void {
  if (sessionStorage.length > 0) return;
  for (const [key, value] of entries) sessionStorage.setItem(key, value);
}

async function firstRowPainted(page: Page, action: () => Promise<unknown>): Promise<number> {
  await action();
  const time = await page.evaluate(paintTimeOf, 'qs-first-row');
  const firstKey = await page.locator(ROWS).first().getAttribute('data-key');
  if (firstKey !== FIRST_KEY) throw new Error(`unexpected first row: ${String(firstKey)}`);
  return time;
}

interface Target {
  label: string;
  servers: ServersProcess;
  /** sessionStorage of a connected tab (endpoint mode); undefined: demo mode. */
  session?: Array<[string, string]>;
  /** The page opened; default the demo archive, flat. */
  path?: string;
}

interface ColdWarm {
  cold: number[];
  /** The first reload: Chromium compiles the scripts again and writes V8's code cache for them. */
  warm: number[];
  /** A second reload: the scripts' code comes from that cache. */
  settled: number[];
}

async function sampleOnce(browser: Browser, target: Target, into: ColdWarm): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (target.session) await context.addInitScript(restoreSession, target.session);
    // The name link of the first row: Element Timing reports an element's own text.
    await context.addInitScript(markPaintOf, [{ selector: `${ROWS} a`, id: 'qs-first-row' }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    into.cold.push(await firstRowPainted(page, () => page.goto(`${target.servers.site}${target.path ?? BUCKET_PATH}`)));
    into.warm.push(await firstRowPainted(page, () => page.reload()));
    into.settled.push(await firstRowPainted(page, () => page.reload()));
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

async function connectedSession(browser: Browser, servers: ServersProcess): Promise<Array<[string, string]>> {
  if (!servers.emulator) throw new Error('servers process: no emulator');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await connectConsole(page, servers.site, { url: servers.emulator });
    return await page.evaluate(() => Object.entries(sessionStorage));
  } finally {
    await context.close();
  }
}

/** Samples every target in turn, N rounds, so all of them see the same machine load. */
async function sampleTargets(browser: Browser, targets: readonly Target[], samples: number): Promise<ColdWarm[]> {
  const results = targets.map((): ColdWarm => ({ cold: [], warm: [], settled: [] }));
  for (let i = 0; i < samples; i++) {
    for (const [t, target] of targets.entries()) await sampleOnce(browser, target, results[t] ?? { cold: [], warm: [], settled: [] });
  }
  return results;
}

function launch(executablePath: string | undefined): Promise<Browser> {
  return chromium.launch({ executablePath: executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A/B: demo first-row figures of two builds, interleaved. */
export async function compareBrowseBuilds(dists: Array<{ label: string; dist: string }>, samples: number, executablePath?: string): Promise<Figure[]> {
  const browser = await launch(executablePath);
  const targets: Target[] = [];
  try {
    for (const { label, dist } of dists) targets.push({ label, servers: await startServersProcess({ dist }) });
    const results = await sampleTargets(browser, targets, samples);
    return targets.flatMap((target, i) => {
      const r = results[i] ?? { cold: [], warm: [], settled: [] };
      const cold = summarize(r.cold);
      const warm = summarize(r.warm);
      const settled = summarize(r.settled);
      return [
        { name: `[${target.label}] browse 100k demo bucket: first row painted, cold`, value: Math.round(cold.median), unit: 'ms', note: spread(cold) },
        { name: `[${target.label}] browse 100k demo bucket: first row painted, warm`, value: Math.round(warm.median), unit: 'ms', note: spread(warm) },
        { name: `[${target.label}] browse 100k demo bucket: first row painted, second reload`, value: Math.round(settled.median), unit: 'ms', note: spread(settled) },
      ];
    });
  } finally {
    await browser.close();
    await Promise.all(targets.map((t) => t.servers.close()));
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

/** First row painted and a long scroll in the big bucket, endpoint mode against the standalone emulator. */
async function benchBigBucket(
  browser: Browser,
  session: Array<[string, string]>,
  servers: ServersProcess,
  times: ColdWarm,
  keys: number,
  targetRows: number,
  stepPx: number,
  maxMs: number,
): Promise<Figure[]> {
  const label = `${(keys / 1_000_000).toLocaleString('en-US')}M-key bucket`;
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
    const cold = summarize(times.cold);
    const warm = summarize(times.warm);
    const settled = summarize(times.settled);
    const longest = Math.max(0, ...scroll.longTasks);
    return [
      { name: `first row painted, ${label}, cold`, value: Math.round(cold.median), unit: 'ms', note: `${spread(cold)}; endpoint mode, standalone emulator, new browser context` },
      { name: `first row painted, ${label}, warm`, value: Math.round(warm.median), unit: 'ms', note: `${spread(warm)}; reload` },
      { name: `first row painted, ${label}, second reload`, value: Math.round(settled.median), unit: 'ms', note: `${spread(settled)}; for comparison: Chromium's code cache, written by the first reload, is read` },
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
  const servers = await startServersProcess({ dist, emulator: true, ...(bucketKeys > 0 ? { bucketKeys } : {}) });
  let browser: Browser | undefined;
  try {
    browser = await launch(options.executablePath);
    const session = await connectedSession(browser, servers);
    const demo: Target = { label: 'demo', servers };
    const emulator: Target = { label: 'emulator', servers, session };
    const big: Target = { label: 'emulator 1M', servers, session, path: BIG_BUCKET_PATH };
    const [demoTimes, emulatorTimes, bigTimes] = await sampleTargets(browser, bucketKeys > 0 ? [demo, emulator, big] : [demo, emulator], samples);
    if (!demoTimes || !emulatorTimes) throw new Error('no samples');
    const bigFigures = bucketKeys > 0 && bigTimes ? await benchBigBucket(browser, session, servers, bigTimes, bucketKeys, bigTargetRows, stepPx, maxScrollMs) : [];

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
    const figure = (name: string, values: number[], note: string): Figure => {
      const sample = summarize(values);
      return { name, value: Math.round(sample.median), unit: 'ms', note: `${spread(sample)}; ${note}` };
    };
    return [
      figure('browse 100k demo bucket: first row painted, cold', demoTimes.cold, 'new browser context: worker registration, demo backend start'),
      figure('browse 100k demo bucket: first row painted, warm', demoTimes.warm, 'reload, worker installed'),
      figure('browse 100k demo bucket: first row painted, second reload', demoTimes.settled, "for comparison: Chromium's code cache written by the first reload is read"),
      figure('browse 100k bucket from the emulator: first row painted, cold', emulatorTimes.cold, 'reference: endpoint mode, standalone emulator in its own process'),
      figure('browse 100k bucket from the emulator: first row painted, warm', emulatorTimes.warm, 'reference: reload'),
      figure('browse 100k bucket from the emulator: first row painted, second reload', emulatorTimes.settled, 'reference: code cache read'),
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
  }
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
      : await benchBrowse({ samples: Number(args[0] ?? 5) });
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
