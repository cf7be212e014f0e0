/**
 * Browsing the 100,000-object demo bucket (`demo-archive`, zone sh1a, mocks/seed.ts) in the production
 * build, demo mode, in Debian's Chromium (headless, software rendering, like the e2e runs):
 *
 *   - time from navigation start to the first object row on screen, cold (new browser profile: the mock
 *     service worker registers and the in-page store seeds 100,000 objects) and warm (reload, worker
 *     installed; the store seeds again because it lives in the page);
 *   - frame times while scrolling the flat listing through many pages (infinite scroll, 100 keys a page):
 *     requestAnimationFrame deltas, each frame also moving the list down;
 *   - how many rows the DOM holds during and after the scroll (the list is virtualized).
 *
 * The build is served by the same static handler `npm run serve` uses, without the proxy config, so the
 * console starts in demo mode. `node bench/browse.ts` prints the figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createStaticSite } from '../src/serve/static.ts';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface BrowseBenchOptions {
  /** Run `vite build` first. Default: only when dist/index.html is missing. */
  build?: boolean;
  /** Built console. Default: <repo>/dist. */
  dist?: string;
  /** Chromium binary. Default: CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath?: string;
  /** Stop scrolling once this many rows are loaded (or after maxScrollMs). Default 3,000 (30 pages). */
  targetRows?: number;
  /** Pixels the list moves per animation frame. Default 600 (a fast fling). */
  stepPx?: number;
  maxScrollMs?: number;
}

const root = resolve(import.meta.dirname, '..');
const BUCKET_PATH = '/buckets/sh1a/demo-archive?flat=1';
const ROWS = '[role="grid"] [role="rowgroup"].object-list__body [role="row"]';

/** Runs in the page before any of its scripts: notes when the first object row is attached. */
function recordFirstRow(selector: string): void {
  const observer = new MutationObserver(() => {
    if (document.querySelector(selector)) {
      // A user-timing mark: its startTime is milliseconds since navigation start.
      performance.mark('qs-first-row');
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

interface ScrollResult {
  frames: number[];
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
        done({ frames: frames.slice(1), loadedRows: loaded(), maxDomRows, minDomRows, elapsedMs: now - started, reachedTarget });
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

async function firstRowMs(page: Page, action: () => Promise<unknown>): Promise<number> {
  await action();
  await page.waitForFunction(() => performance.getEntriesByName('qs-first-row').length > 0, undefined, { timeout: 60_000 });
  return page.evaluate(() => performance.getEntriesByName('qs-first-row')[0]?.startTime ?? Number.NaN);
}

async function serveDist(dist: string): Promise<{ url: string; close(): Promise<void> }> {
  // No CSP here: the console connects to an emulator whose address is not known yet.
  const site = createStaticSite(dist, {});
  const server = http.createServer((req, res) => site.handle(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('bench server: no TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

export async function benchBrowse(options: BrowseBenchOptions = {}): Promise<Figure[]> {
  const dist = options.dist ?? join(root, 'dist');
  if (options.build === true || (options.build === undefined && !existsSync(join(dist, 'index.html')))) {
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  }
  const targetRows = options.targetRows ?? 3000;
  const stepPx = options.stepPx ?? 600;
  const maxScrollMs = options.maxScrollMs ?? 30_000;
  const site = await serveDist(dist);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(recordFirstRow, ROWS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const cold = await firstRowMs(page, () => page.goto(`${site.url}${BUCKET_PATH}`));
    const warm = await firstRowMs(page, () => page.reload());
    const firstKey = await page.locator(ROWS).first().getAttribute('data-key');
    if (firstKey !== 'logs/2024/01/01/event-0000.json') throw new Error(`unexpected first row: ${String(firstKey)}`);

    const scroll = await page.evaluate(scrollThrough, { selector: ROWS, targetRows, stepPx, maxMs: maxScrollMs });
    await page.waitForTimeout(500);
    const domAfter = await page.locator(ROWS).count();
    const loadedAfter = Number(await page.locator('[role="grid"]').getAttribute('data-row-count'));
    if (errors.length > 0) throw new Error(`page errors during the bench: ${errors.join('; ')}`);
    if (!scroll.reachedTarget) throw new Error(`scrolling loaded only ${scroll.loadedRows} rows in ${Math.round(scroll.elapsedMs)} ms (target ${targetRows})`);

    const sorted = [...scroll.frames].sort((a, b) => a - b);
    const long = scroll.frames.filter((f) => f > 50).length;
    const pages = Math.round(scroll.loadedRows / 100);
    const scrollNote = `${scroll.frames.length} frames, ${stepPx} px/frame, ${pages} pages (${scroll.loadedRows} rows) in ${(scroll.elapsedMs / 1000).toFixed(1)} s`;
    return [
      { name: 'browse 100k demo bucket: navigation to first rows, cold', value: Math.round(cold), unit: 'ms', note: 'new profile: worker registration + seeding 100,000 objects in the page' },
      { name: 'browse 100k demo bucket: navigation to first rows, reload', value: Math.round(warm), unit: 'ms', note: 'worker installed; the in-page store seeds again' },
      { name: 'browse 100k demo bucket: scroll frame time p50', value: round1(quantile(sorted, 0.5)), unit: 'ms', note: scrollNote },
      { name: 'browse 100k demo bucket: scroll frame time p95', value: round1(quantile(sorted, 0.95)), unit: 'ms' },
      { name: 'browse 100k demo bucket: scroll frame time max', value: round1(sorted[sorted.length - 1] ?? 0), unit: 'ms', note: `${long} frames over 50 ms` },
      { name: 'browse 100k demo bucket: DOM rows during scroll (max)', value: scroll.maxDomRows, unit: 'rows', note: `min ${scroll.minDomRows}; rows loaded ${scroll.loadedRows}` },
      { name: 'browse 100k demo bucket: DOM rows after scroll', value: domAfter, unit: 'rows', note: `of ${loadedAfter} loaded` },
    ];
  } finally {
    await browser?.close();
    await site.close();
  }
}

if (import.meta.main) {
  for (const f of await benchBrowse()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
