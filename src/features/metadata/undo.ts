import { useSyncExternalStore } from 'react';
import type { ObjectRef, QsClient } from '../../api/client.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import type { ObjectHead } from '../../api/objects/read.ts';
import { editsBetween } from '../../components/metadata-form/form-model.ts';
import { readLastSave, recordSave, type LastSave } from './last-save.ts';
import { saveMetadataEdits, type SaveResult } from '../../api/metadata/save.ts';

/**
 * Undo of a metadata save, wherever it is started from: the editor's "Saved" banner, the toast that
 * reports the save (it outlives the dialog), or the object's own "Undo last save" in the details panel.
 * One state per object (the last-save id), so each of them shows the same outcome: "Restored", a conflict
 * (the object changed after the save: nothing is written) or a failure.
 */
export type UndoState =
  | { kind: 'running' }
  | { kind: 'restored' }
  | { kind: 'conflict'; last: LastSave; theirs: ObjectHead }
  | { kind: 'failed'; error: unknown };

const states = new Map<string, UndoState>();
const listeners = new Set<() => void>();

function set(saveId: string, state: UndoState | undefined) {
  if (state) states.set(saveId, state);
  else states.delete(saveId);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUndoState(saveId: string): UndoState | undefined {
  return useSyncExternalStore(subscribe, () => states.get(saveId), () => undefined);
}

/** A new save of the object: what an earlier undo said no longer applies. */
export function forgetUndo(saveId: string): void {
  if (states.has(saveId)) set(saveId, undefined);
}

export interface UndoInput {
  client: QsClient;
  saveId: string;
  ref: ObjectRef;
  visibility: HeaderVisibility;
  /** Refreshes what shows the object (details, listing) from what the undo read back, or the version it found. */
  refresh: (result: SaveResult) => Promise<unknown>;
}

/**
 * Restores the metadata from before the last save, the same safe way a save runs (conditional on the
 * version the save produced, read back afterwards). Does nothing when there is no save to undo or an
 * undo of it is already running. Resolves with the outcome, which is also published to useUndoState.
 */
export async function undoLastSave({ client, saveId, ref, visibility, refresh }: UndoInput): Promise<UndoState | undefined> {
  const last = readLastSave(saveId);
  if (!last || states.get(saveId)?.kind === 'running') return undefined;
  set(saveId, { kind: 'running' });
  let outcome: UndoState;
  try {
    const result = await saveMetadataEdits(client, { ref, base: last.after, edits: editsBetween(last.after.metadata, last.before.metadata), visibility });
    await refresh(result);
    if (result.kind === 'saved') {
      recordSave(saveId, null);
      outcome = { kind: 'restored' };
    } else {
      outcome = { kind: 'conflict', last, theirs: result.theirs };
    }
  } catch (error) {
    outcome = { kind: 'failed', error };
  }
  set(saveId, outcome);
  return outcome;
}
