/**
 * A 1 GiB multipart upload from Chromium into the standalone emulator over real HTTP (a project target),
 * through the console's own upload panel (production build, endpoint mode, default settings: 8 MiB parts,
 * 4 parts in parallel, Content-MD5 per part computed in the MD5 worker):
 *
 *   - throughput: 1 GiB / (click "Upload" → the transfer shows Done, i.e. parts sent and Complete answered);
 *   - peak JS heap of the page's main thread while uploading (CDP Performance.getMetrics JSHeapUsedSize,
 *     sampled every 200 ms), next to the heap before the file existed. Workers have heaps of their own
 *     (the MD5 worker); they are not included.
 *
 * The file is a real 1 GiB file on disk (a seeded 1 MiB chunk written 1,024 times to the temp directory),
 * given to the panel's "Choose files" input, so the page holds a disk-backed File as it does for a
 * user. (A 1 GiB Blob made in the page cannot be used: Chromium keeps Blobs of a non-persistent profile in
 * memory and refuses to read one that large, NotReadableError.) The emulator keeps the parts in memory,
 * so the Node process holds ~1 GiB during the run. `node bench/multipart-upload.ts` prints the figures.
 */
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { DEMO_USER } from '../mocks/seed.ts';
import { startEmulatorServer } from '../mocks/server.ts';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { CHROMIUM_ARGS, connectConsole, ensureBuild, serveConsole, type ConsoleBenchOptions, type Figure } from './multipart-inspector.ts';

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;

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

export async function benchMultipartUpload(options: ConsoleBenchOptions & { sizeBytes?: number } = {}): Promise<Figure[]> {
  const size = options.sizeBytes ?? SIZE;
  const dist = ensureBuild(options);
  const emulator = await startEmulatorServer({ port: 0, seed: 'demo', users: [DEMO_USER] });
  const site = await serveConsole(dist);
  const file = await writeTestFile(size);
  let browser: Browser | undefined;
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    browser = await chromium.launch({ executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await connectConsole(page, site.url, emulator);
    await page.goto(`${site.url}/buckets/pek3a/demo-photos`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
    const heapBefore = await heapUsed(cdp);

    // The picker's own input (what "Choose files" opens); Chromium gets the path, so no bytes cross the protocol.
    await panel.getByLabel('Choose files', { exact: true }).setInputFiles(file.path);
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
    await panel.getByRole('button', { name: 'Upload 1 files' }).click();
    await item.and(page.locator('[data-state="done"], [data-state="failed"]')).waitFor({ timeout: 15 * 60_000 });
    if ((await item.getAttribute('data-state')) !== 'done') throw new Error(`the upload failed: ${(await item.textContent()) ?? ''}`);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, await heapUsed(cdp));

    const head = emulator.store.getObject('demo-photos', 'bench-1gib.bin');
    if (head.size !== size) throw new Error(`stored object has ${head.size} bytes, expected ${size}`);
    const partsLine = (await item.textContent()) ?? '';
    const parts = /parts ([\d,]+) of ([\d,]+)/.exec(partsLine)?.[2] ?? '?';
    const mb = size / 1_000_000;
    const label = size % (1024 * MiB) === 0 ? `${size / (1024 * MiB)} GiB` : `${Math.round(size / MiB)} MiB`;
    return [
      { name: `multipart upload ${label} from Chromium: throughput`, value: Math.round((mb / seconds) * 10) / 10, unit: 'MB/s', note: `${Math.round(seconds * 10) / 10} s; ${parts} parts of 8 MiB, 4 in parallel, Content-MD5 per part` },
      { name: `multipart upload ${label} from Chromium: throughput`, value: Math.round((size / MiB / seconds) * 10) / 10, unit: 'MiB/s' },
      { name: `multipart upload ${label} from Chromium: peak JS heap (main thread)`, value: Math.round((peak / MiB) * 10) / 10, unit: 'MiB', note: `before the file: ${Math.round((heapBefore / MiB) * 10) / 10} MiB; sampled every 200 ms via CDP` },
    ];
  } finally {
    clearInterval(sampler);
    await browser?.close();
    await site.close();
    await emulator.close();
    await file.remove();
  }
}

if (import.meta.main) {
  for (const f of await benchMultipartUpload()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
