import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../api/errors.ts';
import { defer } from './defer.ts';
import { ConcurrencyController, isThrottle, retryAfterMs, runAdaptivePool, type PoolClock, type TaskOutcome } from './pool.ts';

/** A clock the test moves: sleepers wake when it passes their time. */
class ManualClock implements PoolClock {
  time = 0;
  #sleepers: Array<{ until: number; wake: () => void }> = [];
  now(): number {
    return this.time;
  }
  sleep(ms: number) {
    const { promise, resolve } = defer();
    const sleeper = { until: this.time + ms, wake: () => resolve() };
    this.#sleepers.push(sleeper);
    return { done: promise, wake: sleeper.wake };
  }
  advance(ms: number): void {
    this.time += ms;
    for (const sleeper of this.#sleepers.filter((candidate) => candidate.until <= this.time)) sleeper.wake();
    this.#sleepers = this.#sleepers.filter((candidate) => candidate.until > this.time);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await settle();
  expect(check()).toBe(true);
}

function apiError(status: number, code: string, retryAfter?: string): ApiError {
  return new ApiError({ status, code, message: code, requestId: 'r', url: '', fromBody: true, operation: 'CopyObject', method: 'PUT', requestUrl: 'https://q/b/k', ...(retryAfter ? { retryAfter } : {}) });
}

describe('ConcurrencyController', () => {
  it('adds one object in flight after each round of fast answers, up to the maximum', () => {
    const c = new ConcurrencyController({ initial: 4, min: 1, max: 6 });
    for (const expected of [5, 6, 6]) {
      for (let i = 0; i < c.limit; i++) c.record({ kind: 'ok', latencyMs: 10 }, 0);
      expect(c.limit).toBe(expected);
    }
  });

  it('takes one away when a round is much slower than the best one (requests queueing)', () => {
    const c = new ConcurrencyController({ initial: 4, min: 1, max: 12 });
    for (let i = 0; i < 4; i++) c.record({ kind: 'ok', latencyMs: 10 }, 0);
    expect(c.limit).toBe(5);
    for (let i = 0; i < 5; i++) c.record({ kind: 'ok', latencyMs: 40 }, 0);
    expect(c.limit).toBe(4);
    // Between 1.5× and 2.5× of the best: it holds.
    for (let i = 0; i < 4; i++) c.record({ kind: 'ok', latencyMs: 20 }, 0);
    expect(c.limit).toBe(4);
  });

  it('halves on a throttle and pauses for the Retry-After the server named', () => {
    const c = new ConcurrencyController({ initial: 8, min: 1, max: 12 });
    c.record({ kind: 'throttled', retryAfterMs: 3000, retry: true }, 1000);
    expect(c.limit).toBe(4);
    expect(c.backoffUntil).toBe(4000);
    c.record({ kind: 'throttled', retryAfterMs: 1000, retry: true }, 1500);
    expect(c.limit).toBe(2);
    // A shorter Retry-After never cuts an earlier pause short.
    expect(c.backoffUntil).toBe(4000);
    c.record({ kind: 'throttled', retry: true }, 5000);
    c.record({ kind: 'throttled', retry: true }, 5000);
    expect(c.limit).toBe(1);
  });

  it('backs off exponentially with jitter when no Retry-After is given, and a success resets the backoff', () => {
    const c = new ConcurrencyController({ initial: 8, min: 1, max: 12 });
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const now = i * 100_000;
      c.record({ kind: 'transient', retry: true }, now, () => 1);
      delays.push(c.backoffUntil - now);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    c.record({ kind: 'ok', latencyMs: 5 }, 1_000_000);
    c.record({ kind: 'throttled', retry: true }, 2_000_000, () => 0);
    expect(c.backoffUntil - 2_000_000).toBe(250);
  });
});

describe('throttle signals', () => {
  it('are 429, 503 and the codes that ask to slow down; Retry-After reads seconds or a date', () => {
    expect(isThrottle(apiError(429, 'fetch_throttled'))).toBe(true);
    expect(isThrottle(apiError(503, 'service_unavailable'))).toBe(true);
    expect(isThrottle(apiError(400, 'slow_down'))).toBe(true);
    expect(isThrottle(apiError(412, 'precondition_failed'))).toBe(false);
    expect(isThrottle(new NetworkError({ operation: 'HeadObject', method: 'HEAD', requestUrl: 'https://q/b/k', cause: new TypeError('x') }))).toBe(false);
    expect(retryAfterMs('7', 0)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:05 GMT', 2000)).toBe(3000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs('99999', 0)).toBe(120_000);
  });
});

describe('runAdaptivePool', () => {
  it('never has more in flight than the limit, pauses everyone during a backoff and retries the throttled object first', async () => {
    const clock = new ManualClock();
    const controller = new ConcurrencyController({ initial: 3, min: 1, max: 3 });
    const items = ['a', 'b', 'c', 'd', 'e'];
    const started: string[] = [];
    const pending = new Map<string, (outcome: TaskOutcome) => void>();
    let inFlight = 0;
    let most = 0;
    const done = runAdaptivePool(
      controller,
      {
        next: async () => items.shift(),
        task: (item, attempt) => {
          started.push(`${item}${attempt}`);
          inFlight += 1;
          most = Math.max(most, inFlight);
          const { promise, resolve } = defer<TaskOutcome>();
          pending.set(`${item}${attempt}`, (outcome) => {
            inFlight -= 1;
            resolve(outcome);
          });
          return promise;
        },
        gate: { admit: async () => true },
      },
      clock,
    );
    await until(() => started.length === 3);
    expect(started).toEqual(['a1', 'b1', 'c1']);
    // The server throttles b: the limit halves and nothing new starts for the 2 s it asked.
    pending.get('b1')?.({ kind: 'throttled', retryAfterMs: 2000, retry: true });
    pending.get('a1')?.({ kind: 'ok', latencyMs: 5 });
    await settle();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'c1']);
    clock.advance(1999);
    await settle();
    expect(started).toEqual(['a1', 'b1', 'c1']);
    clock.advance(1);
    await until(() => started.length === 4);
    // b goes first, on its second attempt. The limit fell from 3 to 1, and a's fast answer (a round of
    // one) brought it to 2: with c and b in flight, nothing else starts.
    expect(started).toEqual(['a1', 'b1', 'c1', 'b2']);
    expect(controller.limit).toBe(2);
    await settle();
    expect(started).toHaveLength(4);
    pending.get('c1')?.({ kind: 'ok' });
    pending.get('b2')?.({ kind: 'ok' });
    for (const item of ['d', 'e']) {
      await until(() => pending.has(`${item}1`));
      pending.get(`${item}1`)?.({ kind: 'ok' });
    }
    await done;
    expect(most).toBeLessThanOrEqual(3);
    expect(started).toEqual(['a1', 'b1', 'c1', 'b2', 'd1', 'e1']);
  });

  it('stops pulling once the gate refuses, and a stop signal ends a long backoff at once', async () => {
    const clock = new ManualClock();
    const controller = new ConcurrencyController({ initial: 1, min: 1, max: 1 });
    const stop = new AbortController();
    let open = true;
    const started: number[] = [];
    let n = 0;
    const done = runAdaptivePool(
      controller,
      {
        next: async () => n++,
        task: async (item) => {
          started.push(item);
          return { kind: 'throttled', retryAfterMs: 60_000, retry: false };
        },
        gate: { admit: async () => open },
        stop: stop.signal,
      },
      clock,
    );
    await until(() => started.length === 1);
    // A 60 s pause began; the user cancels: the gate refuses and the signal wakes the pool.
    open = false;
    stop.abort();
    await done;
    expect(started).toEqual([0]);
  });
});
