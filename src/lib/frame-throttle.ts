/**
 * Hands the latest of many values to `deliver` at most once an animation frame: for figures that change far
 * more often than a screen can show them (a count reading pages as fast as the server answers).
 */
export interface FrameThrottle<T> {
  /** Keeps `value`; it is delivered at the next frame (a later push before then replaces it). */
  push(value: T): void;
  /** Delivers what is pending now, if anything. */
  flush(): void;
  /** Drops what is pending; nothing more is delivered until the next push. */
  cancel(): void;
}

export function frameThrottle<T>(deliver: (value: T) => void, schedule = (run: () => void) => requestAnimationFrame(run), unschedule = (id: number) => cancelAnimationFrame(id)): FrameThrottle<T> {
  let pending: { value: T } | undefined;
  let frame: number | undefined;
  const run = () => {
    frame = undefined;
    const next = pending;
    pending = undefined;
    if (next) deliver(next.value);
  };
  return {
    push(value) {
      pending = { value };
      frame ??= schedule(run);
    },
    flush() {
      if (frame !== undefined) unschedule(frame);
      run();
    },
    cancel() {
      if (frame !== undefined) unschedule(frame);
      frame = undefined;
      pending = undefined;
    },
  };
}
