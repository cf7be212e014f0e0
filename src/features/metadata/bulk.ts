/**
 * Bulk metadata edit: the same edits applied to many objects, each merged with ITS OWN current metadata
 * (HEAD → applyMetadataEdits → conditional REPLACE copy → read-back, ref §5.2), so keys an object has and the
 * edits do not mention survive. A small pool bounds the number of requests in flight.
 */
import type { BucketRef, QsClient } from '../../api/client.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import { applyMetadataEdits, diffMetadata, MetadataEditError, replaceRequestHeaders, type MetadataChange, type MetadataEdits } from '../../api/metadata/edit.ts';
import { headObjectReadable, type ObjectHead } from '../../api/objects/operations.ts';
import { prefixPages } from '../../api/objects/prefix.ts';
import { editsBetween } from '../../components/metadata-form/form-model.ts';
import { forEachConcurrently } from '../../lib/concurrency.ts';
import { copyLimitOf } from '../../api/metadata/large-copy.ts';
import { editObjectMetadata, saveBlock, saveMetadataEdits, type SaveBlock } from '../../api/metadata/save.ts';

export type BulkItemState =
  | { status: 'pending' }
  | { status: 'running' }
  | { status: 'done'; changes: number; requestId: string; before: ObjectHead; after: ObjectHead }
  | { status: 'unchanged' }
  | { status: 'failed'; error: unknown }
  /** Never started: the run was cancelled first. */
  | { status: 'cancelled' };

/** What the pool itself reports, whatever the task: started, threw, or never started (cancelled). */
type PoolState = { status: 'running' } | { status: 'failed'; error: unknown } | { status: 'cancelled' };

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
 * One object: the same guarded save as the single editor (completeness check, conditional copy,
 * read-back) over the object's own HEAD (editObjectMetadata), so a bulk edit never drops a header the
 * browser cannot see, and reads each object once before writing it.
 */
export async function editOneObject(
  client: QsClient,
  target: BulkTarget,
  edits: MetadataEdits,
  visibility: HeaderVisibility,
  signal?: AbortSignal,
): Promise<BulkItemState> {
  const result = await editObjectMetadata(client, target, edits, visibility, signal ? { signal } : {});
  if (result.kind === 'unchanged') return { status: 'unchanged' };
  if (result.kind === 'conflict') throw new BulkConflictError(target.key);
  return { status: 'done', changes: diffMetadata(result.before.metadata, applyMetadataEdits(result.before.metadata, edits)).length, requestId: result.requestId, before: result.before, after: result.after };
}

/**
 * Pause, resume and cancel for a running pool. Pausing or cancelling never interrupts an object already
 * being worked on: it finishes and is reported; only the next ones wait (paused) or never start (cancelled).
 */
export class BulkGate {
  #paused = false;
  #cancelled = false;
  #waiters: (() => void)[] = [];

  get paused(): boolean {
    return this.#paused;
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** How many workers are parked by a pause (each holds the next object, not yet started). */
  get waiting(): number {
    return this.#waiters.length;
  }

  pause(): void {
    if (!this.#cancelled) this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#release();
  }

  cancel(): void {
    this.#cancelled = true;
    this.#paused = false;
    this.#release();
  }

  /** Waits while paused; true when the next object may start, false once cancelled. */
  async admit(): Promise<boolean> {
    while (this.#paused) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return !this.#cancelled;
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

export interface PoolOptions {
  concurrency?: number;
  /** Aborts the requests in flight and starts no more. */
  signal?: AbortSignal;
  /** Pause/resume/cancel that let the requests in flight finish. */
  gate?: BulkGate;
}

/**
 * Runs `task` over `targets` with at most `concurrency` in flight, reporting every state change.
 * Failures never stop the others; the caller retries the failed ones by calling this again with them.
 */
async function runPool<T extends BulkTarget, S>(
  targets: readonly T[],
  task: (target: T) => Promise<S>,
  onState: (key: string, state: S | PoolState) => void,
  options: PoolOptions,
): Promise<void> {
  await forEachConcurrently(
    targets,
    options.concurrency ?? BULK_CONCURRENCY,
    async (target) => {
      if (options.gate && !(await options.gate.admit())) {
        onState(target.key, { status: 'cancelled' });
        return;
      }
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
  options: PoolOptions = {},
): Promise<void> {
  return runPool<BulkTarget, BulkItemState>(targets, (target) => editOneObject(client, target, edits, visibility, options.signal), onState, options);
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
  options: PoolOptions = {},
): Promise<void> {
  return runPool<UndoTarget, BulkItemState>(
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

/** The dry run's verdict on one object. */
export type BulkPreview =
  | { status: 'pending' }
  | { status: 'running' }
  /** Would change: before → after per field. */
  | { status: 'ready'; changes: MetadataChange[] }
  | { status: 'unchanged' }
  /** The merged metadata breaks a rule (the 2 KB total, a key or value rule): it would be refused. */
  | { status: 'invalid'; changes: MetadataChange[]; error: MetadataEditError }
  /** The save guard refuses it (hidden headers, no version to guard the copy with). */
  | { status: 'blocked'; block: SaveBlock }
  | { status: 'failed'; error: unknown }
  | { status: 'cancelled' };

/**
 * The dry run for one object: HEAD, merge, and every check a save would make before sending anything
 * (the save guard, the metadata rules on the merged set). Sends no write.
 */
export async function previewOneObject(client: QsClient, target: BulkTarget, edits: MetadataEdits, visibility: HeaderVisibility, signal?: AbortSignal): Promise<BulkPreview> {
  const head = await headObjectReadable(client, target, signal ? { signal } : {});
  const block = saveBlock(visibility, head, false, copyLimitOf(client.connection));
  if (block) return { status: 'blocked', block };
  const changes = diffMetadata(head.metadata, applyMetadataEdits(head.metadata, edits));
  if (changes.length === 0) return { status: 'unchanged' };
  try {
    replaceRequestHeaders(head.metadata, edits);
  } catch (error) {
    if (error instanceof MetadataEditError) return { status: 'invalid', changes, error };
    throw error;
  }
  return { status: 'ready', changes };
}

/** `previewOneObject` over many objects, with the same pool, gate and reporting as a run. */
export function runBulkPreview(
  client: QsClient,
  targets: readonly BulkTarget[],
  edits: MetadataEdits,
  visibility: HeaderVisibility,
  onState: (key: string, state: BulkPreview) => void,
  options: PoolOptions = {},
): Promise<void> {
  return runPool<BulkTarget, BulkPreview>(targets, (target) => previewOneObject(client, target, edits, visibility, options.signal), onState, options);
}

/** The most objects one bulk edit covers; a larger folder is refused before anything is read. */
export const BULK_MAX_OBJECTS = 1000;

export interface PrefixKeys {
  /** The object keys under the prefix (folder markers, keys ending in "/", left out), at most `cap`. */
  keys: string[];
  /** True when the prefix holds more than `cap` objects (the listing stopped there). */
  overCap: boolean;
}

/**
 * Every object key under `prefix` (no delimiter: subfolders included), page after page with the shared
 * pager, stopping as soon as more than `cap` are found. An empty prefix is refused: never a whole bucket.
 */
export async function listPrefixKeys(
  client: QsClient,
  input: BucketRef & { prefix: string },
  options: { cap?: number; signal?: AbortSignal; onPage?: (count: number) => void } = {},
): Promise<PrefixKeys> {
  const cap = options.cap ?? BULK_MAX_OBJECTS;
  const keys: string[] = [];
  const listing = prefixPages(client, input, options.signal);
  for await (const page of listing) {
    for (const entry of page.keys) {
      if (entry.key.endsWith('/')) continue;
      if (keys.length === cap) return { keys, overCap: true };
      keys.push(entry.key);
    }
    options.onPage?.(keys.length);
  }
  return { keys, overCap: false };
}
