/** Shared helpers for the store's unit tests (not used by production code). */
import { QsError } from '../errors.ts';
import { Store } from './store.ts';
import type { StoreOptions } from './types.ts';

export const OWNER = 'usr-owner001';
export const BUCKET = 'mybucket';

/** The error code a call throws, or undefined when it succeeds; non-QsErrors are rethrown. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof QsError) return error.code;
    throw error;
  }
  return undefined;
}

/** A controllable clock starting at a fixed instant with milliseconds. */
export function testClock(start = Date.UTC(2024, 4, 1, 12, 0, 0, 750)): { now: () => Date; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

export async function storeWithBucket(options: StoreOptions = {}): Promise<Store> {
  const store = await Store.create(options);
  store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
  return store;
}

export function text(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
