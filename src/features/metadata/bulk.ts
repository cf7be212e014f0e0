/**
 * Bulk metadata edit: the same edits applied to many objects, each merged with ITS OWN current metadata
 * (HEAD → applyMetadataEdits → conditional REPLACE copy, ref §5.2), so keys an object has and the
 * edits do not mention survive. A small pool bounds the number of requests in flight.
 */
import type { QsClient } from '../../api/client.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import { applyMetadataEdits, diffMetadata, type MetadataEdits } from '../../api/metadata/edit.ts';
import { headObjectReadable, type ObjectHead } from '../../api/objects/operations.ts';
import { editsBetween } from '../../components/metadata-form/form-model.ts';
import { forEachConcurrently } from '../../lib/concurrency.ts';
import { saveMetadataEdits } from './save.ts';

export type BulkItemState =
  | { status: 'pending' }
  | { status: 'running' }
  | { status: 'done'; changes: number; requestId: string; before: ObjectHead; after: ObjectHead }
  | { status: 'unchanged' }
  | { status: 'failed'; error: unknown };

export interface BulkTarget {
  zone: string;
  bucket: string;
  key: string;
}

export const BULK_CONCURRENCY = 4;

/** Thrown for an object another client changed between the bulk edit's read and its copy. */
export class BulkConflictError extends Error {
  constructor(key: string) {
    super(`The object ${key} changed while the bulk edit ran; it was not modified.`);
    this.name = 'BulkConflictError';
  }
}

/**
 * One object: HEAD, merge, and the same guarded save as the single editor (completeness check,
 * conditional copy, read-back), so a bulk edit never drops a header the browser cannot see.
 */
export async function editOneObject(
  client: QsClient,
  target: BulkTarget,
  edits: MetadataEdits,
  visibility: HeaderVisibility,
  signal?: AbortSignal,
): Promise<BulkItemState> {
  const options = signal ? { signal } : {};
  const head = await headObjectReadable(client, target, options);
  const changes = diffMetadata(head.metadata, applyMetadataEdits(head.metadata, edits)).length;
  if (changes === 0) return { status: 'unchanged' };
  const result = await saveMetadataEdits(client, { ref: target, base: head, edits, visibility, ...(signal ? { signal } : {}) });
  if (result.kind === 'conflict') throw new BulkConflictError(target.key);
  return { status: 'done', changes, requestId: result.requestId, before: result.before, after: result.after };
}

/**
 * Runs `task` over `targets` with at most `concurrency` in flight, reporting every state change.
 * Failures never stop the others; the caller retries the failed ones by calling this again with them.
 */
async function runPool<T extends BulkTarget>(
  targets: readonly T[],
  task: (target: T) => Promise<BulkItemState>,
  onState: (key: string, state: BulkItemState) => void,
  options: { concurrency?: number; signal?: AbortSignal },
): Promise<void> {
  await forEachConcurrently(
    targets,
    options.concurrency ?? BULK_CONCURRENCY,
    async (target) => {
      onState(target.key, { status: 'running' });
      try {
        onState(target.key, await task(target));
      } catch (error) {
        onState(target.key, { status: 'failed', error });
      }
    },
    options.signal,
  );
}

/** `editOneObject` over many objects. */
export function runBulkEdit(
  client: QsClient,
  targets: readonly BulkTarget[],
  edits: MetadataEdits,
  visibility: HeaderVisibility,
  onState: (key: string, state: BulkItemState) => void,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<void> {
  return runPool(targets, (target) => editOneObject(client, target, edits, visibility, options.signal), onState, options);
}

/** One object to restore: its before-image and the version the bulk edit left. */
export interface UndoTarget extends BulkTarget {
  before: ObjectHead;
  after: ObjectHead;
}

/**
 * Undoes a bulk edit object by object, each with the same guarded save as a single undo: an object
 * another client changed since the bulk edit fails with a conflict and keeps their version.
 */
export function runBulkUndo(
  client: QsClient,
  targets: readonly UndoTarget[],
  visibility: HeaderVisibility,
  onState: (key: string, state: BulkItemState) => void,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<void> {
  return runPool(
    targets,
    async (target) => {
      const edits = editsBetween(target.after.metadata, target.before.metadata);
      const result = await saveMetadataEdits(client, { ref: target, base: target.after, edits, visibility, ...(options.signal ? { signal: options.signal } : {}) });
      if (result.kind === 'conflict') throw new BulkConflictError(target.key);
      return { status: 'done', changes: diffMetadata(result.before.metadata, result.after.metadata).length, requestId: result.requestId, before: result.before, after: result.after };
    },
    onState,
    options,
  );
}
