import { ApiError } from '../../../api/errors.ts';
import type { ObjectMetadata } from '../../../api/metadata/model.ts';
import { createMd5Hasher, type Md5Hasher } from './hasher.ts';
import { verifyEtag } from './integrity.ts';
import { MultipartUpload, type MultipartPhase } from './multipart.ts';
import type { PartPlanOptions } from './part-plan.ts';
import type { PlannedUpload, UploadKind } from './plan-batch.ts';
import { systemClock, type Clock, type RemoteUpload, type UploadPorts } from './ports.ts';
import { createMemoryResumeStore, type ResumeRecord, type ResumeStore } from './resume-store.ts';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.ts';
import { SpeedMeter, etaSeconds } from './speed.ts';

/**
 * The one upload store (README.md, "Architecture": transfers live in one upload store): every form and
 * multipart transfer of the session, a concurrency limit, and immutable snapshots for React's
 * useSyncExternalStore. State changes notify at once (next microtask); progress notifications are
 * throttled to one per `notifyIntervalMs`, so a 1000 Hz stream of XHR progress events costs a handful
 * of renders per second.
 */

export type UploadState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  readonly id: string;
  readonly kind: UploadKind;
  readonly bucket: string;
  readonly zone: string | undefined;
  readonly key: string;
  readonly fileName: string;
  readonly relativePath: string;
  readonly state: UploadState;
  /** Multipart detail while running (hashing/listing/initiating/uploading/completing). */
  readonly phase: MultipartPhase | undefined;
  readonly bytesSent: number;
  readonly bytesTotal: number;
  /** Bytes per second (moving average); 0 when not running. */
  readonly speed: number;
  /** Seconds left at the current speed; null when unknown. */
  readonly eta: number | null;
  /** Quoted ETag of the stored object once done. */
  readonly etag: string | undefined;
  /** The original failure: ApiError (code, requestId), NetworkError (likelyCors, hint), ResumeMismatchError, ... */
  readonly error: Error | undefined;
  readonly multipart:
    | { uploadId: string | undefined; partCount: number; partSize: number; partsDone: number; partsReused: number }
    | undefined;
}

export interface UploadTotals {
  /** Items per state. */
  readonly counts: Readonly<Record<UploadState, number>>;
  /** Over items that are not cancelled. */
  readonly bytesSent: number;
  readonly bytesTotal: number;
  readonly speed: number;
  readonly eta: number | null;
}

export interface UploadsSnapshot {
  readonly items: readonly UploadItem[];
  readonly totals: UploadTotals;
  readonly concurrency: number;
}

export interface UploadQueueOptions {
  ports: UploadPorts;
  /** Connection identity for remembered uploads (e.g. endpoint + access key id); default ''. */
  scope?: string;
  hasher?: Md5Hasher;
  resumeStore?: ResumeStore;
  /** Items transferring at once (default 3). */
  concurrency?: number;
  /** Parallel parts per multipart item (default 4). */
  partConcurrency?: number;
  partPlan?: PartPlanOptions;
  retry?: RetryPolicy;
  sendContentMd5?: boolean;
  clock?: Clock;
  random?: () => number;
  /** Minimum time between progress notifications (default 200 ms). */
  notifyIntervalMs?: number;
  /** Called once for each item that finishes (state `done`), with its final snapshot. */
  onDone?: (item: UploadItem) => void;
}

export interface UploadQueue {
  subscribe(listener: () => void): () => void;
  getSnapshot(): UploadsSnapshot;
  /** Adds planned uploads (planBatch); multipart items continue a remembered upload of the same file and key. */
  add(uploads: readonly PlannedUpload[]): string[];
  /** Continues an in-progress upload (inspector) with a local file; refuses a file that does not fit. */
  resumeRemote(upload: RemoteUpload, file: File): string;
  pause(id: string): void;
  resume(id: string): void;
  /** Stops the item; a multipart upload is aborted on the server (its parts deleted). */
  cancel(id: string): Promise<void>;
  retry(id: string): void;
  retryFailed(): void;
  /**
   * Drops an item that is not transferring (queued, done, failed or cancelled) from the list; it never
   * starts. The server is not touched: a multipart upload that had begun stays remembered for resume.
   */
  remove(id: string): void;
  clearFinished(): void;
  setConcurrency(n: number): void;
  /** Parallel parts for multipart transfers created from now on (a running transfer keeps its width). */
  setPartConcurrency(n: number): void;
  /** Uploads remembered for this scope (to offer "choose the file again"). */
  listResumable(): Promise<ResumeRecord[]>;
  /** Forgets a remembered upload; with `abortRemote` also deletes it on the server. */
  forgetResumable(record: ResumeRecord, options?: { abortRemote?: boolean }): Promise<void>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  dispose(): void;
}

interface Entry {
  id: string;
  kind: UploadKind;
  bucket: string;
  zone: string | undefined;
  key: string;
  file: File;
  relativePath: string;
  metadata: ObjectMetadata | undefined;
  state: UploadState;
  error: Error | undefined;
  etag: string | undefined;
  formSent: number;
  /** MD5 of the file for a form upload, started with its first attempt (the file never changes). */
  formMd5: Promise<string> | undefined;
  meter: SpeedMeter;
  controller: AbortController | undefined;
  /** Settles when the current run has stopped (done, failed, paused or cancelled). */
  settled: Promise<void> | undefined;
  intent: 'pause' | 'cancel' | undefined;
  task: MultipartUpload | undefined;
  explicitUploadId: string | undefined;
  cached: UploadItem | undefined;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const hasher = options.hasher ?? createMd5Hasher();
  const resumeStore = options.resumeStore ?? createMemoryResumeStore();
  const scope = options.scope ?? '';
  const notifyInterval = options.notifyIntervalMs ?? 200;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  let concurrency = Math.max(1, options.concurrency ?? 3);
  let partConcurrency = Math.max(1, Math.floor(options.partConcurrency ?? 4));

  const entries: Entry[] = [];
  const listeners = new Set<() => void>();
  let snapshot: UploadsSnapshot | undefined;
  let nextId = 1;
  let urgentScheduled = false;
  let cancelTimer: (() => void) | undefined;
  let lastNotify = Number.NEGATIVE_INFINITY;
  let idleWaiters: Array<() => void> = [];
  let disposed = false;

  function notify(): void {
    cancelTimer?.();
    cancelTimer = undefined;
    lastNotify = clock.now();
    for (const listener of [...listeners]) listener();
  }

  /** A state change: one notification after the current synchronous work. */
  function changed(entry?: Entry): void {
    if (entry) entry.cached = undefined;
    snapshot = undefined;
    if (urgentScheduled) return;
    urgentScheduled = true;
    queueMicrotask(() => {
      urgentScheduled = false;
      notify();
    });
  }

  /** Progress: at most one notification per interval. */
  function progressed(entry: Entry): void {
    entry.cached = undefined;
    snapshot = undefined;
    if (cancelTimer || urgentScheduled) return;
    const wait = Math.max(0, lastNotify + notifyInterval - clock.now());
    cancelTimer = clock.setTimeout(notify, wait);
  }

  function multipartDeps() {
    return {
      ports: options.ports,
      hasher,
      resumeStore,
      scope,
      clock,
      random,
      retry,
      partConcurrency,
      partPlan: options.partPlan ?? {},
      sendContentMd5: options.sendContentMd5 ?? true,
    };
  }

  function taskFor(entry: Entry): MultipartUpload {
    entry.task ??= new MultipartUpload(
      multipartDeps(),
      {
        bucket: entry.bucket,
        ...(entry.zone === undefined ? {} : { zone: entry.zone }),
        key: entry.key,
        file: entry.file,
        ...(entry.metadata ? { metadata: entry.metadata } : {}),
        ...(entry.explicitUploadId === undefined ? {} : { uploadId: entry.explicitUploadId }),
      },
      {
        onChange: () => progressed(entry),
        onNetworkBytes: (delta) => entry.meter.add(clock.now(), delta),
      },
    );
    return entry.task;
  }

  /**
   * A form upload carries no Content-MD5, so it is checked afterwards: the file's MD5 (hashed in the worker
   * while the bytes travel) must be the ETag the service stored. A mismatch is not retried automatically:
   * the item fails with both values and the user retries it.
   */
  async function runForm(entry: Entry, signal: AbortSignal): Promise<string> {
    const size = entry.file.size;
    const md5 = (entry.formMd5 ??= hasher.md5(entry.file));
    // Reported after the upload: an unhandled rejection must not surface while it runs.
    md5.catch(() => undefined);
    const result = await withRetry(
      {
        policy: retry,
        clock,
        random,
        signal,
        onRetry: () => {
          entry.formSent = 0;
          progressed(entry);
        },
      },
      () =>
        options.ports.postObject(
          {
            bucket: entry.bucket,
            ...(entry.zone === undefined ? {} : { zone: entry.zone }),
            key: entry.key,
            file: entry.file,
            filename: entry.file.name,
            ...(entry.metadata ? { metadata: entry.metadata } : {}),
            // The form body adds field overhead to `total`; scale to the file's bytes.
            onProgress: ({ loaded, total }) => {
              const sent = total > 0 ? Math.min(size, Math.round((loaded / total) * size)) : 0;
              if (sent > entry.formSent) entry.meter.add(clock.now(), sent - entry.formSent);
              entry.formSent = sent;
              progressed(entry);
            },
          },
          signal,
        ),
    );
    let expected: string;
    try {
      expected = await md5;
    } catch (error) {
      entry.formMd5 = undefined;
      throw error;
    }
    verifyEtag(expected, result.etag);
    entry.formSent = size;
    return result.etag;
  }

  function start(entry: Entry): void {
    const controller = new AbortController();
    entry.controller = controller;
    entry.state = 'running';
    entry.error = undefined;
    entry.intent = undefined;
    entry.meter.reset(clock.now());
    changed(entry);
    const work = entry.kind === 'form' ? runForm(entry, controller.signal) : taskFor(entry).run(controller.signal).then((r) => r.etag);
    entry.settled = work.then(
      (etag) => {
        entry.etag = etag;
        entry.state = 'done';
        entry.cached = undefined;
        options.onDone?.(itemOf(entry, clock.now()));
      },
      (error: unknown) => {
        if (controller.signal.aborted && entry.intent === 'pause') entry.state = 'paused';
        else if (controller.signal.aborted && entry.intent === 'cancel') entry.state = 'cancelled';
        else {
          entry.state = 'failed';
          entry.error = asError(error);
        }
      },
    ).finally(() => {
      entry.controller = undefined;
      entry.settled = undefined;
      changed(entry);
      pump();
    });
  }

  function pump(): void {
    if (disposed) return;
    let running = entries.filter((e) => e.state === 'running').length;
    for (const entry of entries) {
      if (running >= concurrency) break;
      if (entry.state !== 'queued') continue;
      start(entry);
      running += 1;
    }
    if (running === 0 && !entries.some((e) => e.state === 'queued')) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function find(id: string): Entry {
    const entry = entries.find((e) => e.id === id);
    if (!entry) throw new RangeError(`No upload with id ${id}`);
    return entry;
  }

  function addEntry(init: Pick<Entry, 'kind' | 'bucket' | 'zone' | 'key' | 'file' | 'relativePath' | 'metadata' | 'explicitUploadId'>): string {
    const entry: Entry = {
      ...init,
      id: `u${nextId++}`,
      state: 'queued',
      error: undefined,
      etag: undefined,
      formSent: 0,
      formMd5: undefined,
      meter: new SpeedMeter(),
      controller: undefined,
      settled: undefined,
      intent: undefined,
      task: undefined,
      cached: undefined,
    };
    entries.push(entry);
    changed(entry);
    return entry.id;
  }

  function itemOf(entry: Entry, now: number): UploadItem {
    if (entry.cached) return entry.cached;
    const status = entry.task?.status;
    const bytesTotal = entry.file.size;
    const bytesSent = entry.state === 'done' ? bytesTotal : entry.kind === 'form' ? entry.formSent : (status?.bytesSent ?? 0);
    const speed = entry.state === 'running' ? entry.meter.speed(now) : 0;
    const item: UploadItem = {
      id: entry.id,
      kind: entry.kind,
      bucket: entry.bucket,
      zone: entry.zone,
      key: entry.key,
      fileName: entry.file.name,
      relativePath: entry.relativePath,
      state: entry.state,
      phase: entry.state === 'running' ? status?.phase : undefined,
      bytesSent,
      bytesTotal,
      speed,
      eta: entry.state === 'running' ? etaSeconds(bytesTotal - bytesSent, speed) : entry.state === 'done' ? 0 : null,
      etag: entry.etag,
      error: entry.error,
      multipart: status
        ? { uploadId: status.uploadId, partCount: status.partCount, partSize: status.partSize, partsDone: status.partsDone, partsReused: status.partsReused }
        : entry.kind === 'multipart'
          ? { uploadId: entry.explicitUploadId, partCount: 0, partSize: 0, partsDone: 0, partsReused: 0 }
          : undefined,
    };
    entry.cached = item;
    return item;
  }

  function build(): UploadsSnapshot {
    const now = clock.now();
    const items = entries.map((e) => itemOf(e, now));
    const counts: Record<UploadState, number> = { queued: 0, running: 0, paused: 0, done: 0, failed: 0, cancelled: 0 };
    let bytesSent = 0;
    let bytesTotal = 0;
    let speed = 0;
    for (const item of items) {
      counts[item.state] += 1;
      if (item.state === 'cancelled') continue;
      bytesSent += item.bytesSent;
      bytesTotal += item.bytesTotal;
      speed += item.speed;
    }
    return { items, totals: { counts, bytesSent, bytesTotal, speed, eta: etaSeconds(bytesTotal - bytesSent, speed) }, concurrency };
  }

  function stop(entry: Entry, intent: 'pause' | 'cancel'): void {
    entry.intent = intent;
    entry.controller?.abort(new DOMException(intent === 'pause' ? 'Upload paused' : 'Upload cancelled', 'AbortError'));
  }

  function retryItem(id: string): void {
    const entry = find(id);
    if (entry.state !== 'failed' && entry.state !== 'cancelled') return;
    const error = entry.error;
    // A remembered upload that vanished (completed/aborted elsewhere): start a new one.
    if (entry.task && entry.explicitUploadId === undefined && error instanceof ApiError && error.code === 'upload_not_exists') entry.task.forgetRemote();
    entry.state = 'queued';
    entry.error = undefined;
    changed(entry);
    pump();
  }

  function removeItem(id: string): void {
    const entry = find(id);
    if (entry.state !== 'queued' && entry.state !== 'done' && entry.state !== 'failed' && entry.state !== 'cancelled') return;
    entry.task?.dispose();
    entries.splice(entries.indexOf(entry), 1);
    changed();
    // The last queued item may be gone: wake whoever waits for the queue to go idle.
    pump();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot() {
      snapshot ??= build();
      return snapshot;
    },
    add(uploads) {
      const ids = uploads.map((u) =>
        addEntry({ kind: u.kind, bucket: u.bucket, zone: u.zone, key: u.key, file: u.file, relativePath: u.relativePath, metadata: u.metadata, explicitUploadId: undefined }),
      );
      pump();
      return ids;
    },
    resumeRemote(upload, file) {
      const id = addEntry({
        kind: 'multipart',
        bucket: upload.bucket,
        zone: upload.zone,
        key: upload.key,
        file,
        relativePath: file.name,
        metadata: undefined,
        explicitUploadId: upload.uploadId,
      });
      pump();
      return id;
    },
    pause(id) {
      const entry = find(id);
      if (entry.state === 'queued') {
        entry.state = 'paused';
        changed(entry);
      } else if (entry.state === 'running') stop(entry, 'pause');
    },
    resume(id) {
      const entry = find(id);
      if (entry.state !== 'paused') return;
      entry.state = 'queued';
      changed(entry);
      pump();
    },
    async cancel(id) {
      const entry = find(id);
      if (entry.state === 'done' || entry.state === 'cancelled') return;
      if (entry.state === 'running') {
        stop(entry, 'cancel');
        // Abort on the server only after our own part requests have stopped.
        await entry.settled;
      } else {
        entry.state = 'cancelled';
        changed(entry);
      }
      const task = entry.task;
      entry.task = undefined;
      if (!task) return;
      try {
        await task.abort();
      } catch (error) {
        // The parts stay on the server; show why so the user can abort from the inspector.
        entry.error = asError(error);
        changed(entry);
      }
    },
    retry: retryItem,
    retryFailed() {
      for (const entry of entries) if (entry.state === 'failed') retryItem(entry.id);
    },
    remove: removeItem,
    clearFinished() {
      for (const entry of [...entries]) if (entry.state === 'done' || entry.state === 'cancelled') removeItem(entry.id);
    },
    setPartConcurrency(n) {
      partConcurrency = Math.max(1, Math.floor(n));
    },
    setConcurrency(n) {
      concurrency = Math.max(1, Math.floor(n));
      changed();
      pump();
    },
    listResumable: () => resumeStore.list(scope),
    async forgetResumable(record, opts = {}) {
      if (opts.abortRemote) {
        const { bucket, zone, key, uploadId } = record;
        await options.ports.abortMultipartUpload({ bucket, ...(zone === undefined ? {} : { zone }), key, uploadId }, new AbortController().signal);
      }
      await resumeStore.remove(record.uploadId);
    },
    idle() {
      if (!entries.some((e) => e.state === 'running' || e.state === 'queued')) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    dispose() {
      disposed = true;
      for (const entry of entries) {
        if (entry.state === 'running') stop(entry, 'pause');
        entry.task?.dispose();
      }
      cancelTimer?.();
      listeners.clear();
      hasher.dispose();
    },
  };
}
