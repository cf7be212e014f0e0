/**
 * `npm run bench`: every benchmark of the project, in order, printed as `name: value unit (note)`.
 *
 *   1. store        ListObjects pages (limit 1000) in a 1,000,000-key bucket; ListMultipart pages of a
 *                   10,000-part upload (mocks/store/bench.ts)
 *   2. server       PUT/HEAD throughput of the standalone emulator, 32 keep-alive clients (bench/server-throughput.ts)
 *   2a. durable     1 KiB PUTs with --data-dir beside s3rver 3.7 on the same disk (bench/durable-puts.ts)
 *   2b. big bodies  1 GiB PUT beside a discard server and a discard+MD5 server, peak RSS in memory and with
 *                   --data-dir, an anonymous 1 GiB PostObject to a missing bucket, a 4 GiB PUT (bench/big-bodies.ts)
 *   3. bundle       initial JS of the production build, gzip, mock excluded (bench/bundle-size.ts; builds dist/)
 *   4. browse       first row painted (demo, endpoint, the 1M-key bucket), each beside its floor from the same
 *                   rounds (bench/floors.ts); the JS fetched before the first row beside a minimal React app's;
 *                   scroll frame times and DOM rows (bench/browse.ts)
 *   5. count all    "Count all" of the demo's 100,000-object bucket and of a 1,000,000-key bucket in the standalone
 *                   emulator, beside a Node loop of signed ListObjects over the same pages (bench/count-all.ts)
 *   6. multipart    bench/multipart-inspector.ts (beside a minimal page listing the same parts) and
 *                   bench/multipart-upload.ts (beside a plain XHR PUT of the same File), when present
 *   7. bulk edit    20,000 objects edited by a job in the console beside a Node reference client (HEAD + conditional
 *                   REPLACE copy, 8 in flight) on the same emulator: objects/s of both, page heap, table rows in
 *                   the DOM, requests per object (bench/bulk-edit.ts)
 *
 * At the end, the performance goals (GOALS) in one table: each console figure, its floor from this run, the
 * ratio and its goal.
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
import { benchBulkEdit } from './bulk-edit.ts';
import { benchBundleSize } from './bundle-size.ts';
import { benchDurablePuts } from './durable-puts.ts';
import { benchCountAll, COUNT_ALL_GOAL } from './count-all.ts';
import { benchServerThroughput } from './server-throughput.ts';
import type { Figure } from './lib.ts';

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
  { match: 'initial JS (gzip, mock excluded)', op: '<=', value: 130, unit: 'KiB' },
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
  { title: 'durable small PUTs beside s3rver on disk (bench/durable-puts.ts)', run: () => benchDurablePuts() },
  { title: 'big bodies through the standalone server (bench/big-bodies.ts)', run: () => benchBigBodies() },
  { title: 'bundle size (bench/bundle-size.ts)', run: async () => benchBundleSize() },
  // dist/ was just built by the bundle section; browse builds it itself only if that section failed early.
  { title: 'browse the 100,000-object demo bucket (bench/browse.ts)', run: () => benchBrowse() },
  { title: 'count all: demo 100k and endpoint 1M beside a Node loop (bench/count-all.ts)', run: () => benchCountAll() },
  { title: 'multipart inspector (bench/multipart-inspector.ts)', run: () => optionalBench('multipart-inspector.ts') },
  { title: 'multipart upload (bench/multipart-upload.ts)', run: () => optionalBench('multipart-upload.ts') },
  { title: 'bulk edit of 20,000 objects beside a Node reference (bench/bulk-edit.ts)', run: () => benchBulkEdit() },
];

interface Goal {
  measure: string;
  /** The figure whose name contains this text (and has this unit): the ratio to the floor, where there is one. */
  figure: string;
  unit: string;
  op: '<=' | '>=';
  value: number;
  /** The console's own figure, printed beside the ratio. */
  console?: string;
  /** The reference (the floor) from the same run printed beside it. */
  reference?: string;
}

const DEMO_FLOOR = 'floor: minimal page, first page of the 100k bucket from the emulator over HTTP: first row painted';
const BIG_FLOOR = 'floor: minimal page, first page of the 1M-key bucket: first row painted';

/**
 * The performance goals (each a ratio to a floor measured in the same run, the simplest program
 * that does the same job), each printed beside the console's figure and the floor at the end of `npm run bench`.
 */
export const GOALS: readonly Goal[] = [
  { measure: 'first row, demo 100k bucket, cold', figure: 'first row, demo 100k bucket, cold / floor', unit: '×', op: '<=', value: 3, console: 'browse 100k demo bucket: first row painted, cold', reference: `${DEMO_FLOOR}, cold` },
  { measure: 'first row, demo 100k bucket, warm (reload)', figure: 'first row, demo 100k bucket, warm / floor', unit: '×', op: '<=', value: 2.5, console: 'browse 100k demo bucket: first row painted, warm', reference: `${DEMO_FLOOR}, warm` },
  { measure: 'first row, 1M-key bucket, endpoint, cold', figure: 'first row, 1M-key bucket, cold / floor', unit: '×', op: '<=', value: 1.5, console: 'first row painted, 1M-key bucket, cold', reference: `${BIG_FLOOR}, cold` },
  { measure: 'first row, 1M-key bucket, endpoint, warm', figure: 'first row, 1M-key bucket, warm / floor', unit: '×', op: '<=', value: 1.5, console: 'first row painted, 1M-key bucket, warm', reference: `${BIG_FLOOR}, warm` },
  { measure: 'inspector 10,000 parts, first rows, cold', figure: 'inspector first rows, cold / floor', unit: '×', op: '<=', value: 1.5, console: 'inspector: first rows painted, 10,000 parts, cold', reference: 'floor: minimal page, 50 rows of page 1 of 10,000 parts: painted, cold' },
  { measure: 'inspector totals, cold', figure: 'inspector totals, cold / floor', unit: '×', op: '<=', value: 1.5, console: 'inspector: totals painted, 10,000 parts, cold', reference: 'floor: minimal page listing all 10 pages: totals painted, cold' },
  { measure: '1 GiB upload in Chromium', figure: 'upload: console / floor (plain XHR PUT of the same File)', unit: '×', op: '>=', value: 0.85, console: 'multipart upload 1 GiB from Chromium: throughput', reference: 'one plain XHR PUT of the whole file from the page: throughput' },
  { measure: 'JS fetched before the first row, endpoint object browser (KiB)', figure: 'JS fetched before the first row, endpoint object browser (gzip)', unit: 'KiB', op: '<=', value: 130, reference: 'floor: minimal React app, JS fetched before the first row (gzip)' },
  { measure: 'JS fetched before the first row, endpoint object browser (files)', figure: 'JS fetched before the first row, endpoint object browser (files)', unit: 'files', op: '<=', value: 20, reference: 'floor: minimal React app, JS fetched before the first row (files)' },
  // Kept from before: what is met stays met.
  { measure: 'initial JS (gzip)', figure: 'initial JS (gzip, mock excluded)', unit: 'KiB', op: '<=', value: 130 },
  { measure: 'scroll the 100k demo bucket: longest frame', figure: 'browse 100k demo bucket: scroll frame time max', unit: 'ms', op: '<=', value: 50, reference: 'browse 100k demo bucket: DOM rows during scroll (max)' },
  { measure: 'Count all, demo 100k bucket / Node loop over the same pages', figure: 'count all, demo 100k: console / Node loop', unit: '×', op: '<=', value: COUNT_ALL_GOAL, reference: 'count all, demo 100k: Node loop' },
  { measure: 'Count all, 1M keys in the emulator / Node loop over the same pages', figure: 'count all, endpoint 1M: console / Node loop', unit: '×', op: '<=', value: COUNT_ALL_GOAL, reference: 'count all, endpoint 1M: Node loop' },
  { measure: 'scroll 10,000 rows of the 1M-key bucket: longest long task', figure: 'scroll 10,000 rows of the 1M-key bucket: longest long task', unit: 'ms', op: '<=', value: 50, reference: 'scroll 10,000 rows of the 1M-key bucket: DOM rows (max)' },
  { measure: 'parts in flight / setting', figure: 'upload: parts in flight', unit: '%', op: '>=', value: 90 },
  { measure: 'emulator, one 1 GiB PUT / discard+MD5 server', figure: 'big bodies: 1 GiB PUT, emulator (memory) / discard+MD5 server', unit: '×', op: '>=', value: 0.9, reference: 'big bodies: 1 GiB PUT to a discard+MD5 server (the floor)' },
  { measure: 'emulator --data-dir, 1 GiB PUT / discard+MD5 server', figure: 'big bodies: 1 GiB PUT, emulator (data-dir) / discard+MD5 server', unit: '×', op: '>=', value: 0.9, reference: 'big bodies: 1 GiB PUT to a discard+MD5 server (the floor)' },
  { measure: 'emulator --data-dir, 1 KiB PUTs, 32 clients / s3rver 3.7 on disk', figure: 'durable PUTs: emulator --data-dir / s3rver on disk', unit: '×', op: '>=', value: 1.5, reference: 'durable PUTs: s3rver 3.7 on disk' },
  { measure: 'page heap during a 1 GiB upload', figure: 'multipart upload 1 GiB from Chromium: peak JS heap (main thread)', unit: 'MiB', op: '<=', value: 64 },
  { measure: 'bulk edit of 20,000 objects (objects/s)', figure: 'bulk edit: console / reference', unit: '×', op: '>=', value: 0.5, console: 'objects: console', reference: 'Node reference (HEAD + conditional REPLACE copy, 8 in flight)' },
  { measure: 'bulk edit of 20,000 objects: page heap at its largest', figure: 'bulk edit: page heap (max)', unit: 'MiB', op: '<=', value: 64 },
  { measure: 'bulk edit of 20,000 objects: table rows in the DOM at most', figure: 'bulk edit: table rows in the DOM (max)', unit: 'rows', op: '<=', value: 199 },
];

function describeFigure(figure: Figure | undefined): string {
  return figure ? `${figure.value.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${figure.unit}${figure.note ? ` (${figure.note})` : ''}` : 'no figure in this run';
}

const short = (figure: Figure | undefined): string => (figure ? `${figure.value.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${figure.unit}` : 'not measured');

/** The goal table: each goal, the console's figure, the floor from the same run, the ratio and the verdict. */
export function goalTable(figures: readonly Figure[]): string[] {
  const find = (text: string, unit?: string) => figures.find((f) => f.name.includes(text) && (unit === undefined || f.unit === unit));
  const lines = ['measure | console | floor, same run | figure with the goal | goal | verdict'];
  for (const goal of GOALS) {
    const figure = find(goal.figure, goal.unit);
    const met = figure === undefined ? 'not measured' : (goal.op === '<=' ? figure.value <= goal.value : figure.value >= goal.value) ? 'met' : 'MISSED';
    const console = goal.console === undefined ? '—' : short(find(goal.console));
    const reference = goal.reference === undefined ? '—' : short(find(goal.reference));
    lines.push(`${goal.measure} | ${console} | ${reference} | ${short(figure)} | ${goal.op} ${goal.value} ${goal.unit} | ${met}`);
  }
  lines.push('', 'the figures with a goal, in full:');
  for (const goal of GOALS) lines.push(`  ${goal.figure}: ${describeFigure(find(goal.figure, goal.unit))}`);
  return lines;
}

export async function runAll(print: (line: string) => void = (line) => console.log(line)): Promise<{ failed: string[] }> {
  const failed: string[] = [];
  const all: Figure[] = [];
  for (const section of SECTIONS) {
    print(`\n== ${section.title}`);
    const started = performance.now();
    try {
      const result = await section.run();
      if (typeof result === 'string') print(result);
      else
        for (const figure of result) {
          all.push(figure);
          print(formatFigure(figure));
        }
      print(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed.push(section.title);
      print(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  print('\n== goals (each figure beside its reference from this run)');
  for (const line of goalTable(all)) print(line);
  print(failed.length === 0 ? '\nAll benches ran.' : `\n${failed.length} bench section(s) failed: ${failed.join('; ')}`);
  return { failed };
}

if (import.meta.main) {
  const { failed } = await runAll();
  process.exitCode = failed.length === 0 ? 0 : 1;
}
