/**
 * The ceiling of a bulk edit in Chromium on this machine: the strongest page that does what the console's
 * job does per object (a signed HEAD, then the copy onto itself with REPLACE, conditional on the ETag:
 * x-qs-copy-source-if-match), with no console code at all. Every request is signed beforehand in Node by
 * the console's own client (signing costs the page nothing; 1,000 objects at a time, so no signature
 * outlives its 15 minutes), and the page only sends them: a bare loop of `fetch`, N objects in flight,
 * checking each answer's status. Variants:
 *
 *   - route: `proxy` (the same-origin proxy of `npm run serve`, in its own process: no CORS, no preflight)
 *     or `direct` (straight to the emulator: the HEAD is signed in its query, a simple request; each copy
 *     PUT has a new URL, so Chromium preflights each one);
 *   - in flight: 8, 16, 32, 64 objects at once;
 *   - where: the page's main thread, or a dedicated Worker of the same page.
 *
 * The page is a document of the route's origin with no script (blankPage), its Worker made from a Blob.
 * The objects' ETags are known beforehand (MD5 of the seeded bodies, and a copy onto itself keeps the
 * body), so the same bucket is edited again by every variant.
 */
import { createHash } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { createClient } from '../src/api/client.ts';
import { copyObjectHeaders } from '../src/api/objects/write.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { benchKey, benchMetadata } from './bulk-servers.ts';

export type FloorRoute = 'proxy' | 'direct';
export type FloorWhere = 'main' | 'worker';

export interface FloorVariant {
  route: FloorRoute;
  where: FloorWhere;
  inFlight: number;
  ms: number;
}

interface PlainRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
}

interface FloorItem {
  head: PlainRequest;
  copy: PlainRequest;
}

/** Runs in the page or its Worker: the batch's objects, `inFlight` at a time; answers the milliseconds spent. */
async function sendBatch(batch: FloorItem[], inFlight: number): Promise<number> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const send = (r: PlainRequest, init: RequestInit) =>
    fetch(r.url, { method: r.method, headers: r.headers, credentials: 'omit', ...init }).catch((error: unknown) => {
      throw new Error(`${r.method} ${r.url}: ${String(error)}`);
    });
  const worker = async () => {
    for (let item = batch[next++]; item; item = batch[next++]) {
      const head = await send(item.head, { cache: 'no-store' });
      const copy = await send(item.copy, {});
      if (!head.ok || copy.status !== 201) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  if (failed > 0) throw new Error(`${failed} plain requests failed`);
  return performance.now() - started;
}

interface FloorGlobals {
  floorWorker: Worker;
  floorModule: Promise<{ default: typeof sendBatch }>;
}

/** In the page: sendBatch as a Blob module for the main thread, and a Worker running it on each message, kept on globalThis. */
function installWorker(source: string): void {
  const blob = (code: string) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const code = `const sendBatch = ${source};\nonmessage = (e) => sendBatch(e.data.batch, e.data.inFlight).then((ms) => postMessage({ ms }), (error) => postMessage({ error: String(error) }));`;
  const g = globalThis as unknown as FloorGlobals;
  g.floorWorker = new Worker(blob(code));
  g.floorModule = import(/* @vite-ignore */ blob(`export default ${source};`)) as FloorGlobals['floorModule'];
}

/**
 * A page of `origin` running no script of its own: its favicon (an SVG document, served as the console
 * serves it). A real load, not a Playwright route: Chromium then treats the page as loopback, as the
 * console's own pages (a route-fulfilled document is refused access to the loopback address space). The
 * context bypasses the site's CSP, so the page may run its Blob Worker.
 */
async function blankPage(browser: Browser, origin: string): Promise<Page> {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  if (process.env['CEILING_DEBUG']) page.on('console', (m) => console.error(`[${origin}] ${m.text()}`));
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate(installWorker, sendBatch.toString());
  return page;
}

export interface CeilingInput {
  browser: Browser;
  /** Origins: the emulator, the console's site (the direct page's origin: cross-origin, as the console), and `npm run serve`'s proxy (its `/_qs` prefix is added here). */
  emulator: string;
  site: string;
  serve: string;
  bucket: string;
  objects: number;
  inFlight?: readonly number[];
  /** Told after each variant (the bench samples the load average). */
  onVariant?(variant: FloorVariant): void;
}

export async function runCeiling(input: CeilingInput): Promise<FloorVariant[]> {
  const { browser, emulator, site, serve, bucket, objects } = input;
  const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
  const clients = {
    direct: createClient({ endpoint: emulator, zoneInHost: false, style: 'path', defaultZone: 'pek3a', credentials }),
    proxy: createClient({ endpoint: emulator, zoneInHost: false, style: 'path', defaultZone: 'pek3a', credentials, proxy: `${serve}/_qs` }),
  };
  const pages = { direct: await blankPage(browser, site), proxy: await blankPage(browser, serve) };
  const plain = (p: { url: URL; method: string; headers: Headers }): PlainRequest => ({ url: p.url.href, method: p.method, headers: Object.fromEntries(p.headers) });
  const sign = async (route: FloorRoute, start: number, end: number): Promise<FloorItem[]> => {
    const client = clients[route];
    const items: FloorItem[] = [];
    for (let i = start; i < end; i++) {
      const key = benchKey(i);
      const m = benchMetadata(i);
      const etag = `"${createHash('md5').update(`{"i":${i}}`).digest('hex')}"`;
      const head = await client.prepare({ operation: 'HeadObject', method: 'HEAD', zone: 'pek3a', bucket, key });
      const headers = copyObjectHeaders({ source: { bucket, key }, directive: 'REPLACE', metadata: { standard: { ...m.standard, 'content-type': 'text/csv' }, custom: m.custom }, conditions: { ifMatch: etag } });
      const copy = await client.prepare({ operation: 'CopyObject', method: 'PUT', zone: 'pek3a', bucket, key, headers });
      items.push({ head: plain(head), copy: plain(copy) });
    }
    return items;
  };
  const out: FloorVariant[] = [];
  try {
    for (const inFlight of input.inFlight ?? [8, 16, 32, 64]) {
      for (const route of ['proxy', 'direct'] as const) {
        for (const where of ['main', 'worker'] as const) {
          const page = pages[route];
          let ms = 0;
          for (let start = 0; start < objects; start += 1000) {
            const batch = await sign(route, start, Math.min(objects, start + 1000));
            ms +=
              where === 'main'
                ? await page.evaluate(async (args) => (await (globalThis as unknown as FloorGlobals).floorModule).default(args.batch, args.inFlight), { batch, inFlight })
                : await page.evaluate(
                    (args) =>
                      new Promise<number>((resolve, reject) => {
                        const w = (globalThis as unknown as FloorGlobals).floorWorker;
                        w.onmessage = (e: MessageEvent<{ ms?: number; error?: string }>) => (e.data.error !== undefined ? reject(new Error(e.data.error)) : resolve(e.data.ms ?? 0));
                        w.postMessage(args);
                      }),
                    { batch, inFlight },
                  );
          }
          const variant = { route, where, inFlight, ms };
          out.push(variant);
          input.onVariant?.(variant);
        }
      }
    }
  } finally {
    await pages.direct.context().close();
    await pages.proxy.context().close();
  }
  return out;
}
