import { useSyncExternalStore } from 'react';
import type { PlannedUpload } from '../engine/index.ts';

/**
 * A batch dropped on the object list whose keys partly exist: it waits in the upload session, unstarted,
 * until the upload drawer (opened for it) asks the one question for the batch. One at a time; a newer drop
 * replaces it.
 */
export interface PendingBatch {
  bucket: string;
  uploads: PlannedUpload[];
  conflicts: PlannedUpload[];
}

export interface PendingBatchStore {
  get(): PendingBatch | undefined;
  set(next: PendingBatch | undefined): void;
  subscribe(listener: () => void): () => void;
}

export function createPendingBatchStore(): PendingBatchStore {
  const state: { pending: PendingBatch | undefined } = { pending: undefined };
  const listeners = new Set<() => void>();
  return {
    get: () => state.pending,
    set(next) {
      state.pending = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function usePendingBatch(store: PendingBatchStore): PendingBatch | undefined {
  return useSyncExternalStore(store.subscribe, store.get);
}
