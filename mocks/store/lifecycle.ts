/**
 * Applies a bucket's lifecycle rules (ref §9.10) on the store's injected clock, so tests move time forward
 * instead of waiting: `abort_incomplete_multipart_upload` aborts uploads older than its days, `expiration`
 * deletes objects last modified longer ago than its days. A rule acts only from 24 hours after the rules
 * were last written. `transition` is stored and returned but changes nothing here (the emulator keeps one
 * storage class's behaviour for all objects).
 *
 * A sweep starts when a request addresses the bucket (handlers call `applyLifecycle`), at most once per
 * minute of the store's clock per bucket: no timers while nothing is due, and a clock a test advances by days
 * takes effect on the next request. The work is done in SLICES of at most SLICE_ENTRIES listed entries and
 * SLICE_MS milliseconds: the request that starts a sweep runs its first slice (a small bucket is done with it,
 * so that request already sees the result), and the rest runs one slice per turn of the event loop, between
 * other requests. A bucket of 100,000 objects with 100 rules therefore never holds another request back by
 * more than one slice. Each slice deletes what it found in one journal change (`deleteObjects`), so with
 * `--data-dir` a slice is one transaction, not one per object.
 */
import type { Store } from './store.ts';
import type { LifecycleRule } from './types.ts';

const DAY_MS = 86_400_000;
/** New or changed rules act after this long (ref §9.10). */
export const LIFECYCLE_DELAY_MS = DAY_MS;
const SWEEP_EVERY_MS = 60_000;
/** Entries (objects or uploads) one slice lists at most. */
export const SLICE_ENTRIES = 1000;
/** A slice stops after this long even if it has listed fewer entries (a loaded machine, a slow journal). */
export const SLICE_MS = 10;

export interface LifecycleSweep {
  abortedUploads: number;
  expiredObjects: number;
}

/** What the sweeps of one store have done so far (tests and benches read it). */
export interface LifecycleProgress extends LifecycleSweep {
  /** Buckets with a sweep under way. */
  running: number;
  slices: number;
  /** The most entries one slice listed, the longest one slice ran (ms), and the most CPU one slice used (ms). */
  maxSliceEntries: number;
  longestSliceMs: number;
  longestSliceCpuMs: number;
}

interface Target {
  prefix: string;
  /** Entries created / last modified at or before this time (ms) are due. */
  cutoff: number;
}

interface Sweep {
  bucket: string;
  /** `updated` of the rules the sweep started with: new rules end it (the next request starts another). */
  rulesUpdated: number;
  uploads: Target[];
  objects: Target[];
  /** Prefixes to walk (none covered by another), per phase, and where the walk stands. */
  phase: 'uploads' | 'objects';
  roots: string[];
  root: number;
  marker: string;
  uploadIdMarker: string;
}

interface Runner {
  sweeps: Map<string, Sweep>;
  lastStart: Map<string, number>;
  scheduled: boolean;
  progress: LifecycleProgress;
  idle: Array<() => void>;
}

const runners = new WeakMap<Store, Runner>();

function runnerOf(store: Store): Runner {
  let runner = runners.get(store);
  if (!runner) {
    runner = {
      sweeps: new Map(),
      lastStart: new Map(),
      scheduled: false,
      progress: { running: 0, slices: 0, maxSliceEntries: 0, longestSliceMs: 0, longestSliceCpuMs: 0, abortedUploads: 0, expiredObjects: 0 },
      idle: [],
    };
    runners.set(store, runner);
  }
  return runner;
}

/**
 * Starts a sweep of the bucket when its rules are due and none ran in the last minute of the store's clock,
 * and runs its first slice now; returns what that slice removed. A missing bucket or no rules does nothing.
 */
export function applyLifecycle(store: Store, bucket: string, options: { force?: boolean } = {}): LifecycleSweep {
  const done: LifecycleSweep = { abortedUploads: 0, expiredObjects: 0 };
  const lifecycle = store.findBucket(bucket)?.lifecycle;
  if (!lifecycle) return done;
  const now = store.now().getTime();
  if (now < lifecycle.updated + LIFECYCLE_DELAY_MS) return done;
  const runner = runnerOf(store);
  if (runner.sweeps.has(bucket)) return done;
  const previous = runner.lastStart.get(bucket);
  if (!options.force && previous !== undefined && now >= previous && now - previous < SWEEP_EVERY_MS) return done;
  runner.lastStart.set(bucket, now);
  const sweep = newSweep(bucket, lifecycle.rule, lifecycle.updated, now);
  if (!sweep) return done;
  runner.sweeps.set(bucket, sweep);
  runner.progress.running = runner.sweeps.size;
  const finished = runSlice(store, runner, sweep, done);
  runner.progress.abortedUploads += done.abortedUploads;
  runner.progress.expiredObjects += done.expiredObjects;
  if (finished) endSweep(runner, bucket);
  else schedule(store, runner);
  return done;
}

/** The sweeps' counters for `store`. */
export function lifecycleProgress(store: Store): LifecycleProgress {
  return { ...runnerOf(store).progress };
}

/** Resolves once no sweep of `store` is under way. */
export function lifecycleIdle(store: Store): Promise<void> {
  const runner = runnerOf(store);
  if (runner.sweeps.size === 0) return Promise.resolve();
  return new Promise((resolve) => runner.idle.push(resolve));
}

function newSweep(bucket: string, rules: readonly LifecycleRule[], rulesUpdated: number, now: number): Sweep | undefined {
  const uploads: Target[] = [];
  const objects: Target[] = [];
  for (const rule of rules) {
    if (rule.status !== 'enabled') continue;
    const prefix = rule.filter.prefix ?? '';
    const abort = rule.abort_incomplete_multipart_upload;
    if (abort) uploads.push({ prefix, cutoff: now - abort.days_after_initiation * DAY_MS });
    if (rule.expiration) objects.push({ prefix, cutoff: now - rule.expiration.days * DAY_MS });
  }
  if (uploads.length === 0 && objects.length === 0) return undefined;
  const phase = uploads.length > 0 ? 'uploads' : 'objects';
  return { bucket, rulesUpdated, uploads, objects, phase, roots: roots(phase === 'uploads' ? uploads : objects), root: 0, marker: '', uploadIdMarker: '' };
}

/** The rules' prefixes without those another prefix already covers, so no entry is listed twice. */
function roots(targets: readonly Target[]): string[] {
  const sorted = [...new Set(targets.map((t) => t.prefix))].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const prefix of sorted) if (!kept.some((shorter) => prefix.startsWith(shorter))) kept.push(prefix);
  return kept;
}

function isDue(targets: readonly Target[], key: string, time: number): boolean {
  for (const t of targets) if (time <= t.cutoff && key.startsWith(t.prefix)) return true;
  return false;
}

/** One bounded slice of a sweep; true when the sweep is finished (or cannot go on). */
/**
 * CPU time of this process in ms where it can be read (Node), else wall time: unlike wall time it does not
 * grow when a loaded machine gives the process no core for a while.
 */
const cpuNow: () => number =
  typeof process !== 'undefined' && typeof process.cpuUsage === 'function'
    ? () => {
        const used = process.cpuUsage();
        return (used.user + used.system) / 1000;
      }
    : () => performance.now();

function runSlice(store: Store, runner: Runner, sweep: Sweep, removed: LifecycleSweep): boolean {
  const started = performance.now();
  const cpuStarted = cpuNow();
  let listed = 0;
  try {
    const rules = store.findBucket(sweep.bucket)?.lifecycle;
    if (!rules || rules.updated !== sweep.rulesUpdated) return true;
    while (listed < SLICE_ENTRIES && performance.now() - started < SLICE_MS) {
      const root = sweep.roots[sweep.root];
      if (root === undefined) {
        if (sweep.phase === 'objects' || sweep.objects.length === 0) return true;
        sweep.phase = 'objects';
        sweep.roots = roots(sweep.objects);
        sweep.root = 0;
        sweep.marker = '';
        continue;
      }
      const more = sweep.phase === 'uploads' ? uploadsPage(store, sweep, root, removed) : objectsPage(store, sweep, root, removed);
      listed += more.listed;
      if (!more.hasMore) {
        sweep.root += 1;
        sweep.marker = '';
        sweep.uploadIdMarker = '';
      }
    }
    return false;
  } catch (error) {
    // e.g. the journal refused (a full disk): stop; the next due request starts again.
    console.error(`[qingstor-emulator] lifecycle sweep of ${sweep.bucket} stopped`, error);
    return true;
  } finally {
    const p = runner.progress;
    p.slices += 1;
    p.maxSliceEntries = Math.max(p.maxSliceEntries, listed);
    p.longestSliceMs = Math.max(p.longestSliceMs, performance.now() - started);
    p.longestSliceCpuMs = Math.max(p.longestSliceCpuMs, cpuNow() - cpuStarted);
  }
}

function objectsPage(store: Store, sweep: Sweep, prefix: string, removed: LifecycleSweep): { listed: number; hasMore: boolean } {
  const page = store.listObjects(sweep.bucket, { prefix, marker: sweep.marker, limit: SLICE_ENTRIES });
  const due: string[] = [];
  for (const o of page.keys) if (isDue(sweep.objects, o.key, o.lastModified.getTime())) due.push(o.key);
  if (due.length > 0) store.deleteObjects(sweep.bucket, due);
  removed.expiredObjects += due.length;
  sweep.marker = page.nextMarker;
  return { listed: Math.max(1, page.keys.length), hasMore: page.hasMore };
}

function uploadsPage(store: Store, sweep: Sweep, prefix: string, removed: LifecycleSweep): { listed: number; hasMore: boolean } {
  const page = store.listMultipartUploads(sweep.bucket, { prefix, keyMarker: sweep.marker, uploadIdMarker: sweep.uploadIdMarker, limit: SLICE_ENTRIES });
  let aborted = 0;
  for (const u of page.uploads) {
    if (!isDue(sweep.uploads, u.key, u.created.getTime())) continue;
    store.abortMultipartUpload(sweep.bucket, u.key, u.uploadId);
    aborted += 1;
  }
  removed.abortedUploads += aborted;
  sweep.marker = page.nextKeyMarker;
  sweep.uploadIdMarker = page.nextUploadIdMarker;
  return { listed: Math.max(1, page.uploads.length), hasMore: page.hasMore };
}

const nextTurn: (run: () => void) => void =
  typeof globalThis.setImmediate === 'function'
    ? (run) => void globalThis.setImmediate(run).unref()
    : (run) => void globalThis.setTimeout(run, 0);

/** Runs one slice of each sweep under way per turn of the event loop until none is left. */
function schedule(store: Store, runner: Runner): void {
  if (runner.scheduled) return;
  runner.scheduled = true;
  nextTurn(() => {
    runner.scheduled = false;
    for (const sweep of [...runner.sweeps.values()]) {
      const removed: LifecycleSweep = { abortedUploads: 0, expiredObjects: 0 };
      if (runSlice(store, runner, sweep, removed)) endSweep(runner, sweep.bucket);
      runner.progress.abortedUploads += removed.abortedUploads;
      runner.progress.expiredObjects += removed.expiredObjects;
    }
    if (runner.sweeps.size > 0) schedule(store, runner);
  });
}

function endSweep(runner: Runner, bucket: string): void {
  runner.sweeps.delete(bucket);
  runner.progress.running = runner.sweeps.size;
  if (runner.sweeps.size > 0) return;
  const waiting = runner.idle;
  runner.idle = [];
  for (const resolve of waiting) resolve();
}
