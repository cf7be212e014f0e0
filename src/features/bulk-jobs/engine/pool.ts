/**
 * How many objects a job works on at once, adapted to the answers it gets:
 *
 * - more while answers stay fast: after each round (as many answers as the current limit), the round's
 *   mean latency is compared with the best round seen; within 1.5× of it the limit grows by one;
 * - fewer when they slow down: beyond 2.5× of the best round it shrinks by one (requests queue in the
 *   browser once the objects in flight outnumber its connections to the host, six over HTTP/1.1);
 * - half as many, and a pause for everyone, when the server says so (429, 503, or a code asking to slow
 *   down): the pause is the answer's Retry-After when the page can read it, else an exponential backoff
 *   with jitter; the object is tried again afterwards.
 *
 * The best round drifts up by 5% per round that does not beat it, so a quiet moment long ago does not
 * hold the limit down forever. `ConcurrencyController` is pure (clock and randomness come in), the pool
 * around it is what the runner uses.
 */
import { ApiError } from '../../../api/errors.ts';
import { defer } from './defer.ts';

export interface PoolSettings {
  initial: number;
  min: number;
  max: number;
}

export const DEFAULT_POOL_SETTINGS: PoolSettings = { initial: 4, min: 1, max: 16 };

/** Longest pause a throttle imposes when the server names none. */
export const MAX_BACKOFF_MS = 30_000;
const BASE_BACKOFF_MS = 500;
/** A Retry-After longer than this is capped: a job must stay responsive to the user. */
const MAX_RETRY_AFTER_MS = 120_000;

export type TaskOutcome =
  /** An answer that measures the load; its latency, when not the task's whole duration (the pool measures that). */
  | { kind: 'ok'; latencyMs?: number }
  /** The server asked to slow down; `retry`: the object goes back in the queue. */
  | { kind: 'throttled'; retryAfterMs?: number; retry: boolean }
  /** The connection failed without an answer; `retry` as above. Backs off like a throttle. */
  | { kind: 'transient'; retry: boolean }
  /** Settled without a load sample (skipped, or failed for its own reasons). */
  | { kind: 'other' };

/** Codes and statuses that mean "too many requests, slow down" (ref §4: fetch_throttled 429, service_unavailable 503). */
const THROTTLE_CODES: ReadonlySet<string> = new Set(['fetch_throttled', 'service_unavailable', 'slow_down', 'too_many_requests', 'request_limit_exceeded']);

export function isThrottle(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 429 || error.status === 503 || THROTTLE_CODES.has(error.code));
}

/** Retry-After (seconds or an HTTP date, RFC 9110 §10.2.3) in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

export class ConcurrencyController {
  readonly settings: PoolSettings;
  #limit: number;
  #best: number | undefined;
  #round = { count: 0, sum: 0 };
  #throttles = 0;
  #backoffUntil = 0;

  constructor(settings: PoolSettings = DEFAULT_POOL_SETTINGS) {
    this.settings = settings;
    this.#limit = Math.min(settings.max, Math.max(settings.min, settings.initial));
  }

  get limit(): number {
    return this.#limit;
  }

  /** Until when no object may start (epoch ms); 0 when there is no pause. */
  get backoffUntil(): number {
    return this.#backoffUntil;
  }

  record(outcome: TaskOutcome, now: number, random: () => number = Math.random): void {
    switch (outcome.kind) {
      case 'ok':
        this.#throttles = 0;
        this.#round.count += 1;
        this.#round.sum += outcome.latencyMs ?? 0;
        if (this.#round.count >= this.#limit) this.#endRound();
        return;
      case 'throttled':
      case 'transient': {
        this.#throttles += 1;
        this.#limit = Math.max(this.settings.min, Math.floor(this.#limit / 2));
        this.#round = { count: 0, sum: 0 };
        const named = outcome.kind === 'throttled' ? outcome.retryAfterMs : undefined;
        const cap = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (this.#throttles - 1));
        const delay = named ?? cap / 2 + random() * (cap / 2);
        this.#backoffUntil = Math.max(this.#backoffUntil, now + delay);
        return;
      }
      case 'other':
        return;
    }
  }

  #endRound(): void {
    const mean = this.#round.sum / this.#round.count;
    this.#round = { count: 0, sum: 0 };
    if (this.#best === undefined || mean < this.#best) this.#best = mean;
    else this.#best *= 1.05;
    if (mean <= this.#best * 1.5) this.#limit = Math.min(this.settings.max, this.#limit + 1);
    else if (mean > this.#best * 2.5) this.#limit = Math.max(this.settings.min, this.#limit - 1);
  }
}

export interface PoolClock {
  now(): number;
  /** Resolves after `ms`, or early (without error) when `wake` is called. */
  sleep(ms: number): { done: Promise<void>; wake: () => void };
}

export const realClock: PoolClock = {
  now: () => Date.now(),
  sleep: (ms) => {
    const { promise, resolve } = defer();
    const timer = setTimeout(resolve, ms);
    return {
      done: promise,
      wake: () => {
        clearTimeout(timer);
        resolve();
      },
    };
  },
};

/** What the pool asks before starting an object: go on, wait (paused), or stop pulling (cancelled, failed). */
export interface PoolGate {
  /** Resolves true to start the next object, false to start no more. */
  admit(): Promise<boolean>;
}

export interface PoolRun<T> {
  /** The next object, or undefined when the source is done. Called only when a slot is free. */
  next(): Promise<T | undefined>;
  task(item: T, attempt: number): Promise<TaskOutcome>;
  gate: PoolGate;
  /** Told whenever the number in flight changes (0 = drained). */
  onInFlight?(count: number): void;
  /** Ends a backoff's wait at once; the gate then decides (a cancel must not wait out a 30 s pause). */
  stop?: AbortSignal;
}

/**
 * Runs `task` over the items `next` yields, at most `controller.limit` at once, pausing during a backoff
 * and putting throttled items back at the front of the queue. Resolves when the source is done and
 * nothing is in flight, or once the gate refuses and the ones in flight have finished. A task must not
 * throw; if it does, that error rejects the run after the others settle.
 */
export async function runAdaptivePool<T>(controller: ConcurrencyController, run: PoolRun<T>, clock: PoolClock = realClock, random: () => number = Math.random): Promise<void> {
  const retries: Array<{ item: T; attempt: number }> = [];
  const inFlight = new Set<Promise<void>>();
  let sourceDone = false;
  let failure: { error: unknown } | undefined;
  let wakeSleeper: (() => void) | undefined;
  const wake = () => wakeSleeper?.();
  run.stop?.addEventListener('abort', wake);

  const launch = (item: T, attempt: number) => {
    const started = clock.now();
    const promise = run
      .task(item, attempt)
      .then(
        (outcome) => {
          controller.record(outcome.kind === 'ok' ? { kind: 'ok', latencyMs: outcome.latencyMs ?? clock.now() - started } : outcome, clock.now(), random);
          if ((outcome.kind === 'throttled' || outcome.kind === 'transient') && outcome.retry) retries.push({ item, attempt: attempt + 1 });
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => {
        inFlight.delete(promise);
        run.onInFlight?.(inFlight.size);
        wake();
      });
    inFlight.add(promise);
    run.onInFlight?.(inFlight.size);
  };

  for (;;) {
    if (failure) break;
    const stopping = run.stop?.aborted === true;
    const waitMs = stopping ? 0 : controller.backoffUntil - clock.now();
    const haveWork = retries.length > 0 || !sourceDone;
    if (!haveWork && inFlight.size === 0) break;
    if (haveWork && inFlight.size < controller.limit && waitMs <= 0) {
      if (!(await run.gate.admit())) break;
      const retry = retries.shift();
      if (retry) {
        launch(retry.item, retry.attempt);
        continue;
      }
      const item = await run.next();
      if (item === undefined) sourceDone = true;
      else launch(item, 1);
      continue;
    }
    // Wait for a slot, the end of a backoff, or both.
    const sleeper = clock.sleep(waitMs > 0 ? waitMs : 60_000);
    wakeSleeper = sleeper.wake;
    await (inFlight.size > 0 && waitMs <= 0 ? Promise.race([...inFlight, sleeper.done]) : sleeper.done);
    sleeper.wake();
    wakeSleeper = undefined;
  }
  run.stop?.removeEventListener('abort', wake);
  await Promise.allSettled([...inFlight]);
  if (failure) throw failure.error;
}
