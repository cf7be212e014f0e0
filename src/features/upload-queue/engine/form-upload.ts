import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import { MAX_KEY_BYTES } from '../../../api/protocol/limits.ts';
import { etagIsMd5, IntegrityError } from './integrity.ts';
import type { Clock, Destination, TransferProgressEvent, UploadPorts } from './ports.ts';
import { withRetry, type RetryPolicy } from './retry.ts';

/**
 * A form upload (PostObject, ref §7) that leaves nothing wrong in the bucket. The form has no Content-MD5
 * field, so the service stores whatever bytes arrive; their MD5 (the ETag it answers) is the only check, and
 * it comes after the fact. So the bytes go where a failed check costs nothing:
 *
 * - a key that may hold an object (it did when the batch was checked, or it was not checked): the file is
 *   posted to a staging key beside it (same folder, so a policy scoped to the folder allows both), then moved
 *   onto the key only while the staged object's ETag is the file's MD5 (`x-qs-move-source-if-match`,
 *   ref §5.3). The server makes that last check itself, even when the browser cannot read the ETag, and the
 *   key is written once, with the file's bytes, or not at all: the version it held stays, whoever else
 *   writes meanwhile. A failed check deletes the staging key.
 * - a key that was free: the file is posted to it, one request as before. A failed check moves the changed
 *   copy away only while it is still the one posted (if-match its ETag: an object another writer put there
 *   since is never touched) and deletes it, so the key holds nothing again.
 */

export interface FormUploadDeps {
  ports: UploadPorts;
  retry: RetryPolicy;
  clock: Clock;
  random: () => number;
}

export interface FormUploadInput extends Destination {
  file: File;
  metadata: ObjectMetadata | undefined;
  /** No object had this key when the batch was checked. */
  keyFree: boolean;
  /** The file's MD5 (hex), hashed while the bytes travel. */
  md5: Promise<string>;
  signal: AbortSignal;
  onProgress: (progress: TransferProgressEvent) => void;
  /** A failed attempt of the post will be retried (its progress starts again). */
  onRetry: () => void;
}

/** Bytes a staging name adds to its folder: "." + 16 hex + ".uploading". */
export const STAGING_OVERHEAD_BYTES = 27;

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

/** `docs/.report.pdf.<id>.uploading` beside `docs/report.pdf`; without the name when that would be too long. */
export function stagingKeyFor(key: string, id: string): string {
  const slash = key.lastIndexOf('/');
  const folder = key.slice(0, slash + 1);
  const named = `${folder}.${key.slice(slash + 1)}.${id}.uploading`;
  return utf8Bytes(named) <= MAX_KEY_BYTES ? named : `${folder}.${id}.uploading`;
}

function stagingId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Resolves with the quoted ETag of the object stored under the key; IntegrityError when the bytes changed. */
export async function uploadByForm(deps: FormUploadDeps, input: FormUploadInput): Promise<string> {
  const { ports } = deps;
  const destination: Destination = { bucket: input.bucket, ...(input.zone === undefined ? {} : { zone: input.zone }), key: input.key };
  const retrying = (signal: AbortSignal, onRetry?: () => void) => ({ policy: deps.retry, clock: deps.clock, random: deps.random, signal, ...(onRetry ? { onRetry } : {}) });
  const staging = input.keyFree ? null : stagingKeyFor(input.key, stagingId());
  const posted = { ...destination, key: staging ?? input.key };
  let moved = false;
  try {
    const result = await withRetry(retrying(input.signal, input.onRetry), () =>
      ports.postObject({ ...posted, file: input.file, filename: input.file.name, ...(input.metadata ? { metadata: input.metadata } : {}), onProgress: input.onProgress }, input.signal),
    );
    const expected = (await input.md5).toLowerCase();
    const received = result.etag === '' ? '' : result.etag.replace(/"/g, '').toLowerCase();
    if (staging === null) {
      if (received === '') throw new IntegrityError(expected, '', 'unverified');
      if (received !== expected) throw await removeChangedCopy(deps, destination, expected, received);
      return result.etag;
    }
    if (received !== '' && received !== expected) throw new IntegrityError(expected, received, 'untouched');
    const outcome = await withRetry(retrying(input.signal), () => ports.moveObject({ ...destination, sourceKey: staging, ifMatch: `"${expected}"` }, input.signal));
    if (outcome === 'preconditionFailed') throw new IntegrityError(expected, received, 'untouched');
    if (outcome === 'sourceMissing') {
      // A move that reached the server while its answer was lost looks like this on the retry.
      const now = await ports.headObject(destination, input.signal);
      if (now?.etag === undefined || !etagIsMd5(now.etag, expected)) throw new Error(`The staged upload ${staging} disappeared before it could be moved to ${input.key}`);
    }
    moved = true;
    return `"${expected}"`;
  } finally {
    // Whatever happened (a failed check, a cancel, an error), the staging key is not left behind. Not under
    // the upload's signal: a cancelled upload still cleans up.
    if (staging !== null && !moved) await ports.deleteObject({ ...destination, key: staging }, new AbortController().signal).catch(() => undefined);
  }
}

/**
 * The changed copy posted to a free key: moved away only while it is still that copy, then deleted. The
 * IntegrityError says what the key holds now.
 */
async function removeChangedCopy(deps: FormUploadDeps, destination: Destination, expected: string, received: string): Promise<IntegrityError> {
  const never = new AbortController().signal;
  const aside = stagingKeyFor(destination.key, stagingId());
  try {
    const outcome = await withRetry({ policy: deps.retry, clock: deps.clock, random: deps.random, signal: never }, () =>
      deps.ports.moveObject({ ...destination, key: aside, sourceKey: destination.key, ifMatch: `"${received}"` }, never),
    );
    if (outcome === 'preconditionFailed') return new IntegrityError(expected, received, 'replacedSince');
    if (outcome === 'sourceMissing') return new IntegrityError(expected, received, 'removed');
    await withRetry({ policy: deps.retry, clock: deps.clock, random: deps.random, signal: never }, () => deps.ports.deleteObject({ ...destination, key: aside }, never));
    return new IntegrityError(expected, received, 'removed');
  } catch (error) {
    return new IntegrityError(expected, received, 'left', error);
  }
}
