/**
 * Runs `task` for each item in list order with at most `width` tasks in flight (at least one). Once
 * `signal` aborts, no further item starts; the ones running finish. A task that throws rejects the whole
 * run, so tasks that must not stop the others handle their own failures.
 */
export async function forEachConcurrently<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      if (signal?.aborted) return;
      await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
}

/** `fn` over `items`, at most `width` at a time; the results in the items' order. */
export async function mapConcurrently<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  const indexed = items.map((item, index) => ({ item, index }));
  await forEachConcurrently(indexed, width, async ({ item, index }) => {
    results[index] = await fn(item);
  });
  return results;
}
