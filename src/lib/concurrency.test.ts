import { describe, expect, it } from 'vitest';
import { forEachConcurrently, mapConcurrently } from './concurrency.ts';

function gate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('forEachConcurrently', () => {
  it('keeps at most `width` tasks in flight and starts items in list order', async () => {
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    await forEachConcurrently([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await Promise.resolve();
      inFlight -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('starts nothing more once the signal aborts; running tasks finish', async () => {
    const controller = new AbortController();
    const first = gate();
    const started: number[] = [];
    const run = forEachConcurrently(
      [1, 2, 3],
      1,
      async (n) => {
        started.push(n);
        if (n === 1) await first.promise;
      },
      controller.signal,
    );
    controller.abort();
    first.open();
    await run;
    expect(started).toEqual([1]);
  });
});

describe('mapConcurrently', () => {
  it('returns the results in the items order whatever order they finish in', async () => {
    const slow = gate();
    const run = mapConcurrently(['a', 'b'], 2, async (s) => {
      if (s === 'a') await slow.promise;
      return s.toUpperCase();
    });
    slow.open();
    expect(await run).toEqual(['A', 'B']);
    expect(await mapConcurrently([], 3, async (n: number) => n)).toEqual([]);
  });
});
