/**
 * The words of a bulk job, shared by the engine (machine, pool, journal, runner) and the views. A job is
 * one operation over one scope of one bucket, written down in the journal before anything is sent, so a
 * reload or another tab finds it again. Nothing here holds a secret: a job names its connection by
 * `connectionId` (access key id, endpoint, addressing), never by its key.
 */
import type { MetadataEdits } from '../../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../../api/metadata/types.ts';

/** What a job covers. Keys of a selection are kept in byte order (the listing's order, ref §9.5). */
export type JobScope =
  /** A selection made in the folder `base` (copies and moves keep each key's path below it). */
  | { kind: 'keys'; base: string; keys: readonly string[] }
  /** Every key under the prefix, its subfolders included (no delimiter). */
  | { kind: 'prefix'; prefix: string }
  /** Every key of the bucket: started only after the user typed the bucket's name. */
  | { kind: 'bucket' };

export interface JobDestination {
  bucket: string;
  /** The folder the objects go into ('' = the bucket's root); a key keeps its path below the scope. */
  prefix: string;
}

export type JobOperation =
  /** The same edits merged into each object's own metadata (conditional REPLACE copy onto itself). */
  | { kind: 'edit'; edits: MetadataEdits }
  /** DeleteMultipleObjects in batches (ref §5.9). */
  | { kind: 'delete' }
  /** COPY-directive copy (ref §5.2) or move (ref §5.3) into another folder or bucket of the same zone. */
  | { kind: 'copy' | 'move'; destination: JobDestination; overwrite: 'skip' | 'replace' }
  /** Puts back the metadata an edit job changed, object by object, where nobody changed it since. */
  | { kind: 'undo'; of: string };

export type OperationKind = JobOperation['kind'];

/** The folder a scope's keys are relative to: a copy or move keeps each key's path below it. */
export function scopeBase(scope: JobScope): string {
  switch (scope.kind) {
    case 'keys':
      return scope.base;
    case 'prefix':
      return scope.prefix;
    case 'bucket':
      return '';
  }
}

/** Where a copy or move puts `key`. */
export function destinationKey(scope: JobScope, destination: JobDestination, key: string): string {
  const base = scopeBase(scope);
  return destination.prefix + (key.startsWith(base) ? key.slice(base.length) : key);
}

/**
 * Why a copy or move to `destination` cannot run, or null: a destination inside the scope would be listed
 * again as the job walks it (or be the objects themselves).
 */
export function destinationProblem(bucket: string, scope: JobScope, destination: JobDestination): 'inside-scope' | 'same-place' | null {
  if (destination.bucket !== bucket) return null;
  if (destination.prefix === scopeBase(scope)) return 'same-place';
  if (scope.kind === 'bucket') return 'inside-scope';
  if (scope.kind === 'prefix' && destination.prefix.startsWith(scope.prefix)) return 'inside-scope';
  return null;
}

/** Where a job stands, as the journal keeps it (what a tab that opens it later finds). */
export type StoredStatus = 'running' | 'paused' | 'cancelled' | 'finished' | 'failed';

/** The main pass walks the scope; a retry pass walks the objects that failed. */
export type JobPass = 'main' | 'retry';

export interface JobCounts {
  /** Written: edited, deleted, copied, moved or restored. */
  changed: number;
  /** Nothing to do: already as asked. */
  unchanged: number;
  /** Left alone on purpose, with the reason (over a limit, changed by another writer, destination exists…). */
  skipped: number;
  failed: number;
}

export const NO_COUNTS: JobCounts = { changed: 0, unchanged: 0, skipped: 0, failed: 0 };

export function settledOf(counts: JobCounts): number {
  return counts.changed + counts.unchanged + counts.skipped + counts.failed;
}

export interface JobRecord {
  id: string;
  /** connectionId(connection): which endpoint and access key the job belongs to. */
  connection: string;
  zone: string;
  bucket: string;
  scope: JobScope;
  operation: JobOperation;
  createdAt: number;
  updatedAt: number;
  status: StoredStatus;
  pass: JobPass;
  /**
   * Everything up to this key (in the order of the pass's source) is settled and journaled; a resume
   * asks the source for what comes after it. Null: from the start.
   */
  cursor: string | null;
  /** Objects in the scope, once counted (the dry run or the count beside the run); null until then. */
  total: number | null;
  /** Objects the retry pass started with. */
  retryTotal: number | null;
  counts: JobCounts;
  /** Why the job stopped by itself (the listing failed, or every object failed the same way). */
  fatal: { code: string; message: string } | null;
}

/**
 * The version of an object a job read before writing it: enough to guard the write, to restore it (its
 * metadata) and to recognise it again after a reload.
 */
export interface StoredVersion {
  etag?: string;
  lastModified?: string;
  size: number;
  metadata: ObjectMetadata;
}

/** The version a write left (for undo's check that nobody changed it since). */
export interface StoredAfter {
  etag?: string;
  lastModified?: string;
}

export type ItemState =
  /** The write is about to be sent (or was sent and its answer is not known): recovered on resume. */
  | 'intent'
  | 'changed'
  | 'unchanged'
  | 'skipped'
  | 'failed';

export type TerminalState = Exclude<ItemState, 'intent'>;

export interface ItemRecord {
  job: string;
  key: string;
  state: ItemState;
  before?: StoredVersion;
  after?: StoredAfter;
  /** The QingStor error code, or the console's reason (see REASONS in outcome.ts). */
  code?: string;
  message?: string;
  requestId?: string;
  /** For a failed write whose answer never came (a network error): it may have been applied. */
  uncertain?: boolean;
  /** The metadata rule an edit would have broken (ref §6), with the sizes measured. */
  rule?: { rule: string; bytes?: number; limit?: number };
}

export function isTerminal(state: ItemState | undefined): state is TerminalState {
  return state !== undefined && state !== 'intent';
}

/** The counts after an object moved from `from` (undefined: never settled) to `to`. */
export function countMove(counts: JobCounts, from: ItemState | undefined, to: TerminalState): JobCounts {
  const next = { ...counts };
  if (isTerminal(from)) next[from] -= 1;
  next[to] += 1;
  return next;
}
