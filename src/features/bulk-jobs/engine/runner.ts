/**
 * Runs one job in this tab: a pass over its source (the scope's listing, a selection, or the journal's
 * failed or changed objects) through the adaptive pool, every object's outcome written to the journal
 * together with the job's counts and cursor. The job's phase changes only through `transition`
 * (machine.ts); the views read `snapshot()` after `onChange`.
 *
 * A pass first settles the objects whose write was sent without a known outcome (journal intents), then
 * walks its source page by page from the stored cursor. The cursor moves past a page once every object of
 * it is settled and journaled, so a resume re-reads at most the pages in flight and skips what they
 * already settled.
 */
import type { QsClient } from '../../../api/client.ts';
import type { HeaderVisibility } from '../../../api/cors/visibility.ts';
import { JournalWriter, type Journal } from './journal.ts';
import { accepts, isActive, storedStatusOf, transition, type JobEvent, type JobPhase } from './machine.ts';
import { deleteObjects } from './ops/delete.ts';
import { editObjects, undoEdits } from './ops/edit.ts';
import { transferObjects } from './ops/transfer.ts';
import type { ItemRecord as Item, JobOperation, JobRecord } from './types.ts';
import { countMove, isTerminal, settledOf } from './types.ts';
import type { MetadataWritePort, Operation, UnitContext, UnitResult } from './ops/unit.ts';
import { ConcurrencyController, DEFAULT_POOL_SETTINGS, realClock, runAdaptivePool, type PoolClock, type PoolSettings } from './pool.ts';
import { ProblemList, RateMeter, secondsLeft, type ProblemRow } from './progress.ts';
import { countListing, journalSource, keysSource, listingSource, type JobSource, type SourceEntry } from './sources.ts';
import { defer, sleepFor } from './defer.ts';

/** Objects in a row failing with the same code, with no success between them, that stop the job. */
export const FATAL_STREAK = 50;

export interface RunnerDeps {
  client: QsClient;
  journal: Journal;
  metadata: MetadataWritePort;
  /** What the page may read of the bucket's headers, asked when a pass of an edit or undo starts. */
  visibility(zone: string, bucket: string): Promise<HeaderVisibility>;
  pool?: PoolSettings;
  clock?: PoolClock;
  /** Told after every change a view may show (the host throttles it). */
  onChange?(): void;
}

export interface JobSnapshot {
  record: JobRecord;
  phase: JobPhase;
  inFlight: number;
  /** Objects the pool lets run at once right now. */
  limit: number;
  rate: number | null;
  secondsLeft: number | null;
  problems: readonly ProblemRow[];
  problemsBeyond: number;
  problemsVersion: number;
}

export function operationOf(op: JobOperation): Operation {
  switch (op.kind) {
    case 'edit':
      return editObjects(op.edits);
    case 'undo':
      return undoEdits;
    case 'delete':
      return deleteObjects;
    case 'copy':
    case 'move':
      return transferObjects(op.kind, op.destination, op.overwrite);
  }
}

interface UnitEntry {
  entry: SourceEntry;
  previous: Item | undefined;
  /** The source page it came from (none for an intent settled first). */
  page: PageTrack | undefined;
}

/** One object, or a delete's batch (which may span several pages of the listing). */
interface Unit {
  entries: UnitEntry[];
}

interface PageTrack {
  cursor: string;
  /** Its objects not settled yet. */
  open: number;
}

export class JobRunner {
  readonly #deps: RunnerDeps;
  readonly #writer: JournalWriter;
  readonly #controller: ConcurrencyController;
  readonly #problems = new ProblemList();
  readonly #rate = new RateMeter();
  #record: JobRecord;
  #phase: JobPhase = 'idle';
  #inFlight = 0;
  #gate = defer<void>();
  #stop = new AbortController();
  #count: AbortController | undefined;
  #streak = { code: '', count: 0 };
  #loop: Promise<void> | undefined;
  /** Which pass is current: the tail of an earlier one (its last in-flight objects) must not drive the phase. */
  #generation = 0;
  /** The latest record of each object of the pages in flight (an intent written by an earlier attempt). */
  #current = new Map<string, Item>();

  constructor(record: JobRecord, deps: RunnerDeps) {
    this.#record = record;
    this.#deps = deps;
    this.#writer = new JournalWriter(deps.journal);
    this.#controller = new ConcurrencyController(deps.pool ?? DEFAULT_POOL_SETTINGS);
  }

  get id(): string {
    return this.#record.id;
  }

  snapshot(): JobSnapshot {
    return {
      record: this.#record,
      phase: this.#phase,
      inFlight: this.#inFlight,
      limit: this.#controller.limit,
      rate: isActive(this.#phase) ? this.#rate.rate() : null,
      secondsLeft: isActive(this.#phase) ? secondsLeft(this.#record, this.#rate.rate()) : null,
      problems: this.#problems.rows(),
      problemsBeyond: this.#problems.beyond,
      problemsVersion: this.#problems.version,
    };
  }

  /** Loads the problems the journal already holds (a job resumed or reopened). */
  loadProblems(): Promise<void> {
    return this.#problems.load(this.#deps.journal, this.#record.id);
  }

  /** Resolves when the current pass has ended (finished, paused, cancelled or failed). */
  settled(): Promise<void> {
    return this.#loop ?? Promise.resolve();
  }

  start(): void {
    this.#event({ type: 'start' });
  }

  pause(): void {
    this.#event({ type: 'pause' });
  }

  resume(): void {
    this.#event({ type: 'resume' });
  }

  cancel(): void {
    this.#event({ type: 'cancel' });
  }

  /** A pass over the objects that failed, once the job is over. */
  retryFailed(): void {
    if (!accepts(this.#phase, { type: 'retry' }) || this.#record.counts.failed === 0) return;
    this.#update({ pass: 'retry', cursor: null, retryTotal: this.#record.counts.failed, fatal: null });
    this.#event({ type: 'retry' });
  }

  #event(event: JobEvent): void {
    const before = this.#phase;
    const after = transition(before, event);
    if (after === before) return;
    this.#phase = after;
    if (after === 'cancelling' || after === 'cancelled' || after === 'paused' || after === 'pausing') this.#count?.abort();
    if (after === 'cancelling') this.#stop.abort();
    // The pool waits on the gate while pausing or paused; anything else lets it go (and decide).
    if (after !== 'pausing' && after !== 'paused') this.#gate.resolve();
    else if (before !== 'pausing' && before !== 'paused') this.#gate = defer<void>();
    if (after === 'running' && !isActive(before) && before !== 'pausing' && before !== 'paused') this.#loop = this.#pass();
    if (after === 'running' && (before === 'paused' || before === 'pausing')) this.#startCount();
    if (after === 'pausing' && this.#inFlight === 0) this.#phase = transition(after, { type: 'drained' });
    this.#persist();
  }

  #update(patch: Partial<JobRecord>): void {
    this.#record = { ...this.#record, ...patch, updatedAt: Date.now() };
  }

  #persist(): void {
    this.#update({ status: storedStatusOf(this.#phase, this.#record.status) });
    void this.#writer.setJob(this.#record).catch(() => undefined);
    this.#deps.onChange?.();
  }

  #source(): JobSource {
    const { scope, operation } = this.#record;
    const cursor = this.#record.cursor;
    if (operation.kind === 'undo') return journalSource(this.#deps.journal, operation.of, 'changed', cursor);
    if (this.#record.pass === 'retry') return journalSource(this.#deps.journal, this.#record.id, 'failed', cursor);
    const bucket = { zone: this.#record.zone, bucket: this.#record.bucket };
    if (scope.kind === 'keys') return keysSource(scope.keys, cursor);
    return listingSource(this.#deps.client, bucket, scope.kind === 'prefix' ? scope.prefix : '', cursor);
  }

  #startCount(): void {
    const { scope, operation, pass, total } = this.#record;
    if (total !== null || pass !== 'main' || scope.kind === 'keys' || operation.kind === 'undo') return;
    const controller = new AbortController();
    this.#count = controller;
    const op = operationOf(this.#record.operation);
    countListing(this.#deps.client, { zone: this.#record.zone, bucket: this.#record.bucket }, scope.kind === 'prefix' ? scope.prefix : '', { signal: controller.signal, keep: (key) => op.accepts(key) }).then(
      (count) => {
        if (!controller.signal.aborted) this.#update({ total: count });
      },
      () => undefined,
    );
  }

  async #pass(): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    // The tail of the pass before (its objects in flight finishing) ends first; it no longer drives the phase.
    await this.#loop?.catch(() => undefined);
    this.#stop = new AbortController();
    this.#rate.reset();
    this.#streak = { code: '', count: 0 };
    const { client, journal } = this.#deps;
    const operation = operationOf(this.#record.operation);
    const needsVisibility = this.#record.operation.kind === 'edit' || this.#record.operation.kind === 'undo';
    const visibility: HeaderVisibility = needsVisibility ? await this.#deps.visibility(this.#record.zone, this.#record.bucket) : { kind: 'all', reason: 'same-origin' };
    const undoOf = this.#record.operation.kind === 'undo' ? this.#record.operation.of : undefined;
    const original = undoOf === undefined ? undefined : await journal.job(undoOf);
    if (this.#record.total === null && this.#record.scope.kind === 'keys') this.#update({ total: this.#record.scope.keys.filter((k) => operation.accepts(k)).length });
    if (undoOf !== undefined && this.#record.total === null) this.#update({ total: original?.counts.changed ?? 0 });
    this.#startCount();
    await this.#problems.load(journal, this.#record.id);

    const pending: UnitEntry[] = [];
    const pages: PageTrack[] = [];
    const intents = await journal.intents(this.#record.id);
    // Settled first, on their own: a page listed later that holds one of them leaves it to this unit.
    const recovering = new Set(intents.map((i) => i.key));
    const originals = undoOf === undefined ? new Map<string, Item>() : await journal.items(undoOf, intents.map((i) => i.key));
    for (const intent of intents) pending.push({ entry: { key: intent.key, ...optionalRecord(originals.get(intent.key)) }, previous: intent, page: undefined });
    const source = this.#source();
    let sourceDone = false;
    let listingFailures = 0;

    // Pulls source pages until a unit is full (one object, or a delete's batch) or the source is done.
    const next = async (): Promise<Unit | undefined> => {
      while (pending.length < operation.batch && !sourceDone) {
        let page;
        try {
          page = await source.next();
          listingFailures = 0;
        } catch (error) {
          listingFailures += 1;
          if (listingFailures < 4 && !this.#stop.signal.aborted) {
            await sleepFor(500 * 2 ** listingFailures, this.#stop.signal);
            continue;
          }
          this.#fatal(error);
          return undefined;
        }
        if (!page) {
          sourceDone = true;
          break;
        }
        const entries = page.entries.filter((e) => operation.accepts(e.key));
        const known = await journal.items(this.#record.id, entries.map((e) => e.key));
        const open = entries.filter((e) => {
          if (recovering.has(e.key)) return false;
          const previous = known.get(e.key);
          return !(isTerminal(previous?.state) && (this.#record.pass === 'main' || previous?.state !== 'failed'));
        });
        const track: PageTrack = { cursor: page.cursor, open: open.length };
        pages.push(track);
        for (const entry of open) pending.push({ entry, previous: known.get(entry.key), page: track });
        this.#advance(pages);
      }
      if (pending.length === 0) return undefined;
      return { entries: pending.splice(0, operation.batch) };
    };

    const task = async (unit: Unit, attempt: number) => {
      const context: UnitContext = {
        client,
        job: this.#record,
        metadata: this.#deps.metadata,
        visibility,
        attempt,
        stopping: () => this.#phase === 'cancelling' || this.#phase === 'cancelled' || this.#phase === 'failed',
        intend: (records) => {
          for (const r of records) this.#current.set(r.key, r);
          return Promise.all(records.map((r) => this.#writer.put(r))).then(() => undefined);
        },
        amend: (records) => {
          for (const r of records) this.#problems.update(r);
          this.#deps.onChange?.();
          return Promise.all(records.map((r) => this.#writer.put(r))).then(() => undefined);
        },
        ...(original ? { original } : {}),
      };
      const entries = unit.entries.map((e) => ({ entry: e.entry, previous: this.#current.get(e.entry.key) ?? e.previous }));
      let result: UnitResult;
      try {
        result = await operation.run(entries, context);
      } catch (error) {
        if (this.#writer.failure !== undefined) this.#fatal(this.#writer.failure, 'journal_write_failed');
        result = { kind: 'settled', records: entries.map((e) => ({ job: this.#record.id, key: e.entry.key, state: 'failed', code: 'error', message: error instanceof Error ? error.message : String(error) })), outcome: { kind: 'other' } };
      }
      if (result.kind === 'settled') this.#settle(unit, result.records, pages);
      return result.kind === 'abandoned' ? { kind: 'other' as const } : result.outcome;
    };

    try {
      await runAdaptivePool(
        this.#controller,
        {
          next,
          task,
          gate: { admit: () => this.#admit() },
          stop: this.#stop.signal,
          onInFlight: (count) => {
            if (!current()) return;
            this.#inFlight = count;
            if (count === 0) this.#event({ type: 'drained' });
          },
        },
        this.#deps.clock ?? realClock,
      );
      await operation.finish?.(this.#stop.signal.aborted);
      if (current() && sourceDone && pending.length === 0 && this.#phase !== 'failed') {
        this.#advance(pages);
        this.#event({ type: 'exhausted' });
      } else if (current()) this.#event({ type: 'drained' });
    } catch (error) {
      if (current()) this.#fatal(error);
    }
    if (current()) this.#count?.abort();
    await this.#writer.flush().catch(() => undefined);
    this.#deps.onChange?.();
  }

  /** Moves the cursor past the oldest pages whose objects are all settled. */
  #advance(pages: PageTrack[]): void {
    let moved = false;
    while (pages[0] && pages[0].open === 0) {
      const page = pages.shift();
      if (page) this.#update({ cursor: page.cursor });
      moved = true;
    }
    if (moved) void this.#writer.setJob(this.#record).catch(() => undefined);
  }

  #settle(unit: Unit, records: readonly Item[], pages: PageTrack[]): void {
    let counts = this.#record.counts;
    const entries = new Map(unit.entries.map((e) => [e.entry.key, e] as const));
    for (const record of records) {
      const previous = entries.get(record.key)?.previous;
      counts = countMove(counts, previous?.state, record.state === 'intent' ? 'failed' : record.state);
      this.#current.delete(record.key);
      this.#problems.update(record);
      this.#trackStreak(record);
      void this.#writer.put(record).catch(() => undefined);
    }
    this.#update({ counts });
    for (const entry of unit.entries) if (entry.page) entry.page.open -= 1;
    this.#advance(pages);
    void this.#writer.setJob(this.#record).catch(() => undefined);
    this.#rate.sample(Date.now(), settledOf(counts));
    this.#deps.onChange?.();
  }

  #trackStreak(record: Item): void {
    if (record.state !== 'failed') {
      this.#streak = { code: '', count: 0 };
      return;
    }
    const code = record.code ?? '';
    this.#streak = code === this.#streak.code ? { code, count: this.#streak.count + 1 } : { code, count: 1 };
    if (this.#streak.count >= FATAL_STREAK) this.#fatal(new Error(`${FATAL_STREAK} objects in a row failed with ${code}`), code);
  }

  #fatal(error: unknown, code?: string): void {
    if (this.#phase === 'failed') return;
    this.#update({ fatal: { code: code ?? (error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'error'), message: error instanceof Error ? error.message : String(error) } });
    this.#event({ type: 'fatal' });
    this.#stop.abort();
    this.#gate.resolve();
  }

  async #admit(): Promise<boolean> {
    while (this.#phase === 'pausing' || this.#phase === 'paused') await this.#gate.promise;
    return this.#phase === 'running';
  }
}

function optionalRecord(record: Item | undefined): { record?: Item } {
  return record ? { record } : {};
}
