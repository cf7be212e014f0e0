import { ApiError } from '../../../api/errors.ts';
import { uploadByForm } from './form-upload.ts';
import { createMd5Hasher } from './hasher.ts';
import { QUEUED, transition, type LifecycleEvent } from './lifecycle.ts';
import { MultipartUpload } from './multipart.ts';
import { systemClock } from './ports.ts';
import { itemOf, snapshotOf, type Entry, type Spec, type UploadQueue, type UploadQueueOptions, type UploadsSnapshot } from './queue-model.ts';
import { createMemoryResumeStore } from './resume-store.ts';
import { DEFAULT_RETRY_POLICY } from './retry.ts';
import { SpeedMeter } from './speed.ts';

/**
 * The one upload store (README.md, "Architecture": transfers live in one upload store): every form and
 * multipart transfer of the session, a concurrency limit, and immutable snapshots for React's
 * useSyncExternalStore. An item changes state only through `apply`, which asks the lifecycle's pure
 * `transition` (lifecycle.ts); everything else the queue changes sits in one state object (`q`). State
 * changes notify at once (next microtask); progress notifications are throttled to one per
 * `notifyIntervalMs`, so a 1000 Hz stream of XHR progress events costs a handful of renders per second.
 * What an item is and how the UI's snapshot is derived from it is the queue's model (queue-model.ts).
 */

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
  const listeners = new Set<() => void>();
  /** Everything of the queue that changes, in one place. */
  const q: {
    concurrency: number;
    partConcurrency: number;
    entries: Entry[];
    snapshot: UploadsSnapshot | undefined;
    nextId: number;
    /** A state-change notification is due at the next microtask. */
    urgentScheduled: boolean;
    /** Cancels the pending (throttled) progress notification. */
    cancelTimer: (() => void) | undefined;
    lastNotify: number;
    idleWaiters: Array<() => void>;
    disposed: boolean;
  } = {
    concurrency: Math.max(1, options.concurrency ?? 3),
    partConcurrency: Math.max(1, Math.floor(options.partConcurrency ?? 4)),
    entries: [],
    snapshot: undefined,
    nextId: 1,
    urgentScheduled: false,
    cancelTimer: undefined,
    lastNotify: Number.NEGATIVE_INFINITY,
    idleWaiters: [],
    disposed: false,
  };

  function notify(): void {
    q.cancelTimer?.();
    q.cancelTimer = undefined;
    q.lastNotify = clock.now();
    for (const listener of [...listeners]) listener();
  }

  /** A state change: one notification after the current synchronous work. */
  function changed(entry?: Entry): void {
    if (entry) entry.cached = undefined;
    q.snapshot = undefined;
    if (q.urgentScheduled) return;
    q.urgentScheduled = true;
    queueMicrotask(() => {
      q.urgentScheduled = false;
      notify();
    });
  }

  /** Progress: at most one notification per interval. */
  function progressed(entry: Entry): void {
    entry.cached = undefined;
    q.snapshot = undefined;
    if (q.cancelTimer || q.urgentScheduled) return;
    const wait = Math.max(0, q.lastNotify + notifyInterval - clock.now());
    q.cancelTimer = clock.setTimeout(notify, wait);
  }

  /**
   * The one place an item changes state: the lifecycle's transition (lifecycle.ts) decides; an event the
   * item's state does not accept changes nothing and returns false.
   */
  function apply(entry: Entry, event: LifecycleEvent): boolean {
    const next = transition(entry.life, event);
    if (next === entry.life) return false;
    entry.life = next;
    changed(entry);
    if (next.state === 'done') options.onDone?.(itemOf(entry, clock.now()));
    return true;
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
      partConcurrency: q.partConcurrency,
      partPlan: options.partPlan ?? {},
      sendContentMd5: options.sendContentMd5 ?? true,
    };
  }

  function taskFor(entry: Entry): MultipartUpload {
    const { spec, run } = entry;
    run.task ??= new MultipartUpload(
      multipartDeps(),
      {
        bucket: spec.bucket,
        ...(spec.zone === undefined ? {} : { zone: spec.zone }),
        key: spec.key,
        file: spec.file,
        ...(spec.metadata ? { metadata: spec.metadata } : {}),
        ...(spec.explicitUploadId === undefined ? {} : { uploadId: spec.explicitUploadId }),
      },
      {
        onChange: () => progressed(entry),
        onNetworkBytes: (delta) => run.meter.add(clock.now(), delta),
      },
    );
    return run.task;
  }

  /**
   * A form upload carries no Content-MD5, so it is checked afterwards, in a way that leaves the bucket as it
   * was when the check fails (form-upload.ts): the file's MD5 (hashed in the worker while the bytes travel)
   * must be the ETag the service stored. A mismatch is not retried automatically: the item fails with both
   * values and the user retries it.
   */
  async function runForm(entry: Entry, signal: AbortSignal): Promise<string> {
    const { spec, run } = entry;
    const size = spec.file.size;
    const md5 = (run.formMd5 ??= hasher.md5(spec.file));
    // Reported after the upload: an unhandled rejection must not surface while it runs.
    md5.catch(() => undefined);
    try {
      const etag = await uploadByForm(
        { ports: options.ports, retry, clock, random },
        {
          bucket: spec.bucket,
          ...(spec.zone === undefined ? {} : { zone: spec.zone }),
          key: spec.key,
          file: spec.file,
          metadata: spec.metadata,
          keyFree: spec.keyFree,
          md5,
          signal,
          onRetry: () => {
            run.formSent = 0;
            progressed(entry);
          },
          // The form body adds field overhead to `total`; scale to the file's bytes.
          onProgress: ({ loaded, total }) => {
            const sent = total > 0 ? Math.min(size, Math.round((loaded / total) * size)) : 0;
            if (sent > run.formSent) run.meter.add(clock.now(), sent - run.formSent);
            run.formSent = sent;
            progressed(entry);
          },
        },
      );
      run.formSent = size;
      return etag;
    } catch (error) {
      // A hash that failed is hashed again on the next attempt.
      if (await md5.then(() => false, () => true)) run.formMd5 = undefined;
      throw error;
    }
  }

  function start(entry: Entry): void {
    if (!apply(entry, { type: 'start' })) return;
    const { run } = entry;
    const controller = new AbortController();
    run.controller = controller;
    run.meter.reset(clock.now());
    const work = entry.spec.kind === 'form' ? runForm(entry, controller.signal) : taskFor(entry).run(controller.signal).then((r) => r.etag);
    run.settled = work
      .then<LifecycleEvent, LifecycleEvent>(
        (etag) => ({ type: 'succeeded', etag }),
        // Paused or cancelled when it was being stopped for that; failed otherwise.
        (error: unknown) => ({ type: 'ended', error: asError(error) }),
      )
      .then((outcome) => {
        run.controller = undefined;
        run.settled = undefined;
        apply(entry, outcome);
        pump();
      });
  }

  function pump(): void {
    if (q.disposed) return;
    let running = q.entries.filter((e) => e.life.state === 'running').length;
    for (const entry of q.entries) {
      if (running >= q.concurrency) break;
      if (entry.life.state !== 'queued') continue;
      start(entry);
      running += 1;
    }
    if (running === 0 && !q.entries.some((e) => e.life.state === 'queued')) {
      const waiters = q.idleWaiters;
      q.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function find(id: string): Entry {
    const entry = q.entries.find((e) => e.spec.id === id);
    if (!entry) throw new RangeError(`No upload with id ${id}`);
    return entry;
  }

  function addEntry(init: Omit<Spec, 'id'>): string {
    const entry: Entry = {
      spec: { ...init, id: `u${q.nextId++}` },
      life: QUEUED,
      run: { controller: undefined, settled: undefined, task: undefined, formSent: 0, formMd5: undefined, meter: new SpeedMeter() },
      cached: undefined,
    };
    q.entries.push(entry);
    changed(entry);
    return entry.spec.id;
  }

  /** Aborts a running transfer; its run ends as paused or cancelled (lifecycle `ended` while stopping). */
  function abortRun(entry: Entry): void {
    if (entry.life.state !== 'running' || entry.life.stopping === undefined) return;
    const why = entry.life.stopping === 'pause' ? 'Upload paused' : 'Upload cancelled';
    entry.run.controller?.abort(new DOMException(why, 'AbortError'));
  }

  function retryItem(id: string): void {
    const entry = find(id);
    const previous = entry.life;
    if (!apply(entry, { type: 'retry' })) return;
    const error = previous.state === 'failed' || previous.state === 'cancelled' ? previous.error : undefined;
    // A remembered upload that vanished (completed/aborted elsewhere): start a new one.
    if (entry.run.task && entry.spec.explicitUploadId === undefined && error instanceof ApiError && error.code === 'upload_not_exists') entry.run.task.forgetRemote();
    pump();
  }

  function removeItem(id: string): void {
    const entry = find(id);
    if (!apply(entry, { type: 'remove' })) return;
    entry.run.task?.dispose();
    q.entries.splice(q.entries.indexOf(entry), 1);
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
      q.snapshot ??= snapshotOf(q.entries, q.concurrency, clock.now());
      return q.snapshot;
    },
    add(uploads) {
      const ids = uploads.map((u) =>
        addEntry({ kind: u.kind, bucket: u.bucket, zone: u.zone, key: u.key, file: u.file, relativePath: u.relativePath, metadata: u.metadata, explicitUploadId: undefined, keyFree: u.keyFree === true }),
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
        keyFree: false,
      });
      pump();
      return id;
    },
    pause(id) {
      const entry = find(id);
      if (apply(entry, { type: 'pause' })) abortRun(entry);
    },
    resume(id) {
      if (apply(find(id), { type: 'resume' })) pump();
    },
    async cancel(id) {
      const entry = find(id);
      const wasRunning = entry.life.state === 'running';
      if (!apply(entry, { type: 'cancel' }) && !wasRunning) return;
      if (wasRunning) {
        abortRun(entry);
        // Abort on the server only after our own part requests have stopped.
        await entry.run.settled;
      }
      const task = entry.run.task;
      entry.run.task = undefined;
      if (!task) return;
      try {
        await task.abort();
      } catch (error) {
        // The parts stay on the server; show why so the user can abort from the inspector.
        apply(entry, { type: 'abortFailed', error: asError(error) });
      }
    },
    retry: retryItem,
    retryFailed() {
      for (const entry of q.entries) if (entry.life.state === 'failed') retryItem(entry.spec.id);
    },
    remove: removeItem,
    clearFinished() {
      for (const entry of [...q.entries]) if (entry.life.state === 'done' || entry.life.state === 'cancelled') removeItem(entry.spec.id);
    },
    setPartConcurrency(n) {
      q.partConcurrency = Math.max(1, Math.floor(n));
    },
    setConcurrency(n) {
      q.concurrency = Math.max(1, Math.floor(n));
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
      if (!q.entries.some((e) => e.life.state === 'running' || e.life.state === 'queued')) return Promise.resolve();
      return new Promise((resolve) => q.idleWaiters.push(resolve));
    },
    dispose() {
      q.disposed = true;
      for (const entry of q.entries) {
        if (entry.life.state === 'running' && apply(entry, { type: 'pause' })) abortRun(entry);
        entry.run.task?.dispose();
      }
      q.cancelTimer?.();
      listeners.clear();
      hasher.dispose();
    },
  };
}
