/**
 * "Count all" in the production build, in Debian's Chromium, beside the floor a client outside the browser
 * reaches over the same pages in the same run:
 *
 *   - demo: the demo's 100,000-object bucket (`demo-archive`, zone sh1a, answered in the page);
 *   - endpoint: a bucket of 1,000,000 keys (default; `bucketKeys`) in the standalone emulator over real HTTP
 *     (bench/servers-process.ts `bench-million`, laid out like the archive);
 *   - the floor for both: a Node loop of signed ListObjects (the console's own signing, `limit=1000`, one
 *     request after the other, following `next_marker`), against the standalone emulator's bucket with the
 *     same keys (the demo seed's `demo-archive`, and `bench-million`), i.e. the same pages.
 *
 * Each figure is the median of N samples (default 3). Every console sample is taken between two samples of
 * its floor, and the ratio is the median over the samples of console / (mean of the two floors around it), so
 * a machine whose load changes (other work running) weighs on both sides of each ratio alike; the goal is at
 * most 1.5×. Beside them, the requests each side sent: counted by the emulator for everything that reached
 * it (GET and OPTIONS), and in the page for the demo, whose requests never reach a network (no preflight
 * exists there).
 *
 * Also, as the page's own floor: a plain loop in the same page over the same pages (one `fetch` after the
 * other, `JSON.parse`, no console code), what any code in this browser reaches with one chain of requests.
 *
 * The page is driven over the DevTools protocol without Playwright's request reporting (bench/cdp.ts), as a
 * user's browser runs; Playwright only connects the console once to get the tab's session.
 *
 * `npm run bench:count-all -- [samples] [--keys N]` prints the figures (`--keys 0` skips the endpoint bucket).
 */
import { availableParallelism, loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { z } from 'zod';
import { createClient, requestInit, type QsClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { connectedSession } from './browse.ts';
import { restoreSession } from './first-row.ts';
import { launchCdp, type CdpPage } from './cdp.ts';
import { spread, startServersProcess, summarize, type Figure, type ServersProcess } from './lib.ts';
import { CHROMIUM_ARGS, ensureBuild } from './multipart-inspector.ts';
import { BIG_BUCKET } from './servers-process.ts';

export type { Figure } from './lib.ts';

export interface CountAllBenchOptions {
  /** Run `vite build` first. Default: only when dist/index.html is missing. */
  build?: boolean;
  dist?: string;
  executablePath?: string;
  /** Samples of each figure. Default 3. */
  samples?: number;
  /** Keys of the endpoint bucket. Default 1,000,000; 0 skips it. */
  bucketKeys?: number;
}

/** The goal: Count all within this factor of the floor's time. */
export const COUNT_ALL_GOAL = 1.5;

const ZONE = 'sh1a';
const DEMO_BUCKET = 'demo-archive';
const DEMO_KEYS = 100_000;

/** In the page, before its scripts: counts the page's fetches by method (the demo answers them in the page). */
function countFetches(): void {
  const counts: Record<string, number> = {};
  Object.assign(window, { benchFetches: counts });
  const counting = (target: typeof fetch): typeof fetch => (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    counts[method] = (counts[method] ?? 0) + 1;
    return target(input, init);
  };
  let current = window.fetch;
  Object.defineProperty(window, 'fetch', {
    configurable: true,
    get: () => counting(current),
    set: (next: typeof fetch) => {
      current = next;
    },
  });
}

/** In the page: resolves once the Count all button is there (the listing's first page is shown). */
function countButtonReady(): Promise<boolean> {
  const find = () => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Count all');
  return new Promise((resolve) => {
    if (find()) return resolve(true);
    const observer = new MutationObserver(() => {
      if (find()) {
        observer.disconnect();
        resolve(true);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** In the page: clicks Count all and times it until the result is shown; returns ms and the result line. */
function timeCount(): Promise<{ ms: number; text: string; fetches: Record<string, number> }> {
  const counts = (window as unknown as { benchFetches?: Record<string, number> }).benchFetches;
  for (const method of Object.keys(counts ?? {})) if (counts) counts[method] = 0;
  const output = () => document.querySelector('[data-testid="count-all"]')?.textContent ?? '';
  return new Promise((resolve, reject) => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Count all');
    if (!button) return reject(new Error('no Count all button'));
    let started = false;
    const begin = performance.now();
    const observer = new MutationObserver(() => {
      const text = output();
      if (text.startsWith('Counting')) started = true;
      else if (started && / objects? under /.test(text)) {
        observer.disconnect();
        resolve({ ms: performance.now() - begin, text, fetches: { ...(counts ?? {}) } });
      } else if (started && text.length > 0) {
        observer.disconnect();
        reject(new Error(`Count all ended with: ${text}`));
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    button.click();
  });
}

const timedSchema = z.object({ ms: z.number(), text: z.string(), fetches: z.record(z.string(), z.number()) });

/** In the page: lists every page of `url` (a signed ListObjects URL) one after the other; ms and keys. */
async function plainLoop(url: string): Promise<{ ms: number; keys: number }> {
  const began = performance.now();
  let marker = '';
  let keys = 0;
  for (;;) {
    const response = await fetch(`${url}&limit=1000${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`, { cache: 'no-store', credentials: 'omit' });
    const page = JSON.parse(await response.text()) as { keys: unknown[]; has_more: boolean; next_marker: string };
    keys += page.keys.length;
    if (!page.has_more || page.next_marker === '') break;
    marker = page.next_marker;
  }
  return { ms: performance.now() - began, keys };
}

/** The page's floor: `plainLoop` over `bucket` (paging parameters are not signed, ref §2.3: one signed URL serves every page). */
async function pageLoop(page: CdpPage, client: QsClient, servers: ServersProcess, bucket: string, expected: number, counted: boolean): Promise<Sample> {
  if (counted) await servers.requestCounts(true);
  const url = await client.presign({ method: 'GET', zone: ZONE, bucket, expiresIn: 3600 });
  const looped = await page.evaluate(z.object({ ms: z.number(), keys: z.number() }), plainLoop, url.href);
  if (looped.keys !== expected) throw new Error(`the page loop listed ${looped.keys} keys of ${bucket}, expected ${expected}`);
  const reached = counted ? ((await servers.requestCounts())[bucket] ?? {}) : {};
  return { ms: looped.ms, gets: reached.GET ?? 0, options: reached.OPTIONS ?? 0 };
}

interface Sample {
  ms: number;
  gets: number;
  options: number;
}

function countOf(text: string): number {
  return Number(/^([\d,]+) objects? under/.exec(text)?.[1]?.replaceAll(',', '') ?? Number.NaN);
}

async function consoleCount(page: CdpPage, expected: number, servers: ServersProcess, bucket: string | undefined): Promise<Sample> {
  if (bucket) await servers.requestCounts(true);
  const timed = await page.evaluate(timedSchema, timeCount, undefined);
  if (countOf(timed.text) !== expected) throw new Error(`Count all said "${timed.text}", expected ${expected} objects`);
  if (!bucket) return { ms: timed.ms, gets: timed.fetches.GET ?? 0, options: timed.fetches.OPTIONS ?? 0 };
  const reached = (await servers.requestCounts())[bucket] ?? {};
  return { ms: timed.ms, gets: reached.GET ?? 0, options: reached.OPTIONS ?? 0 };
}

/** The floor: one signed ListObjects after the other over every page of `bucket`, from Node. */
async function nodeLoop(client: QsClient, servers: ServersProcess, bucket: string, expected: number): Promise<Sample> {
  await servers.requestCounts(true);
  const pageSchema = z.object({ keys: z.array(z.object({ size: z.number() })), has_more: z.boolean(), next_marker: z.string() });
  const began = performance.now();
  let marker = '';
  let keys = 0;
  for (;;) {
    const prepared = await client.prepare({ operation: 'ListObjects', method: 'GET', zone: ZONE, bucket, query: { marker: marker || undefined, limit: 1000 } });
    const response = await fetch(prepared.url, requestInit(prepared));
    const page = pageSchema.parse(JSON.parse(await response.text()));
    keys += page.keys.length;
    if (!page.has_more || page.next_marker === '') break;
    marker = page.next_marker;
  }
  const ms = performance.now() - began;
  if (keys !== expected) throw new Error(`the Node loop listed ${keys} keys of ${bucket}, expected ${expected}`);
  const reached = (await servers.requestCounts())[bucket] ?? {};
  return { ms, gets: reached.GET ?? 0, options: reached.OPTIONS ?? 0 };
}

function figuresOf(label: string, consoleSamples: Sample[], floorSamples: Sample[], pageSamples: Sample[], where: string): Figure[] {
  const measured = summarize(consoleSamples.map((s) => s.ms));
  const floor = summarize(floorSamples.map((s) => s.ms));
  // floorSamples holds one more sample than consoleSamples: the ones before and after each console sample.
  const paired = summarize(consoleSamples.map((s, i) => s.ms / (((floorSamples[i]?.ms ?? Number.NaN) + (floorSamples[i + 1]?.ms ?? Number.NaN)) / 2)));
  const last = (samples: Sample[]) => samples[samples.length - 1] ?? { ms: 0, gets: 0, options: 0 };
  const requests = (s: Sample) => `${s.gets.toLocaleString('en-US')} GET, ${s.options.toLocaleString('en-US')} OPTIONS`;
  const ratio = Math.round(paired.median * 100) / 100;
  const plain = summarize(pageSamples.map((s) => s.ms));
  return [
    { name: `count all, ${label}: console`, value: Math.round(measured.median), unit: 'ms', note: `${spread(measured)}; ${requests(last(consoleSamples))}; ${where}` },
    { name: `count all, ${label}: Node loop`, value: Math.round(floor.median), unit: 'ms', note: `${spread(floor)}; ${requests(last(floorSamples))}; signed ListObjects one after the other, same pages, standalone emulator` },
    { name: `count all, ${label}: plain fetch loop in the page`, value: Math.round(plain.median), unit: 'ms', note: `${spread(plain)}; one fetch after the other over the same pages, no console code: the page's own floor for one chain; console / this ${(measured.median / plain.median).toFixed(2)}×` },
    { name: `count all, ${label}: console / Node loop`, value: ratio, unit: '×', note: `median of ${paired.n} paired ratios, range ${paired.min.toFixed(2)}–${paired.max.toFixed(2)}; goal <= ${COUNT_ALL_GOAL}×: ${ratio <= COUNT_ALL_GOAL ? 'met' : 'MISSED'}` },
  ];
}

export async function benchCountAll(options: CountAllBenchOptions = {}): Promise<Figure[]> {
  const dist = ensureBuild(options);
  const samples = options.samples ?? 3;
  const bucketKeys = options.bucketKeys ?? 1_000_000;
  const executablePath = options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const load = [loadavg()[0] ?? 0];
  const servers = await startServersProcess({ dist, emulator: true, countRequests: true, ...(bucketKeys > 0 ? { bucketKeys } : {}) });
  try {
    const emulator = servers.emulator;
    if (!emulator) throw new Error('servers process: no emulator');
    const client = createClient({ endpoint: emulator, zoneInHost: false, style: 'path', defaultZone: ZONE, credentials: { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY } });
    // The demo's own endpoint, answered in the demo page.
    const demoClient = createClient(DEMO_CONNECTION);
    const setup = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const { session } = await connectedSession(setup, servers, false).finally(() => setup.close());
    // Materialises the generated buckets in the emulator, so no sample pays for building them.
    await nodeLoop(client, servers, DEMO_BUCKET, DEMO_KEYS);
    if (bucketKeys > 0) await nodeLoop(client, servers, BIG_BUCKET, bucketKeys);

    const browser = await launchCdp(executablePath, CHROMIUM_ARGS);
    try {
      const demo = await browser.newPage();
      await demo.addInitScript(countFetches, undefined);
      await demo.goto(`${servers.site}/buckets/${ZONE}/${DEMO_BUCKET}`);
      await demo.evaluate(z.boolean(), countButtonReady, undefined);
      // Warm-up: builds the demo's own generated bucket in the page and compiles the code paths.
      await consoleCount(demo, DEMO_KEYS, servers, undefined);
      let endpoint: CdpPage | undefined;
      if (bucketKeys > 0) {
        endpoint = await browser.newPage();
        await endpoint.addInitScript(restoreSession, session);
        await endpoint.goto(`${servers.site}/buckets/${ZONE}/${BIG_BUCKET}?prefix=logs/2024/01/`);
        await endpoint.evaluate(z.boolean(), countButtonReady, undefined);
        await endpoint.evaluate(timedSchema, timeCount, undefined);
        await endpoint.goto(`${servers.site}/buckets/${ZONE}/${BIG_BUCKET}`);
        await endpoint.evaluate(z.boolean(), countButtonReady, undefined);
      }
      const demoConsole: Sample[] = [];
      const demoFloor: Sample[] = [];
      const demoPage: Sample[] = [];
      const bigConsole: Sample[] = [];
      const bigFloor: Sample[] = [];
      const bigPage: Sample[] = [];
      demoFloor.push(await nodeLoop(client, servers, DEMO_BUCKET, DEMO_KEYS));
      for (let i = 0; i < samples; i++) {
        demoConsole.push(await consoleCount(demo, DEMO_KEYS, servers, undefined));
        demoFloor.push(await nodeLoop(client, servers, DEMO_BUCKET, DEMO_KEYS));
        demoPage.push(await pageLoop(demo, demoClient, servers, DEMO_BUCKET, DEMO_KEYS, false));
      }
      if (endpoint) {
        bigFloor.push(await nodeLoop(client, servers, BIG_BUCKET, bucketKeys));
        for (let i = 0; i < samples; i++) {
          bigConsole.push(await consoleCount(endpoint, bucketKeys, servers, BIG_BUCKET));
          bigFloor.push(await nodeLoop(client, servers, BIG_BUCKET, bucketKeys));
          bigPage.push(await pageLoop(endpoint, client, servers, BIG_BUCKET, bucketKeys, true));
        }
      }
      load.push(loadavg()[0] ?? 0);
      const machine = `load average ${load.map((l) => l.toFixed(1)).join(' → ')} on ${availableParallelism()} cores`;
      const million = `${(bucketKeys / 1_000_000).toLocaleString('en-US')}M`;
      return [
        ...figuresOf('demo 100k', demoConsole, demoFloor, demoPage, `demo mode, answered in the page; ${machine}`),
        ...(endpoint ? figuresOf(`endpoint ${million}`, bigConsole, bigFloor, bigPage, `endpoint mode, standalone emulator over HTTP; ${machine}`) : []),
      ];
    } finally {
      await browser.close();
    }
  } finally {
    await servers.close();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const keysAt = args.indexOf('--keys');
  const bucketKeys = keysAt >= 0 ? Number(args[keysAt + 1]) : undefined;
  const positional = args.filter((a, i) => !a.startsWith('--') && (keysAt < 0 || i !== keysAt + 1));
  const figures = await benchCountAll({ samples: Number(positional[0] ?? 3), ...(bucketKeys !== undefined ? { bucketKeys } : {}) });
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
