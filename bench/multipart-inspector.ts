/**
 * The multipart inspector on a 10,000-part upload, in the production build, endpoint mode against the
 * standalone emulator over real HTTP, in Debian's Chromium. The emulator and the static console run in a
 * child process (bench/servers-process.ts), not in this driver's process.
 *
 * Each sample opens the upload's deep link (limit 1000) and takes the browser's own paint times (Element
 * Timing, ms since navigation start) of
 *   - the first rows: the first row of the parts table painted (page 1, straight from its own response);
 *   - the totals: the totals line across all 10,000 parts painted (every page listed);
 * cold (a new browser context: empty HTTP cache, nothing compiled) and warm (a reload of that tab). The
 * reference from the same sample is the median duration of its ListMultipart requests (Resource Timing).
 * The floor, sampled in turn with the console (bench/floors.ts): a minimal page that signs the console's own
 * first ListMultipart request in the query string, renders 50 rows of page 1, then lists pages 2–10 one
 * after another and paints a totals line; each console figure is printed over it as a ratio.
 * Then, once, paging through all pages with "Next page".
 *
 * The upload has part numbers 0..10,000 without 5,001 (10,000 parts, one gap), 16-byte bodies.
 * `npm run bench:multipart-inspector -- [samples]` prints the figures; `npm run
 * bench:multipart-inspector -- --ab <distA> <distB> [samples]` compares two builds, samples interleaved.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { createStaticSite } from '../src/serve/static.ts';
import { medianFigure, ratioFigure, restoreSession } from './first-row.ts';
import { buildFloors, FLOOR_FIRST_ROW, FLOOR_TOTALS, floorUrl, unsignedRequest } from './floors.ts';
import { markPaintOf, paintTimeOf, spread, startServersProcess, summarize, type Figure, type ServersProcess } from './lib.ts';
import { PLANTED_KEY } from './servers-process.ts';

export interface ConsoleBenchOptions {
  /** Run `vite build` first. Default: only when the build is missing. */
  build?: boolean;
  /** Built console. Default: <repo>/dist. */
  dist?: string;
  /** Chromium binary. Default: CHROMIUM_PATH or /usr/bin/chromium. */
  executablePath?: string;
}

const root = resolve(import.meta.dirname, '..');
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function ensureBuild(options: ConsoleBenchOptions): string {
  const dist = options.dist ?? join(root, 'dist');
  if (options.build === true || (options.build === undefined && !existsSync(join(dist, 'index.html')))) {
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  }
  return dist;
}

/** Serves the built console the way `npm run serve` does, without a proxy config (so no demo either way: we connect). */
export async function serveConsole(dist: string): Promise<{ url: string; close(): Promise<void> }> {
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

/** Connects the console to the emulator with the demo user through the Connect form, remembered in the tab. */
export async function connectConsole(page: Page, consoleUrl: string, emulator: { url: string }): Promise<void> {
  await page.goto(`${consoleUrl}/connect`);
  await page.getByLabel('Endpoint URL').fill(emulator.url);
  // Zones and the addressing style are under Advanced.
  const advanced = page.locator('details.connect__advanced');
  if (!(await advanced.evaluate((details: HTMLDetailsElement) => details.open))) await advanced.locator('summary').click();
  await page.getByLabel('Zones').fill('pek3a, sh1a');
  await page.getByLabel('Zone in the host name (pek3a.qingstor.com)').setChecked(false);
  await page.getByLabel('Access key ID').fill(DEMO_ACCESS_KEY_ID);
  await page.getByLabel('Secret access key').fill(DEMO_SECRET_ACCESS_KEY);
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  // A good check goes straight into the console.
  await page.getByRole('heading', { level: 1, name: 'Buckets' }).waitFor({ timeout: 30_000 });
}

const PARTS = 10_000;
/** A cell, not the row: Element Timing reports an element's own text nodes. */
const FIRST_ROW = 'table.parts-table tbody tr td';
const TOTALS = '[data-testid="totals"]';

interface InspectorSample {
  firstRows: number;
  totals: number;
  /** Median duration of the sample's ListMultipart requests. */
  request: number;
  requests: number;
}

async function measureLoad(page: Page, variant: Variant, action: () => Promise<unknown>): Promise<InspectorSample> {
  await action();
  const [firstRows, totals] = await Promise.all([page.evaluate(paintTimeOf, 'qs-first-rows'), page.evaluate(paintTimeOf, 'qs-totals')]);
  await variant.check(page);
  const durations = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('upload_id=') && !/[?&]uploads(&|=|$)/.test(e.name))
      .map((e) => e.duration),
  );
  return { firstRows, totals, request: summarize(durations).median, requests: durations.length };
}

/** The console's inspector shows page 1 of 10 and the one missing part once everything is listed. */
async function checkConsole(page: Page): Promise<void> {
  const status = (await page.getByTestId('page-status').textContent()) ?? '';
  if (!status.startsWith('Page 1 of 10: 1,000 parts')) throw new Error(`unexpected page status: ${status}`);
  const summary = (await page.getByTestId('part-map-summary').textContent()) ?? '';
  if (!summary.includes('Missing (1): 5,001.')) throw new Error(`unexpected part map summary: ${summary}`);
}

async function checkFloor(page: Page): Promise<void> {
  const totals = (await page.locator(FLOOR_TOTALS).textContent()) ?? '';
  if (!totals.startsWith(`${PARTS} parts`)) throw new Error(`floor: unexpected totals: ${totals}`);
}

interface Variant {
  label: string;
  servers: ServersProcess;
  session: Array<[string, string]>;
  /** The page opened: the console's deep link to the upload, or the floor page. */
  url: string;
  /** What is painted as the first rows and as the totals (Element Timing). */
  firstRow: string;
  totals: string;
  check: (page: Page) => Promise<void>;
  /** The console's first ListMultipart request, as sent (captured while preparing). */
  firstRequest: string;
}

async function prepareVariant(browser: Browser, label: string, dist: string, floors?: string): Promise<Variant> {
  const servers = await startServersProcess({ dist, emulator: true, plantParts: PARTS, ...(floors ? { floors } : {}) });
  const { emulator, uploadId } = servers;
  if (!emulator || !uploadId) throw new Error('servers process: no emulator');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await connectConsole(page, servers.site, { url: emulator });
  const session = await page.evaluate(() => Object.entries(sessionStorage));
  const url = deepLink(servers.site, uploadId);
  const first = page.waitForRequest((r) => r.method() === 'GET' && r.url().startsWith(emulator) && r.url().includes('upload_id=') && !r.url().includes('part_number_marker='));
  await page.goto(url);
  const firstRequest = (await first).url();
  await context.close();
  return { label, servers, session, url, firstRow: FIRST_ROW, totals: TOTALS, check: checkConsole, firstRequest };
}

/** The floor: a minimal page listing page 1 (50 rows), then the other pages one after another, and the totals. */
function floorVariant(variant: Variant): Variant {
  const floors = variant.servers.floors;
  if (!floors) throw new Error('servers process: no floors');
  const url = floorUrl(floors, 'list', { request: unsignedRequest(variant.firstRequest), accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY, kind: 'parts' });
  return { ...variant, label: 'floor', session: [], url, firstRow: FLOOR_FIRST_ROW, totals: FLOOR_TOTALS, check: checkFloor };
}

function deepLink(site: string, uploadId: string): string {
  return `${site}/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(PLANTED_KEY)}&limit=1000`;
}

async function newTab(browser: Browser, variant: Variant): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (variant.session.length > 0) await context.addInitScript(restoreSession, variant.session);
  await context.addInitScript(markPaintOf, [
    { selector: variant.firstRow, id: 'qs-first-rows' },
    { selector: variant.totals, id: 'qs-totals' },
  ]);
  return { context, page: await context.newPage() };
}

interface VariantSamples {
  cold: InspectorSample[];
  warm: InspectorSample[];
}

/** Cold and warm samples of each build, interleaved sample by sample so both see the same machine load. */
async function sampleVariants(browser: Browser, variants: readonly Variant[], samples: number): Promise<VariantSamples[]> {
  const results = variants.map((): VariantSamples => ({ cold: [], warm: [] }));
  for (let i = 0; i < samples; i++) {
    for (const [v, variant] of variants.entries()) {
      const { context, page } = await newTab(browser, variant);
      try {
        results[v]?.cold.push(await measureLoad(page, variant, () => page.goto(variant.url)));
        results[v]?.warm.push(await measureLoad(page, variant, () => page.reload()));
      } finally {
        await context.close();
      }
    }
  }
  return results;
}

function loadFigures(prefix: string, s: VariantSamples): Figure[] {
  const figures: Figure[] = [];
  for (const [when, list] of [['cold', s.cold], ['warm', s.warm]] as const) {
    const rows = summarize(list.map((x) => x.firstRows));
    const totals = summarize(list.map((x) => x.totals));
    const request = summarize(list.map((x) => x.request));
    const requests = summarize(list.map((x) => x.requests));
    figures.push(
      { name: `${prefix}first rows painted, 10,000 parts, ${when}`, value: Math.round(rows.median), unit: 'ms', note: `${spread(rows)}; navigation start → first row of page 1 painted` },
      {
        name: `${prefix}totals painted, 10,000 parts, ${when}`,
        value: Math.round(totals.median),
        unit: 'ms',
        note: `${spread(totals)}; navigation start → totals across all parts painted; ${requests.median} ListMultipart requests`,
      },
      {
        name: `${prefix}one ListMultipart request (limit 1000), ${when}`,
        value: Math.round(request.median),
        unit: 'ms',
        note: `${spread(request)} of the samples' medians; request start → response end in the browser (Resource Timing): the reference for the two above`,
      },
    );
  }
  return figures;
}

async function pageThrough(browser: Browser, variant: Variant): Promise<Figure[]> {
  const { context, page } = await newTab(browser, variant);
  try {
    await page.goto(variant.url);
    await page.getByText('Page 1 of 10: 1,000 parts').waitFor({ timeout: 60_000 });
    const pageTimes: number[] = [];
    for (let n = 2; n <= 10; n++) {
      const before = performance.now();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText(`Page ${n} of 10:`, { exact: false }).waitFor({ timeout: 60_000 });
      pageTimes.push(performance.now() - before);
    }
    if (!(await page.getByRole('button', { name: 'Next page' }).isDisabled())) throw new Error('the last page still offers "Next page"');
    const next = summarize(pageTimes);
    return [{ name: 'inspector: one Next page (1,000 parts)', value: Math.round(next.median), unit: 'ms', note: `${spread(next)}; click → "Page n of 10" shown (driver clock)` }];
  } finally {
    await context.close();
  }
}

function launch(options: ConsoleBenchOptions): Promise<Browser> {
  return chromium.launch({ executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

function floorFigures(console: VariantSamples, floor: VariantSamples): Figure[] {
  const rows = (list: InspectorSample[]) => list.map((x) => x.firstRows);
  const totals = (list: InspectorSample[]) => list.map((x) => x.totals);
  const note = 'a minimal page: the same first request signed in the query string, 50 rows of page 1, then pages 2–10 one after another and a totals line';
  return [
    medianFigure('floor: minimal page, 50 rows of page 1 of 10,000 parts: painted, cold', rows(floor.cold), note),
    medianFigure('floor: minimal page listing all 10 pages: totals painted, cold', totals(floor.cold), note),
    medianFigure('floor: minimal page, 50 rows of page 1 of 10,000 parts: painted, warm', rows(floor.warm), 'reload'),
    medianFigure('floor: minimal page listing all 10 pages: totals painted, warm', totals(floor.warm), 'reload'),
    ratioFigure('inspector first rows, cold / floor', rows(console.cold), rows(floor.cold)),
    ratioFigure('inspector totals, cold / floor', totals(console.cold), totals(floor.cold)),
    ratioFigure('inspector first rows, warm / floor', rows(console.warm), rows(floor.warm)),
    ratioFigure('inspector totals, warm / floor', totals(console.warm), totals(floor.warm)),
  ];
}

export async function benchMultipartInspector(options: ConsoleBenchOptions & { samples?: number } = {}): Promise<Figure[]> {
  const dist = ensureBuild(options);
  const floors = await buildFloors();
  const browser = await launch(options);
  let variant: Variant | undefined;
  try {
    variant = await prepareVariant(browser, 'this build', dist, floors);
    // The console and its floor, sample by sample, so both see the same machine load.
    const [samples, floor] = await sampleVariants(browser, [variant, floorVariant(variant)], options.samples ?? 7);
    if (!samples || !floor) throw new Error('no samples');
    return [...loadFigures('inspector: ', samples), ...floorFigures(samples, floor), ...(await pageThrough(browser, variant))];
  } finally {
    await browser.close();
    await variant?.servers.close();
    await rm(floors, { recursive: true, force: true });
  }
}

/** A/B: the same samples for two builds, interleaved. */
export async function compareInspectorBuilds(dists: Array<{ label: string; dist: string }>, samples: number, options: ConsoleBenchOptions = {}): Promise<Figure[]> {
  const browser = await launch(options);
  const variants: Variant[] = [];
  try {
    for (const { label, dist } of dists) variants.push(await prepareVariant(browser, label, dist));
    const results = await sampleVariants(browser, variants, samples);
    return variants.flatMap((variant, i) => loadFigures(`[${variant.label}] inspector: `, results[i] ?? { cold: [], warm: [] }));
  } finally {
    await browser.close();
    await Promise.all(variants.map((v) => v.servers.close()));
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const figures =
    args[0] === '--ab'
      ? await compareInspectorBuilds(
          [
            { label: 'A', dist: resolve(args[1] ?? '') },
            { label: 'B', dist: resolve(args[2] ?? '') },
          ],
          Number(args[3] ?? 7),
        )
      : await benchMultipartInspector({ samples: Number(args[0] ?? 7) });
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
