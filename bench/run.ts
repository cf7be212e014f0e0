/**
 * `npm run bench`: every benchmark of the project, in order, printed as `name: value unit (note)`.
 *
 *   1. store        ListObjects pages (limit 1000) in a 1,000,000-key bucket; ListMultipart pages of a
 *                   10,000-part upload (mocks/store/bench.ts)
 *   2. server       PUT/HEAD throughput of the standalone emulator, 32 keep-alive clients (bench/server-throughput.ts)
 *   2b. big bodies  1 GiB PUT beside a discard server, peak RSS in memory and with --data-dir, an anonymous
 *                   1 GiB PostObject to a missing bucket, a 4 GiB PUT (bench/big-bodies.ts)
 *   3. bundle       initial JS of the production build, gzip, mock excluded (bench/bundle-size.ts; builds dist/)
 *   4. browse       first rows, scroll frame times and DOM rows for the 100,000-object demo bucket (bench/browse.ts)
 *   5. multipart    bench/multipart-inspector.ts and bench/multipart-upload.ts, when present
 *
 * Each section is guarded: a failing bench prints its error and the others still run; the exit code is 1
 * when any section failed. Targets are printed beside the figures they apply to; missing a target is
 * reported, not treated as a failure (figures depend on the machine).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { buildBenchBucket, buildBenchUpload, listScenarios, timeListPage, timePartsPage, type TimingStats } from '../mocks/store/bench.ts';
import { benchBrowse } from './browse.ts';
import { benchBigBodies } from './big-bodies.ts';
import { benchBundleSize } from './bundle-size.ts';
import { benchServerThroughput } from './server-throughput.ts';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const figureSchema = z.object({ name: z.string(), value: z.number(), unit: z.string(), note: z.string().optional() });
const figuresSchema = z.array(figureSchema);

interface Target {
  /** Applies to figures whose name contains this text. */
  match: string;
  op: '<=' | '>=';
  value: number;
  unit: string;
}

/** The project's budgets. */
export const TARGETS: readonly Target[] = [
  { match: 'store: ListObjects page', op: '<=', value: 5, unit: 'ms' },
  { match: 'store: ListMultipart page', op: '<=', value: 2, unit: 'ms' },
  { match: 'standalone server: PutObject 1 KiB, 32 clients', op: '>=', value: 2000, unit: 'req/s' },
  { match: 'standalone server: HeadObject, 32 clients', op: '>=', value: 4000, unit: 'req/s' },
  { match: 'initial JS (gzip, mock excluded)', op: '<=', value: 150, unit: 'KiB' },
  { match: 'big bodies: 1 GiB PUT to the emulator', op: '>=', value: 0.5, unit: 'x' },
  { match: 'big bodies: 1 GiB PUT, emulator peak RSS above idle (data-dir)', op: '<=', value: 64, unit: 'MiB' },
  { match: 'big bodies: anonymous 1 GiB PostObject', op: '<=', value: 16, unit: 'MiB' },
];

function targetFor(figure: Figure): Target | undefined {
  return TARGETS.find((t) => figure.name.includes(t.match) && t.unit === figure.unit);
}

export function formatFigure(figure: Figure): string {
  const target = targetFor(figure);
  const verdict = target
    ? ` [target ${target.op} ${target.value.toLocaleString('en-US')} ${target.unit}: ${(target.op === '<=' ? figure.value <= target.value : figure.value >= target.value) ? 'met' : 'MISSED'}]`
    : '';
  return `${figure.name}: ${figure.value.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${figure.unit}${figure.note ? ` (${figure.note})` : ''}${verdict}`;
}

const ms = (n: number): number => Math.round(n * 1000) / 1000;

function stats(label: string, s: TimingStats, what: string): Figure {
  return {
    name: label,
    value: ms(s.medianMs),
    unit: 'ms',
    note: `median of ${s.runs}; p95 ${ms(s.p95Ms)} ms, max ${ms(s.maxMs)} ms; ${s.items} ${what}`,
  };
}

async function benchStore(): Promise<Figure[]> {
  const keys = 1_000_000;
  const bucket = await buildBenchBucket(keys);
  const figures: Figure[] = [{ name: 'store: bulk load 1,000,000 keys', value: Math.round(bucket.buildMs), unit: 'ms' }];
  for (const [scenario, input] of Object.entries(listScenarios(keys))) {
    figures.push(stats(`store: ListObjects page (limit 1000, 1,000,000 keys), ${scenario}`, timeListPage(bucket.store, bucket.bucket, input), 'items'));
  }
  const upload = await buildBenchUpload(10_000);
  figures.push(stats('store: ListMultipart page (limit 1000 of 10,000 parts)', timePartsPage(upload.store, upload.bucket, upload.key, upload.uploadId), 'parts'));
  return figures;
}

/**
 * Benches written by other parts of the project, loaded only when their file exists: every exported
 * function named `bench*` is called without arguments and must resolve to figures.
 */
async function optionalBench(file: string): Promise<Figure[] | string> {
  const path = join(import.meta.dirname, file);
  if (!existsSync(path)) return `skipped: bench/${file} does not exist`;
  const module: Record<string, unknown> = await import(pathToFileURL(path).href);
  const benches = Object.entries(module).filter((entry): entry is [string, () => unknown] => entry[0].startsWith('bench') && typeof entry[1] === 'function');
  if (benches.length === 0) throw new Error(`bench/${file} exports no bench* function`);
  const figures: Figure[] = [];
  for (const [, run] of benches) figures.push(...figuresSchema.parse(await run()));
  return figures;
}

interface Section {
  title: string;
  run: () => Promise<Figure[] | string>;
}

const SECTIONS: readonly Section[] = [
  { title: 'store (mocks/store/bench.ts)', run: benchStore },
  { title: 'standalone server throughput (bench/server-throughput.ts)', run: () => benchServerThroughput() },
  { title: 'big bodies through the standalone server (bench/big-bodies.ts)', run: () => benchBigBodies() },
  { title: 'bundle size (bench/bundle-size.ts)', run: async () => benchBundleSize() },
  // dist/ was just built by the bundle section; browse builds it itself only if that section failed early.
  { title: 'browse the 100,000-object demo bucket (bench/browse.ts)', run: () => benchBrowse() },
  { title: 'multipart inspector (bench/multipart-inspector.ts)', run: () => optionalBench('multipart-inspector.ts') },
  { title: 'multipart upload (bench/multipart-upload.ts)', run: () => optionalBench('multipart-upload.ts') },
];

export async function runAll(print: (line: string) => void = (line) => console.log(line)): Promise<{ failed: string[] }> {
  const failed: string[] = [];
  for (const section of SECTIONS) {
    print(`\n== ${section.title}`);
    const started = performance.now();
    try {
      const result = await section.run();
      if (typeof result === 'string') print(result);
      else for (const figure of result) print(formatFigure(figure));
      print(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed.push(section.title);
      print(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  print(failed.length === 0 ? '\nAll benches ran.' : `\n${failed.length} bench section(s) failed: ${failed.join('; ')}`);
  return { failed };
}

if (import.meta.main) {
  const { failed } = await runAll();
  process.exitCode = failed.length === 0 ? 0 : 1;
}
