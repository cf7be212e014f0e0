/**
 * What every operation of a job shares: how one unit of work (one object, or one batch of a delete) is
 * run, and how its errors become records. An operation settles each of its objects with a terminal
 * record, or asks to be tried again (throttled, or no answer) — or, when the job is being cancelled
 * before its write was sent, leaves the object unsettled ("not started").
 */
import type { QsClient } from '../../../../api/client.ts';
import type { HeaderVisibility } from '../../../../api/cors/visibility.ts';
import { ApiError, ContractError, NetworkError } from '../../../../api/errors.ts';
import type { MetadataEdits } from '../../../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../../../api/metadata/types.ts';
import type { ObjectHead } from '../../../../api/objects/read.ts';
import { isThrottle, retryAfterMs, type TaskOutcome } from '../pool.ts';
import type { SourceEntry } from '../sources.ts';
import type { ItemRecord, JobRecord, StoredAfter, StoredVersion } from '../types.ts';

/** Attempts of one object when the server keeps throttling, and when no answer arrives at all. */
export const MAX_THROTTLED_ATTEMPTS = 8;
export const MAX_TRANSIENT_ATTEMPTS = 3;

/** The guarded metadata write, provided by the metadata feature (the composition root passes it in). */
export interface MetadataWritePort {
  /** Why a REPLACE save of `head` must not run (e.g. 'hidden-headers', 'no-guard'), or null. */
  block(client: QsClient, visibility: HeaderVisibility, head: ObjectHead): string | null;
  /**
   * Writes `edits` merged into `fresh` (the version just read, the one read before the write): a copy
   * onto itself conditional on that version. No read-back: the job checks what it wrote from the
   * listing, many objects at a time (verify.ts).
   */
  write(client: QsClient, input: { zone: string; bucket: string; key: string; fresh: ObjectHead; edits: MetadataEdits; visibility: HeaderVisibility; signal?: AbortSignal }): Promise<WriteResult>;
}

export type WriteResult =
  /** The copy landed: the full set it sent, and its answer. */
  | { kind: 'written'; sent: ObjectMetadata; etag: string; requestId: string }
  /** Another writer got there first: seen by a second read ('head') or the copy's condition ('precondition'). */
  | { kind: 'conflict'; detectedBy: 'head' | 'precondition'; theirs: ObjectHead }
  | { kind: 'blocked'; block: string };

export interface UnitContext {
  client: QsClient;
  job: JobRecord;
  /** The write port and what the page may read of the bucket's headers (edit and undo jobs). */
  metadata: MetadataWritePort;
  visibility: HeaderVisibility;
  attempt: number;
  /** True once the job is being cancelled: no new write may be sent. */
  stopping(): boolean;
  /** Stores records before a write is sent; resolves once they are in the journal. */
  intend(records: readonly ItemRecord[]): Promise<void>;
  /** Replaces records already settled with what was learnt since (same state): a write's check. */
  amend(records: readonly ItemRecord[]): Promise<void>;
  /** The original job of an undo (its edits). */
  original?: JobRecord;
}

export type UnitResult =
  /** Terminal records of the unit's objects, and what the answers said of the load. */
  | { kind: 'settled'; records: ItemRecord[]; outcome: TaskOutcome }
  /** Try the whole unit again later (throttled, or no answer). */
  | { kind: 'retry'; outcome: TaskOutcome }
  /** Cancelled before its write was sent: the objects stay unsettled. */
  | { kind: 'abandoned' };

export interface Operation {
  /** Objects the operation leaves out entirely (folder markers for metadata edits). */
  accepts(key: string): boolean;
  /** Objects per unit: 1, or a delete's batch. */
  batch: number;
  run(entries: readonly { entry: SourceEntry; previous: ItemRecord | undefined }[], context: UnitContext): Promise<UnitResult>;
  /**
   * Work the pass's units left running in the background (an edit's checks), awaited before the pass
   * ends; `drop`: the job is being cancelled, so nothing not yet sent is sent.
   */
  finish?(drop: boolean): Promise<void>;
}

export function storedVersion(head: ObjectHead): StoredVersion {
  return {
    size: head.size,
    metadata: head.metadata,
    ...(head.etag !== undefined ? { etag: head.etag } : {}),
    ...(head.lastModifiedRaw !== undefined ? { lastModified: head.lastModifiedRaw } : {}),
  };
}

export function storedAfter(head: ObjectHead): StoredAfter {
  return {
    ...(head.etag !== undefined ? { etag: head.etag } : {}),
    ...(head.lastModifiedRaw !== undefined ? { lastModified: head.lastModifiedRaw } : {}),
  };
}

/** The error code, request id and message a record keeps of a failure. */
export function describeError(error: unknown): { code: string; message: string; requestId?: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message, ...(error.requestId ? { requestId: error.requestId } : {}) };
  if (error instanceof NetworkError) return { code: error.likelyCors ? 'network_error_cors' : 'network_error', message: error.message };
  if (error instanceof ContractError) return { code: 'contract_error', message: error.message, ...(error.requestId ? { requestId: error.requestId } : {}) };
  return { code: 'error', message: error instanceof Error ? error.message : String(error) };
}

/**
 * A failure of one attempt: tried again when the server throttles (up to MAX_THROTTLED_ATTEMPTS) or no
 * answer came (MAX_TRANSIENT_ATTEMPTS), else settled as failed with `base`'s fields kept.
 */
export function failure(error: unknown, context: Pick<UnitContext, 'attempt'>, records: (fields: Partial<ItemRecord>) => ItemRecord[], uncertain = false): UnitResult {
  if (isThrottle(error)) {
    const outcome: TaskOutcome = { kind: 'throttled', retry: context.attempt < MAX_THROTTLED_ATTEMPTS, ...optionalRetryAfter(error.retryAfter) };
    if (outcome.retry) return { kind: 'retry', outcome };
    return { kind: 'settled', records: records({ state: 'failed', ...describeError(error) }), outcome };
  }
  if (error instanceof NetworkError) {
    const outcome: TaskOutcome = { kind: 'transient', retry: context.attempt < MAX_TRANSIENT_ATTEMPTS };
    if (outcome.retry) return { kind: 'retry', outcome };
    return { kind: 'settled', records: records({ state: 'failed', ...describeError(error), ...(uncertain ? { uncertain: true } : {}) }), outcome };
  }
  return { kind: 'settled', records: records({ state: 'failed', ...describeError(error) }), outcome: { kind: 'other' } };
}

function optionalRetryAfter(header: string | undefined): { retryAfterMs?: number } {
  const ms = retryAfterMs(header, Date.now());
  return ms === undefined ? {} : { retryAfterMs: ms };
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
