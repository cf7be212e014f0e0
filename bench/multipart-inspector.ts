/**
 * The multipart inspector on a 10,000-part upload (a project target), in the production build, endpoint
 * mode against the standalone emulator over real HTTP, in Debian's Chromium:
 *
 *   - time from opening the upload's deep link to the totals across all pages (the inspector pages through
 *     all 10,000 parts with limit 1000: ten ListMultipart requests) and the part map;
 *   - time to page through all parts at limit 1000 with "Next page" (first page shown → page 10 of 10
 *     shown), and the median time per page.
 *
 * The upload is planted in the emulator's store: part numbers 0..10,000 (the whole legal range, ref §8)
 * without 5,001, i.e. 10,000 parts and one gap; 16-byte bodies, so the figures measure listing and
 * rendering, not bytes. `node bench/multipart-inspector.ts` prints the figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, startEmulatorServer, type RunningEmulatorServer } from '../mocks/server.ts';
import { createStaticSite } from '../src/serve/static.ts';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

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
export async function connectConsole(page: Page, consoleUrl: string, emulator: RunningEmulatorServer): Promise<void> {
  await page.goto(`${consoleUrl}/connect`);
  await page.getByLabel('Endpoint URL').fill(emulator.url);
  await page.getByLabel('Zones').fill('pek3a, sh1a');
  await page.getByLabel('Zone in the host name (pek3a.qingstor.com)').setChecked(false);
  await page.getByLabel('Access key ID').fill(DEMO_ACCESS_KEY_ID);
  await page.getByLabel('Secret access key').fill(DEMO_SECRET_ACCESS_KEY);
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  const verdict = page.locator('[data-verdict^="ok"]');
  await verdict.waitFor({ timeout: 30_000 });
  await verdict.getByRole('button', { name: 'Open the console' }).click();
  await page.getByRole('heading', { level: 1, name: 'Buckets' }).waitFor();
}

const PARTS = 10_000;
const KEY = 'bench/ten-thousand-parts.bin';

function plantUpload(emulator: RunningEmulatorServer): string {
  const { store } = emulator;
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', KEY, {});
  const body = new Uint8Array(16).fill(7);
  for (let n = 0; n <= PARTS; n++) {
    if (n === 5001) continue;
    store.uploadPart('demo-uploads', KEY, uploadId, n, { body });
  }
  return uploadId;
}

export async function benchMultipartInspector(options: ConsoleBenchOptions = {}): Promise<Figure[]> {
  const dist = ensureBuild(options);
  const emulator = await startEmulatorServer({ port: 0, seed: 'demo' });
  const site = await serveConsole(dist);
  let browser: Browser | undefined;
  try {
    const uploadId = plantUpload(emulator);
    browser = await chromium.launch({ executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await connectConsole(page, site.url, emulator);

    const link = `${site.url}/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(KEY)}&limit=1000`;
    const opened = performance.now();
    await page.goto(link);
    const status = page.getByTestId('page-status');
    await page.getByText('Page 1 of 10: 1,000 parts').waitFor({ timeout: 60_000 });
    const firstPageMs = performance.now() - opened;
    await page.getByTestId('totals').getByText('10,000 parts', { exact: false }).waitFor({ timeout: 60_000 });
    const totalsMs = performance.now() - opened;
    const summary = (await page.getByTestId('part-map-summary').textContent()) ?? '';
    if (!summary.includes('Missing (1): 5,001.')) throw new Error(`unexpected part map summary: ${summary}`);

    const pageTimes: number[] = [];
    const pagingStarted = performance.now();
    for (let n = 2; n <= 10; n++) {
      const before = performance.now();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText(`Page ${n} of 10:`, { exact: false }).waitFor({ timeout: 60_000 });
      pageTimes.push(performance.now() - before);
    }
    const pagingMs = performance.now() - pagingStarted;
    if (!(await page.getByRole('button', { name: 'Next page' }).isDisabled())) throw new Error('the last page still offers "Next page"');
    const lastStatus = (await status.textContent()) ?? '';
    pageTimes.sort((a, b) => a - b);
    const median = pageTimes[Math.floor(pageTimes.length / 2)] ?? Number.NaN;
    const round = (n: number) => Math.round(n);
    return [
      { name: 'inspector: first page of a 10,000-part upload (limit 1000)', value: round(firstPageMs), unit: 'ms', note: 'deep link opened → 1,000 rows shown' },
      { name: 'inspector: totals across all pages of 10,000 parts', value: round(totalsMs), unit: 'ms', note: 'deep link opened → totals and part map (10 ListMultipart requests of 1,000)' },
      { name: 'inspector: page through all 10,000 parts at limit 1000', value: round(firstPageMs + pagingMs), unit: 'ms', note: `first page + 9 × Next; last: "${lastStatus}"` },
      { name: 'inspector: one Next page (1,000 parts)', value: round(median), unit: 'ms', note: `median of 9; max ${round(pageTimes.at(-1) ?? Number.NaN)} ms` },
    ];
  } finally {
    await browser?.close();
    await site.close();
    await emulator.close();
  }
}

if (import.meta.main) {
  for (const f of await benchMultipartInspector()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
