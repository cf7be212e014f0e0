import { useSyncExternalStore } from 'react';
import type { PlannedUpload } from '../engine/index.ts';

/**
 * A batch dropped on the object list whose keys partly exist: it waits here, unstarted, until the upload
 * drawer (opened for it) asks the one question for the batch. One at a time; a newer drop replaces it.
 */
export interface PendingBatch {
  bucket: string;
  uploads: PlannedUpload[];
  conflicts: PlannedUpload[];
}

let pending: PendingBatch | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setPendingBatch(next: PendingBatch | undefined): void {
  pending = next;
  for (const listener of [...listeners]) listener();
}

export function usePendingBatch(): PendingBatch | undefined {
  return useSyncExternalStore(subscribe, () => pending);
}
