/**
 * Transfer speed as a moving average over a time window: bytes moved in the last `windowMs` divided by
 * the time they took. A window (rather than the average since start) follows a changing line quickly;
 * 5 s is long enough that per-part bursts do not make the number jump.
 */
export const SPEED_WINDOW_MS = 5000;

export class SpeedMeter {
  readonly #windowMs: number;
  #samples: Array<{ t: number; bytes: number }> = [];
  #total = 0;

  constructor(windowMs = SPEED_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** Records `delta` network bytes sent at time `t` (ms). */
  add(t: number, delta: number): void {
    this.#total += delta;
    this.#samples.push({ t, bytes: this.#total });
    this.#trim(t);
  }

  /** Starts a new measurement (after pause or idle time, the old rate means nothing). */
  reset(t: number): void {
    this.#samples = [{ t, bytes: this.#total }];
  }

  /** Bytes per second at time `t`; 0 until at least 200 ms of data exist. */
  speed(t: number): number {
    this.#trim(t);
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last) return 0;
    const span = Math.max(t, last.t) - first.t;
    if (span < 200) return 0;
    return ((last.bytes - first.bytes) * 1000) / span;
  }

  #trim(t: number): void {
    // Keep one sample at or before the window start as the baseline.
    while (this.#samples.length > 1 && (this.#samples[1]?.t ?? t) <= t - this.#windowMs) this.#samples.shift();
  }
}

/** Seconds left, or null when nothing is moving. */
export function etaSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (remainingBytes <= 0) return 0;
  return bytesPerSecond > 0 ? remainingBytes / bytesPerSecond : null;
}
