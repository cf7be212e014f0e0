/**
 * What a job's view shows beside its counts: the rate over the last seconds and the time left, and the
 * objects that were skipped or failed (the rows of the failures table). Both are kept small: the rate from
 * a few samples, the problems up to MAX_PROBLEM_ROWS (the report lists every object, whatever their number).
 */
import type { Journal } from './journal.ts';
import type { ItemRecord, JobRecord } from './types.ts';
import { settledOf } from './types.ts';

export const MAX_PROBLEM_ROWS = 20_000;

/** Objects settled per second over the last `windowMs`, from samples taken as objects settle. */
export class RateMeter {
  readonly #windowMs: number;
  #samples: Array<{ at: number; settled: number }> = [];

  constructor(windowMs = 10_000) {
    this.#windowMs = windowMs;
  }

  sample(at: number, settled: number): void {
    const last = this.#samples.at(-1);
    if (last && at - last.at < 250) {
      last.settled = settled;
      return;
    }
    this.#samples.push({ at, settled });
    while (this.#samples.length > 2 && (this.#samples[0]?.at ?? at) < at - this.#windowMs) this.#samples.shift();
  }

  reset(): void {
    this.#samples = [];
  }

  /** Objects per second, or null before two samples a second apart. */
  rate(): number | null {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.at - first.at < 1000) return null;
    return ((last.settled - first.settled) * 1000) / (last.at - first.at);
  }
}

/** Seconds left at `rate`, or null when the total or the rate is unknown. */
export function secondsLeft(record: JobRecord, rate: number | null): number | null {
  const total = record.pass === 'retry' ? record.retryTotal : record.total;
  if (total === null || rate === null || rate <= 0) return null;
  const done = record.pass === 'retry' ? Math.max(0, (record.retryTotal ?? 0) - record.counts.failed) : settledOf(record.counts);
  return Math.max(0, Math.ceil((total - done) / rate));
}

export interface ProblemRow {
  key: string;
  state: 'skipped' | 'failed';
  code: string;
  message?: string;
  requestId?: string;
  rule?: ItemRecord['rule'];
}

export function problemRowOf(item: ItemRecord): ProblemRow | undefined {
  if (item.state !== 'skipped' && item.state !== 'failed') return undefined;
  return {
    key: item.key,
    state: item.state,
    code: item.code ?? '',
    ...(item.message !== undefined ? { message: item.message } : {}),
    ...(item.requestId !== undefined ? { requestId: item.requestId } : {}),
    ...(item.rule !== undefined ? { rule: item.rule } : {}),
  };
}

/** The skipped and failed objects of a job, in key order, up to MAX_PROBLEM_ROWS kept (the rest counted). */
export class ProblemList {
  #rows = new Map<string, ProblemRow>();
  #beyond = 0;
  #version = 0;
  #array: ProblemRow[] | undefined;

  get version(): number {
    return this.#version;
  }

  /** Rows beyond the ones kept. */
  get beyond(): number {
    return this.#beyond;
  }

  rows(): readonly ProblemRow[] {
    this.#array ??= [...this.#rows.values()];
    return this.#array;
  }

  /** Records an object's new state: a problem is added or replaced, anything else removes it. */
  update(item: ItemRecord): void {
    const row = problemRowOf(item);
    const had = this.#rows.has(item.key);
    if (row) {
      if (!had && this.#rows.size >= MAX_PROBLEM_ROWS) {
        this.#beyond += 1;
        return;
      }
      this.#rows.set(item.key, row);
    } else if (had) this.#rows.delete(item.key);
    else return;
    this.#array = undefined;
    this.#version += 1;
  }

  /** Replaces the rows with what the journal holds of a job's problems. */
  async load(journal: Journal, job: string): Promise<void> {
    this.#rows = new Map();
    this.#beyond = 0;
    this.#array = undefined;
    this.#version += 1;
    let after: string | null = null;
    for (;;) {
      const page = await journal.scan(job, { after, limit: 1000, filter: 'problems' });
      for (const item of page.items) this.update(item);
      if (page.done || page.last === null) return;
      after = page.last;
    }
  }
}
