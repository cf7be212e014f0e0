/**
 * Saving metadata without losing anything (ref §5.2): QingStor can only change metadata by copying an
 * object onto itself with `x-qs-metadata-directive: REPLACE`, which drops whatever the request leaves
 * out. So every save sends the FULL merged set (replaceRequestHeaders), and guards against another
 * client's change in two ways:
 *   1. just before sending, HEAD again and compare ETag, Last-Modified and metadata with the version
 *      the editor loaded;
 *   2. the copy itself is conditional on that version (`x-qs-copy-source-if-match` with the ETag,
 *      `x-qs-copy-source-if-unmodified-since` with Last-Modified), closing the gap between 1 and the copy.
 * Either check failing is a conflict the user resolves; nothing is written then.
 */
import type { ObjectRef, QsClient } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { applyMetadataEdits, diffMetadata, replaceRequestHeaders, type MetadataEdits } from '../../api/metadata/edit.ts';
import { metadataFromEntries, type ObjectMetadata } from '../../api/metadata/model.ts';
import { headObject, type CopyConditions, type ObjectHead } from '../../api/objects/operations.ts';
import { copyOntoItself, type LargeCopyOptions } from './large-copy.ts';

/** True when `fresh` is the same version of the object as `base` (nothing changed in between). */
export function sameVersion(base: ObjectHead, fresh: ObjectHead): boolean {
  return (
    base.etag === fresh.etag &&
    base.lastModifiedRaw === fresh.lastModifiedRaw &&
    diffMetadata(base.metadata, fresh.metadata).length === 0
  );
}

/** Conditions that make a copy fail with 412 unless the source is still `version` (ref §5.2). */
export function versionConditions(version: ObjectHead): CopyConditions {
  const conditions: CopyConditions = {};
  if (version.etag !== undefined && version.etag !== '') conditions.ifMatch = version.etag;
  if (version.lastModifiedRaw !== undefined) conditions.ifUnmodifiedSince = version.lastModifiedRaw;
  return conditions;
}

export type SaveResult =
  | {
      kind: 'saved';
      /** The version that was replaced (equal to the base). */
      before: ObjectHead;
      /** The object as a HEAD after the save reads it (the base for an undo). */
      after: ObjectHead;
      requestId: string;
    }
  | {
      kind: 'conflict';
      /** Which guard noticed: the HEAD comparison, or the server's precondition (412). */
      detectedBy: 'head' | 'precondition';
      theirs: ObjectHead;
    };

export interface SaveInput {
  ref: ObjectRef;
  /** The version the edits were made against. */
  base: ObjectHead;
  edits: MetadataEdits;
  signal?: AbortSignal;
  /** Copy limit, part size and progress for objects above the copy limit (large-copy.ts); default QingStor's limit. */
  largeCopy?: LargeCopyOptions;
}

/**
 * Applies `edits` to the object if it is still `base`. Throws MetadataEditError when the merged set
 * breaks a rule of ref §6 (nothing sent), ApiError/NetworkError for other failures.
 */
export async function saveMetadataEdits(client: QsClient, input: SaveInput): Promise<SaveResult> {
  const { ref, base, edits, signal } = input;
  const options = signal ? { signal } : {};
  const fresh = await headObject(client, ref, options);
  if (!sameVersion(base, fresh)) return { kind: 'conflict', detectedBy: 'head', theirs: fresh };

  // The full set: every header and key of the current version, with the edits merged in (ref §5.2).
  const headers = replaceRequestHeaders(fresh.metadata, edits);
  const merged = metadataFromEntries(Object.entries(headers));
  let requestId: string;
  try {
    const result = await copyOntoItself(
      client,
      { ...ref, source: { bucket: ref.bucket, key: ref.key }, directive: 'REPLACE', metadata: merged, conditions: versionConditions(fresh), version: fresh },
      input.largeCopy,
      options,
    );
    requestId = result.requestId;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      return { kind: 'conflict', detectedBy: 'precondition', theirs: await headObject(client, ref, options) };
    }
    throw error;
  }
  const after = await headObject(client, ref, options);
  return { kind: 'saved', before: fresh, after, requestId };
}

/** What the user's edits produce on top of `base` (for previews). */
export function previewEdits(base: ObjectMetadata, edits: MetadataEdits): ObjectMetadata {
  return applyMetadataEdits(base, edits);
}
