/**
 * Metadata saves of objects above the copy limit (ref §5.2, §8.3). One PUT-copy takes a source of at most
 * 5 GB, so a bigger object cannot be copied onto itself with REPLACE. It is rewritten as a multipart copy
 * onto the same key instead:
 *
 *   1. Initiate with the complete new header set (the same set a REPLACE copy would send) and the
 *      object's storage class;
 *   2. Upload Part - Copy of consecutive ranges of the object, each at most the copy limit, every one
 *      conditional on the version the save was checked against (`x-qs-copy-source-if-*`);
 *   3. HEAD again: if the object is no longer that version, abort (a change between the last part and
 *      Complete would otherwise be overwritten);
 *   4. Complete with the object's ETag, so the rewritten object keeps it as a self-copy does.
 *
 * Until Complete the object is untouched: a failed part, a conflict or a cancel aborts the upload, which
 * leaves the object as it was and no upload behind. Once Complete is sent it is no longer cancellable.
 */
import type { CallOptions, ObjectRef, QsClient } from '../client.ts';
import type { Connection } from '../connection.ts';
import { ApiError, isAbortError } from '../errors.ts';
import { diffMetadata } from './edit.ts';
import { abortMultipartUpload, completeMultipartUpload, initiateMultipartUpload, uploadPartCopy } from '../multipart/operations.ts';
import { headObject, type ObjectHead } from '../objects/read.ts';
import { copyObject, type CopyObjectInput, type EtagResult } from '../objects/write.ts';
import type { StorageClass } from '../objects/schemas.ts';
import { unquoteEtag } from '../protocol/etag.ts';
import { MAX_PARTS, QINGSTOR_COPY_LIMIT } from '../protocol/limits.ts';

export { QINGSTOR_COPY_LIMIT };

/** Largest part the engine plans when the limit allows more: smaller parts give finer progress and a quicker cancel. */
export const LARGE_COPY_PART_SIZE = 1024 * 1024 * 1024;


/** The copy limit the console assumes for a connection: its own setting (an emulator with a lowered limit), else QingStor's. */
export function copyLimitOf(connection: Pick<Connection, 'copyLimit'>): number {
  return connection.copyLimit ?? QINGSTOR_COPY_LIMIT;
}

/** Whether an object of `size` bytes must be copied in parts under `copyLimit`. */
export function needsPartCopy(size: number, copyLimit: number): boolean {
  return size > copyLimit;
}

export interface CopyPartPlan {
  partNumber: number;
  /** Inclusive byte range of the source. */
  start: number;
  end: number;
}

/**
 * Consecutive ranges covering `size` bytes, each at most `copyLimit` (and at most `preferredPartSize`
 * when that still fits in 10000 parts). Throws RangeError when no plan within 10000 parts exists.
 */
export function planCopyParts(size: number, copyLimit: number, preferredPartSize = LARGE_COPY_PART_SIZE): CopyPartPlan[] {
  if (!Number.isSafeInteger(size) || size <= 0) throw new RangeError(`nothing to copy in parts: size ${size}`);
  if (!Number.isSafeInteger(copyLimit) || copyLimit <= 0) throw new RangeError(`not a copy limit: ${copyLimit}`);
  const partSize = Math.min(copyLimit, Math.max(preferredPartSize, Math.ceil(size / MAX_PARTS)));
  const count = Math.ceil(size / partSize);
  if (count > MAX_PARTS) throw new RangeError(`${size} bytes need ${count} parts of at most ${copyLimit} bytes; an upload has at most ${MAX_PARTS}`);
  const parts: CopyPartPlan[] = [];
  for (let i = 0; i < count; i++) {
    parts.push({ partNumber: i + 1, start: i * partSize, end: Math.min(size, (i + 1) * partSize) - 1 });
  }
  return parts;
}

export type LargeCopyPhase = 'initiating' | 'copying' | 'checking' | 'completing' | 'aborting';

export interface LargeCopyProgress {
  phase: LargeCopyPhase;
  partsDone: number;
  partsTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** False once Complete is sent (or while aborting): cancelling can no longer stop the save. */
  cancellable: boolean;
}

/** Options of a save that may need a multipart copy; the editor passes them through saveMetadataEdits. */
export interface LargeCopyOptions {
  /** The copy limit; default the client's connection's (copyLimitOf). */
  copyLimit?: number;
  /** Part size to prefer (tests, bench); default LARGE_COPY_PART_SIZE, never above copyLimit. */
  partSize?: number;
  onProgress?: (progress: LargeCopyProgress) => void;
}

/**
 * The object changed between the part copies and Complete (seen by the HEAD before Complete). Shaped
 * like the server's 412 so a caller treats it like a failed source condition: a conflict, nothing written.
 */
export class LargeCopyConflict extends ApiError {
  constructor(operation: string, requestUrl: string) {
    super({
      status: 412,
      code: 'precondition_failed',
      message: 'The object changed while its parts were being copied; nothing was written.',
      requestId: '',
      url: '',
      fromBody: false,
      operation,
      method: 'HEAD',
      requestUrl,
    });
    this.name = 'LargeCopyConflict';
  }
}

/** Aborting the upload failed after another failure: the upload may still exist and holds storage until aborted. */
export class LeftoverUploadError extends Error {
  readonly uploadId: string;
  constructor(uploadId: string, cause: unknown, abortError: unknown) {
    super(`The upload ${uploadId} could not be aborted; it may still exist.`, { cause: { cause, abortError } });
    this.name = 'LeftoverUploadError';
    this.uploadId = uploadId;
  }
}

function sameVersion(a: ObjectHead, b: ObjectHead): boolean {
  return a.etag === b.etag && a.lastModifiedRaw === b.lastModifiedRaw && a.size === b.size && diffMetadata(a.metadata, b.metadata).length === 0;
}

const STORAGE_CLASSES: readonly StorageClass[] = ['STANDARD', 'STANDARD_IA'];

function storageClassOf(version: ObjectHead): StorageClass | undefined {
  return STORAGE_CLASSES.find((c) => c === version.storageClass);
}

export interface MultipartSelfCopyInput extends ObjectRef, LargeCopyOptions {
  copyLimit: number;
  /** The version the save was checked against (the fresh HEAD): the copy source and what must not change. */
  version: ObjectHead;
  /** The complete new metadata (REPLACE semantics: anything left out is gone). */
  metadata: NonNullable<CopyObjectInput['metadata']>;
  /** Conditions on the source, sent with EVERY part copy. At least one of ifMatch / ifUnmodifiedSince. */
  conditions: NonNullable<CopyObjectInput['conditions']>;
}

/**
 * Rewrites `version` onto its own key as a multipart copy with `metadata`. Resolves like copyObject
 * (the ETag and the Complete request id). Rejects with ApiError 412 (server condition) or
 * LargeCopyConflict (HEAD before Complete) on a concurrent change, with the abort error when
 * `options.signal` fires before Complete, and with the failure otherwise; in every one of those cases
 * the upload was aborted first (LeftoverUploadError if even that failed).
 */
export async function multipartSelfCopy(client: QsClient, input: MultipartSelfCopyInput, options: CallOptions = {}): Promise<EtagResult> {
  const { version } = input;
  // Every part is pinned to the reviewed version by its ETag as well: the parts are separate requests, and
  // the HEAD before Complete (below) catches a metadata-only change that keeps the ETag.
  const conditions = version.etag !== undefined && version.etag !== '' && input.conditions.ifMatch === undefined ? { ...input.conditions, ifMatch: version.etag } : input.conditions;
  if (conditions.ifMatch === undefined && conditions.ifUnmodifiedSince === undefined) {
    throw new Error('A multipart copy needs a source condition (ETag or Last-Modified) on every part; neither is known.');
  }
  if (version.objectType === 'appendable') {
    throw new Error('An appendable object cannot be rewritten in parts: it would stop being appendable.');
  }
  const ref: ObjectRef = { ...(input.zone !== undefined ? { zone: input.zone } : {}), bucket: input.bucket, key: input.key };
  const plan = planCopyParts(version.size, input.copyLimit, input.partSize);
  const progress: LargeCopyProgress = { phase: 'initiating', partsDone: 0, partsTotal: plan.length, bytesDone: 0, bytesTotal: version.size, cancellable: true };
  const report = (change: Partial<LargeCopyProgress>) => {
    Object.assign(progress, change);
    input.onProgress?.({ ...progress });
  };
  const signal = options.signal;
  report({});
  const storageClass = storageClassOf(version);
  // Without the signal: a cancel while Initiate is in flight must not lose the id of an upload the
  // server may have created; the loop below sees the cancel and aborts that upload.
  const { upload_id: uploadId } = await initiateMultipartUpload(client, { ...ref, metadata: input.metadata, ...(storageClass ? { storageClass } : {}) });
  const upload = { ...ref, uploadId };
  const etags: string[] = [];
  try {
    report({ phase: 'copying' });
    for (const part of plan) {
      signal?.throwIfAborted();
      const copied = await uploadPartCopy(
        client,
        { ...upload, partNumber: part.partNumber, source: { bucket: ref.bucket, key: ref.key }, range: { start: part.start, end: part.end }, conditions },
        signal ? { signal } : {},
      );
      etags.push(copied.etag);
      report({ partsDone: progress.partsDone + 1, bytesDone: progress.bytesDone + (part.end - part.start + 1) });
    }
    report({ phase: 'checking' });
    const now = await headObject(client, ref, signal ? { signal } : {});
    if (!sameVersion(version, now)) throw new LargeCopyConflict('HeadObject', client.url({ zone: ref.zone, bucket: ref.bucket, key: ref.key }).url.toString());
    signal?.throwIfAborted();
  } catch (error) {
    report({ phase: 'aborting', cancellable: false });
    try {
      // Never with the caller's signal: a cancel must still remove the upload.
      await abortMultipartUpload(client, upload);
    } catch (abortError) {
      throw new LeftoverUploadError(uploadId, error, abortError);
    }
    throw error;
  }
  report({ phase: 'completing', cancellable: false });
  // Not cancellable from here: an aborted Complete could have been applied already.
  const done = await completeMultipartUpload(client, {
    ...upload,
    parts: plan.map((p, i) => ({ partNumber: p.partNumber, ...(etags[i] ? { etag: etags[i] } : {}) })),
    ...(version.etag !== undefined && version.etag !== '' ? { etag: unquoteEtag(version.etag) } : {}),
  });
  return { etag: version.etag ?? '', requestId: done.requestId };
}

/**
 * The metadata save's copy onto itself: one PUT-copy with REPLACE when the object fits in one copy,
 * else multipartSelfCopy. The limit is `large.copyLimit`, else the connection's (QingStor's 5 GB unless the
 * connection names another); without `large`, default parts and no progress.
 */
export function copyOntoItself(
  client: QsClient,
  input: CopyObjectInput & { version: ObjectHead },
  large: LargeCopyOptions | undefined,
  options: CallOptions = {},
): Promise<EtagResult> {
  const { version, ...copy } = input;
  const copyLimit = large?.copyLimit ?? copyLimitOf(client.connection);
  if (!needsPartCopy(version.size, copyLimit)) return copyObject(client, copy, options);
  return multipartSelfCopy(
    client,
    {
      ...(copy.zone !== undefined ? { zone: copy.zone } : {}),
      bucket: copy.bucket,
      key: copy.key,
      version,
      metadata: copy.metadata ?? { standard: {}, custom: {} },
      conditions: copy.conditions ?? {},
      copyLimit,
      ...(large?.partSize !== undefined ? { partSize: large.partSize } : {}),
      ...(large?.onProgress ? { onProgress: large.onProgress } : {}),
    },
    options,
  );
}

/** True for the rejection of a cancelled save (the signal's abort reason reached the caller). */
export function isCancelled(error: unknown): boolean {
  return isAbortError(error);
}
