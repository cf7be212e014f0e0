import { useSyncExternalStore } from 'react';
import type { ObjectHead } from '../../api/objects/operations.ts';

/**
 * The last metadata save per object, kept in memory for "Undo last save" (also after the editor closed).
 * Keyed by connection identity + zone + bucket + key, so another connection never undoes into this one.
 */
export interface LastSave {
  before: ObjectHead;
  after: ObjectHead;
}

const saves = new Map<string, LastSave>();
const listeners = new Set<() => void>();

export function lastSaveId(connectionId: string, zone: string, bucket: string, key: string): string {
  return JSON.stringify([connectionId, zone, bucket, key]);
}

export function recordSave(id: string, save: LastSave | null): void {
  if (save) saves.set(id, save);
  else saves.delete(id);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLastSave(id: string): LastSave | undefined {
  return useSyncExternalStore(subscribe, () => saves.get(id), () => undefined);
}
