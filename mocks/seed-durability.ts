/**
 * The demo's first answers do not wait for its seed to be written.
 *
 * On a first visit the emulator seeds its store and the IndexedDB journal (store/idb.ts) writes the whole seed
 * in one transaction. Every answer waits for what was journaled before it to commit (`durable`), so the
 * first listing waited for the seed's transaction as well, although it changes nothing and what it reads is
 * in memory already. A seed that is not committed yet is no loss: the `seeded` mark travels in the same
 * transaction, so a tab closed before it commits seeds again on its next start, from the same seed.
 *
 * So: until a request changes something, answers do not wait for the journal. From the first change on,
 * every answer waits as before, and the journal's transactions commit in order (the seed's first), so an
 * acknowledged change is in IndexedDB with everything it builds on.
 *
 * Nor is the seed written before the first rows are painted: the journal holds its writes (IdbPersistence's
 * `holdWrites`) and `writeSeedAfterFirstPaint` releases them once the first answer went out and the page
 * painted after it (or a first change wrote them, with itself, before its answer).
 */
import type { EmulatorPersistence } from './store/persistence.ts';
import type { StoreJournal } from './store/types.ts';

export interface SeedDurability {
  persistence: EmulatorPersistence;
  /** Call once the emulator is created (restore and seed done): journal calls from then on are changes. */
  started(): void;
  /** Resolves when the first request after started() is about to be answered. */
  firstAnswer: Promise<void>;
}

export function answerBeforeSeedCommits(inner: EmulatorPersistence): SeedDurability {
  let live = false;
  let changed = false;
  let answered = (): void => undefined;
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  const journal = new Proxy(inner.journal, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        if (live) changed = true;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) satisfies StoreJournal;
  const { durable } = inner;
  const persistence: EmulatorPersistence = {
    journal,
    restore: (store) => inner.restore(store),
    ...(inner.bodySink ? { bodySink: inner.bodySink } : {}),
    ...(durable
      ? {
          durable: () => {
            if (live) answered();
            return changed ? durable() : Promise.resolve();
          },
        }
      : {}),
  };
  return {
    persistence,
    started: () => {
      live = true;
    },
    firstAnswer,
  };
}

/** Resolves after the page painted the next two frames (the answer's render lands in one of them). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    // A hidden tab paints nothing and runs no animation frames.
    const fallback = setTimeout(resolve, 1000);
    requestAnimationFrame(() =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          clearTimeout(fallback);
          resolve();
        }, 0),
      ),
    );
  });
}

/**
 * Releases the journal's held writes (the seed) once the first answer is out and the page painted after it.
 * `wait` bounds how long a page that asks nothing keeps its seed unwritten (a change writes it anyway).
 */
export async function writeSeedAfterFirstPaint(
  durability: Pick<SeedDurability, 'firstAnswer'>,
  journal: { release(): void },
  { paint = afterNextPaint, wait = 3000 }: { paint?: () => Promise<void>; wait?: number } = {},
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([durability.firstAnswer, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
  clearTimeout(timer);
  await paint();
  journal.release();
}
