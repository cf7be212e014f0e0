/**
 * The jobs of this tab and what it knows of the others': one host per app (made by the composition root
 * with the metadata write port), outside React so a job keeps running while the user browses elsewhere.
 * Views read `state()` through useSyncExternalStore; the host tells them about changes at most four times
 * a second, however fast objects settle, so a job of a million objects never re-renders per object.
 *
 * Starting and resuming happen under the start lock (locks.ts): the jobs another tab runs are read from
 * the journal, and a job whose objects overlap one of them is refused ('busy').
 */
import type { QsClient } from '../../../api/client.ts';
import { connectionId } from '../../../api/connection.ts';
import { dryRun, type DryRun, type DryRunInput } from './dry-run.ts';
import { createIndexedDbJournal } from './journal-idb.ts';
import { createMemoryJournal, type Journal } from './journal.ts';
import { browserBroadcast, browserLocks, jobLockName, jobTouches, START_LOCK, type HeldLock, type JobBroadcast, type JobLocks } from './locks.ts';
import type { MetadataWritePort } from './ops/unit.ts';
import type { PoolSettings } from './pool.ts';
import { ProblemList } from './progress.ts';
import { buildReport, reportFileName, type ReportFormat } from './report.ts';
import { JobRunner, type JobSnapshot } from './runner.ts';
import { NO_COUNTS, type JobOperation, type JobRecord, type JobScope } from './types.ts';
import { jobVisibility } from './visibility.ts';

export interface JobEntry {
  record: JobRecord;
  /** Live, when this tab runs (or ran) the job since it was opened. */
  live: JobSnapshot | undefined;
  /** Another tab is running it right now. */
  elsewhere: boolean;
}

export interface JobsState {
  connection: string | undefined;
  entries: readonly JobEntry[];
  loaded: boolean;
}

export interface JobClient {
  client: QsClient;
  /** Demo mode: the page reads every header (no CORS). */
  demo: boolean;
}

export type StartOutcome = { kind: 'started'; id: string } | { kind: 'busy'; other: JobRecord } | { kind: 'elsewhere' };

export interface NewJob {
  zone: string;
  bucket: string;
  scope: JobScope;
  operation: JobOperation;
  /** The dry run's count, when there was one. */
  total?: number | null;
}

export interface JobHostDeps {
  metadata: MetadataWritePort;
  journal?: Journal;
  locks?: JobLocks;
  broadcast?: JobBroadcast;
  pool?: PoolSettings;
  /** Milliseconds between two notifications of the views. */
  notifyEveryMs?: number;
  newId?: () => string;
}

const UNCHANGED_STATE: JobsState = { connection: undefined, entries: [], loaded: false };

export class JobHost {
  readonly journal: Journal;
  /** The journal lives in this page only (no IndexedDB): a job neither survives a reload nor can be resumed after one. */
  readonly inMemory: boolean;
  readonly #deps: JobHostDeps;
  readonly #locks: JobLocks;
  readonly #broadcast: JobBroadcast;
  readonly #runners = new Map<string, { runner: JobRunner; lock: HeldLock | null; client: JobClient }>();
  readonly #listeners = new Set<() => void>();
  #records: JobRecord[] = [];
  #held = new Set<string>();
  #connection: string | undefined;
  #state: JobsState = UNCHANGED_STATE;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastNotify = 0;

  constructor(deps: JobHostDeps) {
    this.#deps = deps;
    // A browser without IndexedDB (some private modes) still runs jobs, kept for this page only.
    this.inMemory = !deps.journal && typeof indexedDB === 'undefined';
    this.journal = deps.journal ?? (this.inMemory ? createMemoryJournal() : createIndexedDbJournal());
    this.#locks = deps.locks ?? browserLocks();
    this.#broadcast = deps.broadcast ?? browserBroadcast();
    this.#broadcast.listen(() => void this.refresh());
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  state(): JobsState {
    return this.#state;
  }

  /** Reads the jobs of `client`'s connection (and makes it the one the views show). */
  async open(client: QsClient): Promise<void> {
    this.#connection = connectionId(client.connection);
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined) return;
    const [records, held] = await Promise.all([this.journal.jobs(connection), this.#locks.held()]);
    if (connection !== this.#connection) return;
    this.#records = records;
    this.#held = held;
    // A job this tab ran and let go of, which another tab now runs: its live view here is stale.
    for (const [id, local] of this.#runners) if (!local.lock && held.has(jobLockName(id))) this.#runners.delete(id);
    this.#publish();
  }

  snapshot(id: string): JobSnapshot | undefined {
    return this.#runners.get(id)?.runner.snapshot();
  }

  /** Starts a new job, unless a job running in any tab touches the same objects. */
  create(jobClient: JobClient, job: NewJob): Promise<StartOutcome> {
    const connection = connectionId(jobClient.client.connection);
    return this.#locks.exclusive(START_LOCK, async () => {
      const busy = await this.#busyWith(connection, job.zone, job.bucket, job.scope, undefined);
      if (busy) return { kind: 'busy', other: busy };
      const now = Date.now();
      const record: JobRecord = {
        id: this.#deps.newId?.() ?? crypto.randomUUID(),
        connection,
        zone: job.zone,
        bucket: job.bucket,
        scope: job.scope,
        operation: job.operation,
        createdAt: now,
        updatedAt: now,
        status: 'running',
        pass: 'main',
        cursor: null,
        total: job.total ?? null,
        retryTotal: null,
        counts: NO_COUNTS,
        fatal: null,
      };
      await this.journal.commit([], record);
      const lock = await this.#locks.tryHold(jobLockName(record.id));
      this.#run(record, lock, jobClient, (runner) => runner.start());
      return { kind: 'started', id: record.id };
    });
  }

  /** Resumes (or retries the failed objects of) a job of the journal in this tab. */
  resume(jobClient: JobClient, id: string, how: 'resume' | 'retry' = 'resume'): Promise<StartOutcome> {
    const local = this.#runners.get(id);
    if (local && local.lock) {
      if (how === 'retry') local.runner.retryFailed();
      else if (local.runner.snapshot().phase === 'idle') local.runner.start();
      else local.runner.resume();
      return Promise.resolve({ kind: 'started', id });
    }
    return this.#locks.exclusive(START_LOCK, async () => {
      const record = local?.runner.snapshot().record ?? (await this.journal.job(id));
      if (!record) return { kind: 'elsewhere' };
      const lock = await this.#locks.tryHold(jobLockName(id));
      if (!lock) return { kind: 'elsewhere' };
      const busy = await this.#busyWith(record.connection, record.zone, record.bucket, record.scope, id);
      if (busy) {
        await lock.release();
        return { kind: 'busy', other: busy };
      }
      this.#run(record, lock, jobClient, (runner) => (how === 'retry' ? runner.retryFailed() : runner.start()));
      return { kind: 'started', id };
    });
  }

  pause(id: string): void {
    this.#runners.get(id)?.runner.pause();
  }

  /** Cancels a job running here; one the journal holds as running or paused (no tab runs it) is marked cancelled. */
  async cancel(id: string): Promise<void> {
    const local = this.#runners.get(id);
    if (local?.lock) {
      local.runner.cancel();
      return;
    }
    await this.#locks.exclusive(START_LOCK, async () => {
      const lock = await this.#locks.tryHold(jobLockName(id));
      if (!lock) return;
      try {
        const record = await this.journal.job(id);
        if (record && (record.status === 'running' || record.status === 'paused')) await this.journal.commit([], { ...record, status: 'cancelled', updatedAt: Date.now() });
      } finally {
        await lock.release();
      }
    });
    this.#runners.delete(id);
    this.#broadcast.post(id);
    await this.refresh();
  }

  /** The dry run of a job not started yet (dry-run.ts), with the app's metadata write port. */
  dryRun(jobClient: JobClient, input: Omit<DryRunInput, 'client' | 'metadata'>): Promise<DryRun> {
    return dryRun({ ...input, client: jobClient.client, metadata: this.#deps.metadata });
  }

  /** The skipped and failed objects of a job this tab does not run (read from the journal). */
  async problems(id: string): Promise<ProblemList> {
    const list = new ProblemList();
    await list.load(this.journal, id);
    return list;
  }

  /** A new job that puts back what the edit job `id` changed, where nobody changed it since. */
  async undo(jobClient: JobClient, id: string): Promise<StartOutcome> {
    const original = this.#runners.get(id)?.runner.snapshot().record ?? (await this.journal.job(id));
    if (!original || original.operation.kind !== 'edit') return { kind: 'elsewhere' };
    return this.create(jobClient, { zone: original.zone, bucket: original.bucket, scope: original.scope, operation: { kind: 'undo', of: id }, total: original.counts.changed });
  }

  /** Forgets a job that no tab is running. */
  async remove(id: string): Promise<void> {
    const local = this.#runners.get(id);
    if (local && local.runner.snapshot().phase !== 'idle' && local.lock) return;
    if ((await this.#locks.held()).has(jobLockName(id)) && !local?.lock) return;
    await local?.lock?.release();
    this.#runners.delete(id);
    await this.journal.remove(id);
    this.#broadcast.post(id);
    await this.refresh();
  }

  async report(id: string, format: ReportFormat): Promise<{ blob: Blob; name: string } | undefined> {
    const record = this.#runners.get(id)?.runner.snapshot().record ?? (await this.journal.job(id));
    if (!record) return undefined;
    return { blob: await buildReport(this.journal, record, format), name: reportFileName(record, format) };
  }

  /** Stops this tab's jobs (another connection opened, or the app goes): they stay resumable. */
  dispose(): void {
    for (const { runner, lock } of this.#runners.values()) {
      runner.pause();
      void lock?.release();
    }
    this.#runners.clear();
    this.#broadcast.close();
  }

  async #busyWith(connection: string, zone: string, bucket: string, scope: JobScope, except: string | undefined): Promise<JobRecord | undefined> {
    const held = await this.#locks.held();
    const running = (await this.journal.jobs(connection)).filter((job) => job.id !== except && held.has(jobLockName(job.id)));
    return running.find((job) => jobTouches(job, zone, bucket, scope));
  }

  #run(record: JobRecord, lock: HeldLock | null, jobClient: JobClient, begin: (runner: JobRunner) => void): void {
    const runner = new JobRunner(record, {
      client: jobClient.client,
      journal: this.journal,
      metadata: this.#deps.metadata,
      visibility: (zone, bucket) => jobVisibility(jobClient.client, jobClient.demo, zone, bucket),
      ...(this.#deps.pool ? { pool: this.#deps.pool } : {}),
      onChange: () => this.#changed(record.id),
    });
    this.#runners.set(record.id, { runner, lock, client: jobClient });
    begin(runner);
    void runner.loadProblems().then(() => this.#changed(record.id));
    void this.#watch(record.id, runner);
  }

  /** Releases the job's lock whenever a pass ends without leaving it paused here. */
  async #watch(id: string, runner: JobRunner): Promise<void> {
    for (;;) {
      await runner.settled();
      const phase = runner.snapshot().phase;
      const entry = this.#runners.get(id);
      if (!entry || entry.runner !== runner) return;
      if (phase === 'running' || phase === 'pausing' || phase === 'cancelling') continue;
      if (phase !== 'paused' && entry.lock) {
        const lock = entry.lock;
        entry.lock = null;
        await lock.release();
        await this.refresh();
      }
      this.#changed(id);
      return;
    }
  }

  #changed(id: string): void {
    const now = Date.now();
    const every = this.#deps.notifyEveryMs ?? 250;
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastNotify + every - now);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#lastNotify = Date.now();
      this.#publish();
      this.#broadcast.post(id);
    }, wait);
  }

  /** This tab holds the job's lock (the held set may be older than the lock's release). */
  #ours(id: string): boolean {
    const local = this.#runners.get(id);
    return local !== undefined && (local.lock !== null || local.runner.snapshot().phase !== 'idle');
  }

  #publish(): void {
    const live = new Map([...this.#runners].map(([id, { runner }]) => [id, runner.snapshot()] as const));
    const byId = new Map(this.#records.map((r) => [r.id, r] as const));
    for (const [id, snapshot] of live) if (snapshot.record.connection === this.#connection) byId.set(id, snapshot.record);
    const entries = [...byId.values()]
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((record) => ({ record, live: live.get(record.id), elsewhere: this.#held.has(jobLockName(record.id)) && !this.#ours(record.id) }));
    this.#state = { connection: this.#connection, entries, loaded: true };
    for (const listener of [...this.#listeners]) listener();
  }
}
