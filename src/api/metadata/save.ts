/**
 * Saving metadata without losing anything. QingStor can only change metadata by copying an object onto
 * itself with `x-qs-metadata-directive: REPLACE`, which drops whatever the request leaves out. So:
 *
 * 1. Completeness. Every save sends the FULL merged set (replaceRequestHeaders) — and refuses to run
 *    when the browser cannot read part of that set (a CORS rule that hides Content-Disposition, say):
 *    a hidden header reads as absent, and resending "absent" deletes it. Only hidden custom keys may be
 *    acknowledged by the user (they can know an object has no other keys); hidden standard headers
 *    always block. See src/api/cors/visibility.ts.
 * 2. Lost updates. Just before sending, HEAD again and compare with the version the edit was made on (a
 *    bulk edit's own HEAD is that read: editObjectMetadata); then make the copy conditional on that
 *    version's Last-Modified
 *    (`x-qs-copy-source-if-unmodified-since`). Not on the ETag: a self-copy keeps the ETag, so
 *    If-Match cannot see another client's metadata-only save, and an If-Match would take precedence
 *    over the date condition. Last-Modified has one-second resolution, so a save never lands within
 *    the same second as the version it replaces: it waits for the next second on the server's clock.
 *    A version read within its own Last-Modified second is read once more after that second, since
 *    another write in the same second would carry the same date.
 *    With Last-Modified unreadable the guard falls back to If-Match on the ETag (it then cannot see
 *    metadata-only changes, and says so); with neither, the save is blocked.
 * 3. Verification. After the copy, HEAD again and check the object holds exactly what was sent;
 *    anything else is reported as a conflict with both versions.
 */
import type { ObjectRef, QsClient } from '../client.ts';
import { canReadHeader, hiddenHeaders, hiddenHeadersOf, saveWouldBeIncomplete, type HeaderVisibility, type HiddenHeaders } from '../cors/visibility.ts';
import { ApiError } from '../errors.ts';
import { applyMetadataEdits, diffMetadata, replaceRequestHeaders, type MetadataEdits } from './edit.ts';
import { metadataFromEntries } from './header-mapping.ts';
import type { ObjectMetadata } from './types.ts';
import { headObjectReadable, type ObjectHead } from '../objects/read.ts';
import type { CopyConditions } from '../objects/write.ts';
import { copyLimitOf, copyOntoItself, needsPartCopy, type LargeCopyOptions } from './large-copy.ts';

/** True when `fresh` is the same version of the object as `base` (nothing changed in between). */
export function sameVersion(base: ObjectHead, fresh: ObjectHead): boolean {
  return (
    base.etag === fresh.etag &&
    base.lastModifiedRaw === fresh.lastModifiedRaw &&
    base.size === fresh.size &&
    base.refused === fresh.refused &&
    diffMetadata(base.metadata, fresh.metadata).length === 0
  );
}

/** What makes the copy fail with 412 if the object is no longer the version the edit was made on. */
export type VersionGuard =
  /** The strong guard: any write, metadata-only included, moves Last-Modified. */
  | { kind: 'last-modified'; lastModified: string }
  /** Fallback when Last-Modified is unreadable: catches new content, not another metadata-only save. */
  | { kind: 'etag'; etag: string }
  | { kind: 'none' };

export function versionGuard(version: ObjectHead): VersionGuard {
  if (version.lastModifiedRaw !== undefined && version.lastModifiedRaw !== '') return { kind: 'last-modified', lastModified: version.lastModifiedRaw };
  if (version.etag !== undefined && version.etag !== '') return { kind: 'etag', etag: version.etag };
  return { kind: 'none' };
}

export function guardConditions(guard: VersionGuard): CopyConditions {
  switch (guard.kind) {
    case 'last-modified':
      return { ifUnmodifiedSince: guard.lastModified };
    case 'etag':
      return { ifMatch: guard.etag };
    case 'none':
      return {};
  }
}

/** Which headers a save of `head` depends on that this page cannot read. */
export function hiddenFor(visibility: HeaderVisibility, head: ObjectHead): HiddenHeaders {
  return hiddenHeadersOf(visibility, head);
}

export type SaveBlock =
  /** The set a REPLACE save would send may be incomplete; the listed headers are hidden. */
  | { kind: 'hidden-headers'; hidden: HiddenHeaders }
  /** The CORS configuration is still being read. */
  | { kind: 'checking' }
  /** Neither Last-Modified nor ETag can be read: no way to make the copy conditional. */
  | { kind: 'no-guard' }
  /**
   * An object above the copy limit is rewritten by a multipart copy, which must repeat its storage class
   * and ETag (large-copy.ts); these headers are hidden, so the rewrite would change them.
   */
  | { kind: 'large-copy-hidden'; headers: string[] };

/** Thrown (before anything is sent) when a save could lose data or run unguarded. */
export class SaveBlockedError extends Error {
  readonly block: SaveBlock;

  constructor(block: SaveBlock) {
    super(`Metadata save blocked: ${block.kind}`);
    this.name = 'SaveBlockedError';
    this.block = block;
  }
}

/**
 * Why a save of `head` must not run, or null. `acknowledgedHiddenCustom`: the user confirmed the object
 * has no custom keys besides the readable ones — it covers hidden custom keys only, never a hidden
 * standard header.
 */
export function saveBlock(visibility: HeaderVisibility, head: ObjectHead, acknowledgedHiddenCustom = false, copyLimit = Number.POSITIVE_INFINITY): SaveBlock | null {
  if (visibility.kind === 'checking') return { kind: 'checking' };
  const hidden = hiddenFor(visibility, head);
  if (saveWouldBeIncomplete(hidden) && !(hidden.standard.length === 0 && acknowledgedHiddenCustom)) return { kind: 'hidden-headers', hidden };
  if (versionGuard(head).kind === 'none') return { kind: 'no-guard' };
  if (needsPartCopy(head.size, copyLimit)) {
    const headers = [
      ...(hidden.etag ? ['etag'] : []),
      ...(canReadHeader(visibility, 'x-qs-storage-class') === true ? [] : ['x-qs-storage-class']),
    ];
    if (headers.length > 0) return { kind: 'large-copy-hidden', headers };
  }
  return null;
}

/**
 * The completeness check alone, for writes with no version to guard (a REPLACE copy to another key) or
 * no single object yet (bulk edit, where the user cannot vouch for objects one by one: no acknowledgement).
 */
export function completenessBlock(visibility: HeaderVisibility, head?: ObjectHead): SaveBlock | null {
  if (visibility.kind === 'checking') return { kind: 'checking' };
  const hidden = head ? hiddenHeadersOf(visibility, head) : hiddenHeaders(visibility);
  return saveWouldBeIncomplete(hidden) ? { kind: 'hidden-headers', hidden } : null;
}

export type SaveResult =
  | {
      kind: 'saved';
      /** The version that was replaced (equal to the base). */
      before: ObjectHead;
      /** The object as a HEAD after the save reads it (the base for an undo). */
      after: ObjectHead;
      requestId: string;
      guard: VersionGuard;
    }
  | {
      kind: 'conflict';
      /**
       * Which check noticed: the HEAD before sending, the server's precondition (412), or the HEAD after
       * the save (the copy ran, but the object does not hold what was sent: someone wrote right after).
       */
      detectedBy: 'head' | 'precondition' | 'verify';
      theirs: ObjectHead;
    };

export interface SaveInput {
  ref: ObjectRef;
  /** The version the edits were made against. */
  base: ObjectHead;
  edits: MetadataEdits;
  /** What this page can read of the bucket's headers (useHeaderVisibility). */
  visibility: HeaderVisibility;
  acknowledgedHiddenCustom?: boolean;
  signal?: AbortSignal;
  /** Copy limit, part size and progress for objects above the copy limit (large-copy.ts); default QingStor's limit. */
  largeCopy?: LargeCopyOptions;
}

/** Longest wait for the next server second when the server's clock is unknown (local clock only). */
const MAX_SECOND_WAIT_MS = 3000;

/** The server's "now", never later than the truth when its Date header was read (Date truncates to seconds). */
function serverNow(client: QsClient, version: ObjectHead): { ms: number; exact: boolean } {
  const clock = version.serverClock;
  if (clock) return { ms: clock.serverDate.getTime() + (Date.now() - clock.receivedAt), exact: true };
  return { ms: client.now().getTime(), exact: false };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits until the server's clock has left the second of `version`'s Last-Modified, so the copy's own
 * Last-Modified is later and a concurrent save conditioned on `version` fails with 412.
 */
async function waitPastLastModified(client: QsClient, version: ObjectHead, signal: AbortSignal | undefined): Promise<void> {
  const modified = version.lastModified?.getTime();
  if (modified === undefined || Number.isNaN(modified)) return;
  const nextSecond = Math.floor(modified / 1000) * 1000 + 1000;
  const now = serverNow(client, version);
  // Without the server's Date, allow one more second for a local clock that runs ahead.
  const margin = now.exact ? 0 : 1000;
  const delay = Math.min(nextSecond + margin - now.ms, MAX_SECOND_WAIT_MS);
  if (delay > 0) await sleep(delay + 20, signal);
}

/**
 * True when `version` may have been read within the second of its own Last-Modified. Another write in the
 * rest of that second would carry the same Last-Modified, which `If-Unmodified-Since` cannot tell apart
 * from the version that was read; only reading again once that second is over can. Without the server's
 * Date, the local clock decides, with a second's margin.
 */
function readInLastModifiedSecond(client: QsClient, version: ObjectHead): boolean {
  const modified = version.lastModified?.getTime();
  if (modified === undefined || Number.isNaN(modified)) return false;
  const second = Math.floor(modified / 1000) * 1000;
  if (version.serverClock) return version.serverClock.serverDate.getTime() < second + 1000;
  return client.now().getTime() < second + 2000;
}

/** REPLACE without a Content-Type stores application/octet-stream; compare what the server will hold. */
function withStoredDefaults(m: ObjectMetadata): ObjectMetadata {
  return m.standard['content-type'] === undefined ? { ...m, standard: { ...m.standard, 'content-type': 'application/octet-stream' } } : m;
}

/** True when `after` holds exactly `sent` on top of the same body as `before`. */
function holdsWhatWasSent(before: ObjectHead, sent: ObjectMetadata, after: ObjectHead): boolean {
  if (after.size !== before.size) return false;
  if (before.etag !== undefined && after.etag !== before.etag) return false;
  return diffMetadata(withStoredDefaults(sent), withStoredDefaults(after.metadata)).length === 0;
}

/**
 * Applies `edits` to the object if it is still `base`: HEAD (is it still `base`?), the conditional copy,
 * the read-back HEAD. Throws SaveBlockedError when the save could lose data or run unguarded,
 * MetadataEditError when the merged set breaks a metadata rule (nothing sent in either case),
 * ApiError/NetworkError for other failures.
 */
export async function saveMetadataEdits(client: QsClient, input: SaveInput): Promise<SaveResult> {
  const { ref, base, signal } = input;
  const fresh = await headObjectReadable(client, ref, signal ? { signal } : {});
  if (!sameVersion(base, fresh)) return { kind: 'conflict', detectedBy: 'head', theirs: fresh };
  return saveOverVersion(client, { ...input, base: fresh });
}

/**
 * The write of a save over `input.base`, a version read just now: the completeness check, the conditional
 * copy and the read-back. One more HEAD only when the version was read within the second of its own
 * Last-Modified (readInLastModifiedSecond), where the copy's condition alone could miss a write.
 * editObjectMetadata is its HEAD and this; bulk jobs call the two halves themselves, since a job stores
 * its "about to write" record (the version read) between the read and the write.
 */
export async function saveOverVersion(client: QsClient, input: SaveInput): Promise<SaveResult> {
  const written = await writeOverVersion(client, input);
  if (written.kind === 'conflict') return written;
  const { ref, base: fresh, signal } = input;
  const after = await headObjectReadable(client, ref, signal ? { signal } : {});
  if (!holdsWhatWasSent(fresh, written.sent, after)) return { kind: 'conflict', detectedBy: 'verify', theirs: after };
  return { kind: 'saved', before: fresh, after, requestId: written.requestId, guard: written.guard };
}

/** A copy that landed: the full set it sent, its ETag and request id, the guard it was conditional on. */
export interface Written {
  kind: 'written';
  sent: ObjectMetadata;
  etag: string;
  requestId: string;
  guard: VersionGuard;
}

/** Another writer changed the object after it was read: seen by the second read or by the copy's condition. */
export interface WriteConflict {
  kind: 'conflict';
  detectedBy: 'head' | 'precondition';
  theirs: ObjectHead;
}

/**
 * saveOverVersion without the read-back: the same checks, the same conditional copy (with the extra HEAD of
 * a version read within its own Last-Modified second). For bulk jobs, which check what they wrote many
 * objects at a time from the listing instead of one HEAD per object.
 */
export async function writeOverVersion(client: QsClient, input: SaveInput): Promise<Written | WriteConflict> {
  const { ref, base: fresh, edits, signal } = input;
  const options = signal ? { signal } : {};
  const block = saveBlock(input.visibility, fresh, input.acknowledgedHiddenCustom ?? false, input.largeCopy?.copyLimit ?? copyLimitOf(client.connection));
  if (block) throw new SaveBlockedError(block);

  // The full set: every header and key of the current version, with the edits merged in.
  const headers = replaceRequestHeaders(fresh.metadata, edits);
  const merged = metadataFromEntries(Object.entries(headers));
  const guard = versionGuard(fresh);
  const ambiguous = guard.kind === 'last-modified' && readInLastModifiedSecond(client, fresh);
  await waitPastLastModified(client, fresh, signal);
  if (ambiguous) {
    const again = await headObjectReadable(client, ref, options);
    if (!sameVersion(fresh, again)) return { kind: 'conflict', detectedBy: 'head', theirs: again };
  }
  try {
    const result = await copyOntoItself(
      client,
      { ...ref, source: { bucket: ref.bucket, key: ref.key }, directive: 'REPLACE', metadata: merged, conditions: guardConditions(guard), version: fresh },
      input.largeCopy,
      options,
    );
    return { kind: 'written', sent: merged, etag: result.etag, requestId: result.requestId, guard };
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      return { kind: 'conflict', detectedBy: 'precondition', theirs: await headObjectReadable(client, ref, options) };
    }
    throw error;
  }
}

/** The outcome of editObjectMetadata: the save's, or `unchanged` when the edits change nothing on this object. */
export type ObjectEditResult = SaveResult | { kind: 'unchanged'; head: ObjectHead };

export interface ObjectEditOptions {
  signal?: AbortSignal;
  /** Copy limit, part size and progress for objects above the copy limit; default the connection's. */
  largeCopy?: LargeCopyOptions;
}

/**
 * Edits one object's metadata, as safely as the single editor saves: HEAD, merge `edits` into what that
 * HEAD read, the conditional REPLACE copy, the read-back HEAD. Three requests (a fourth only when the object
 * had been written within the second before it was read), never a second read before the copy. For bulk
 * edits: the same edits applied to many objects, each merged with its own metadata.
 *
 * Resolves `unchanged` (nothing written) when the edits change nothing on this object, `saved`, or
 * `conflict` when another writer changed the object between the read and the copy (nothing of theirs is
 * overwritten). Throws SaveBlockedError when `visibility` hides a header the save would have to resend (the
 * page cannot vouch for hidden custom keys object by object, so they block too), MetadataEditError when
 * the merged set breaks a metadata rule, ApiError/NetworkError for other failures.
 */
export async function editObjectMetadata(
  client: QsClient,
  ref: ObjectRef,
  edits: MetadataEdits,
  visibility: HeaderVisibility,
  options: ObjectEditOptions = {},
): Promise<ObjectEditResult> {
  const head = await headObjectReadable(client, ref, options.signal ? { signal: options.signal } : {});
  if (diffMetadata(head.metadata, applyMetadataEdits(head.metadata, edits)).length === 0) return { kind: 'unchanged', head };
  return saveOverVersion(client, {
    ref,
    base: head,
    edits,
    visibility,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.largeCopy ? { largeCopy: options.largeCopy } : {}),
  });
}
