import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../api/errors.ts';
import { backoffDelay, isRetryable, withRetry } from './retry.ts';
import { ManualClock, apiError, flush, networkError } from './test-fakes.ts';

describe('isRetryable', () => {
  it('retries network errors, 5xx, 408/429 and the two damaged-body 400s', () => {
    expect(isRetryable(networkError())).toBe(true);
    expect(isRetryable(apiError(500, 'internal_error'))).toBe(true);
    expect(isRetryable(apiError(503, 'service_unavailable'))).toBe(true);
    expect(isRetryable(apiError(429, 'fetch_throttled'))).toBe(true);
    expect(isRetryable(apiError(400, 'bad_digest'))).toBe(true);
    expect(isRetryable(apiError(400, 'incomplete_body'))).toBe(true);
  });

  it('does not retry other 4xx, contract errors or aborts', () => {
    expect(isRetryable(apiError(403, 'permission_denied'))).toBe(false);
    expect(isRetryable(apiError(404, 'upload_not_exists'))).toBe(false);
    expect(isRetryable(apiError(400, 'invalid_argument'))).toBe(false);
    expect(isRetryable(new ContractError({ operation: 'X', method: 'GET', requestUrl: 'https://q/', status: 200, requestId: '', issues: [], part: 'body' }))).toBe(false);
    expect(isRetryable(new DOMException('stop', 'AbortError'))).toBe(false);
  });
});

describe('backoffDelay', () => {
  const policy = { maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 4000 };
  it('doubles per attempt with equal jitter and caps at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a, () => 0))).toEqual([250, 500, 1000, 2000, 2000]);
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a, () => 0.999999))).toEqual([1, 2, 3, 4, 5].map((a) => expect.closeTo(Math.min(4000, 500 * 2 ** (a - 1)), 0)));
  });
});

describe('withRetry', () => {
  const policy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };

  it('waits the backoff between attempts and succeeds once the failures stop', async () => {
    const clock = new ManualClock();
    const attempts: number[] = [];
    const delays: number[] = [];
    const result = withRetry({ policy, clock, random: () => 0.5, signal: new AbortController().signal, onRetry: (_e, _a, d) => delays.push(d) }, async (attempt) => {
      attempts.push(clock.now());
      if (attempt < 3) throw apiError(503, 'service_unavailable');
      return 'ok';
    });
    await flush();
    expect(attempts).toEqual([0]);
    clock.advance(74);
    await flush();
    expect(attempts).toEqual([0]); // 100 ms cap → 50 + 0.5·50 = 75 ms
    clock.advance(1);
    await flush();
    expect(attempts).toEqual([0, 75]);
    clock.advance(150);
    await flush();
    await expect(result).resolves.toBe('ok');
    expect(delays).toEqual([75, 150]);
    expect(attempts).toEqual([0, 75, 225]);
  });

  it('gives up after maxAttempts with the last error, and at once on a 4xx', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const failing = withRetry({ policy, clock, random: () => 0, signal: new AbortController().signal }, async () => {
      calls += 1;
      throw networkError();
    });
    const caught = failing.catch((e: unknown) => e);
    for (let i = 0; i < 10; i += 1) {
      await flush();
      clock.advance(1000);
    }
    expect(await caught).toBeInstanceOf(Error);
    expect(calls).toBe(4);

    let denied = 0;
    await expect(
      withRetry({ policy, clock, random: () => 0, signal: new AbortController().signal }, async () => {
        denied += 1;
        throw apiError(403, 'permission_denied');
      }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(denied).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const run = withRetry({ policy, clock, random: () => 0, signal: controller.signal }, async () => {
      throw apiError(500, 'internal_error');
    });
    await flush();
    expect(clock.pendingTimers).toBe(1);
    controller.abort(new DOMException('paused', 'AbortError'));
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pendingTimers).toBe(0);
  });
});
