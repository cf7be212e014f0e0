import { ApiError, NetworkError, isAbortError } from '../../../api/errors.ts';
import { sleep, type Clock } from './ports.ts';

/**
 * Retries for one request (a part, a form upload, initiate/list/complete): exponential backoff with
 * "equal jitter" — half of the capped exponential delay is fixed, half random. The fixed half keeps a
 * struggling server from being hit again at once; the random half spreads parallel part uploads (and
 * other browsers) so they do not retry in lock-step.
 */
export interface RetryPolicy {
  /** Attempts in total, including the first one. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 20_000 };

/**
 * 4xx codes that are worth another attempt. Both describe a body damaged or cut short on the way, not a
 * request the server will refuse again:
 * - `bad_digest` (ref §3/§8.2): the received bytes do not match our Content-MD5;
 * - `incomplete_body` (ref §4): fewer bytes arrived than Content-Length announced (dropped connection).
 * Plus the two HTTP "try later" statuses 408 and 429 (`fetch_throttled`, a proxy's rate limit).
 * Every other 4xx (permission_denied, upload_not_exists, invalid_argument, ...) fails at once.
 */
const RETRYABLE_4XX_CODES: ReadonlySet<string> = new Set(['bad_digest', 'incomplete_body']);
const RETRYABLE_4XX_STATUSES: ReadonlySet<number> = new Set([408, 429]);

export function isRetryable(error: unknown): boolean {
  if (isAbortError(error)) return false;
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) {
    if (error.status >= 500) return true;
    return RETRYABLE_4XX_STATUSES.has(error.status) || RETRYABLE_4XX_CODES.has(error.code);
  }
  return false;
}

/** Delay before attempt `attempt + 1` (attempt = 1 after the first failure). `random` ∈ [0, 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return cap / 2 + random() * (cap / 2);
}

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  signal: AbortSignal;
  /** Told about every failed attempt that will be retried (e.g. to reset in-flight progress). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** Runs `task` until it succeeds, fails with a non-retryable error, runs out of attempts or is aborted. */
export async function withRetry<T>(context: RetryContext, task: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task(attempt);
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (attempt >= context.policy.maxAttempts || !isRetryable(error)) throw error;
      const delay = backoffDelay(context.policy, attempt, context.random);
      context.onRetry?.(error, attempt, delay);
      await sleep(context.clock, delay, context.signal);
    }
  }
}
