import { describe, expect, it } from 'vitest';
import { frameThrottle } from './frame-throttle.ts';

function frames() {
  const queue = new Map<number, () => void>();
  let next = 1;
  return {
    schedule: (run: () => void) => {
      queue.set(next, run);
      return next++;
    },
    unschedule: (id: number) => void queue.delete(id),
    tick: () => {
      const runs = [...queue.values()];
      queue.clear();
      for (const run of runs) run();
    },
    pending: () => queue.size,
  };
}

describe('frameThrottle', () => {
  it('delivers only the latest value once per frame, and nothing when nothing changed', () => {
    const clock = frames();
    const seen: number[] = [];
    const throttle = frameThrottle<number>((v) => seen.push(v), clock.schedule, clock.unschedule);
    for (let i = 1; i <= 100; i++) throttle.push(i);
    expect(clock.pending()).toBe(1);
    clock.tick();
    clock.tick();
    throttle.push(101);
    clock.tick();
    expect(seen).toEqual([100, 101]);
  });

  it('flush delivers what is pending at once; cancel drops it', () => {
    const clock = frames();
    const seen: number[] = [];
    const throttle = frameThrottle<number>((v) => seen.push(v), clock.schedule, clock.unschedule);
    throttle.push(1);
    throttle.flush();
    expect(seen).toEqual([1]);
    expect(clock.pending()).toBe(0);
    throttle.push(2);
    throttle.cancel();
    clock.tick();
    throttle.flush();
    expect(seen).toEqual([1]);
  });
});
