import { unquoteEtag } from '../../../api/protocol/etag.ts';

/**
 * What the bucket holds after a form upload failed its check (form-upload.ts):
 * - 'untouched': the changed bytes never reached the key (they went to a staging key, removed since), so the
 *   key holds what it held before, or nothing;
 * - 'removed': the changed copy was removed from the key, which held nothing before;
 * - 'replacedSince': another writer has put an object under the key since: it was left as it is;
 * - 'left': the changed copy could not be removed (`cleanupError` says why): the key holds it;
 * - 'unverified': nothing could be checked (no ETag readable), the object was left as stored.
 */
export type IntegrityOutcome = 'untouched' | 'removed' | 'replacedSince' | 'left' | 'unverified';

/**
 * A form upload (PostObject) whose stored bytes are not the file: the service's ETag of a single-request
 * upload is the MD5 of the bytes it received (ref §7), so it must equal the file's MD5. `received` is ''
 * when the answer did not show an ETag (a CORS rule that does not expose it).
 */
export class IntegrityError extends Error {
  readonly code = 'corrupted_in_transit';
  /** MD5 (hex) of the local file. */
  readonly expected: string;
  /** The ETag the service answered, unquoted; '' when none was readable. */
  readonly received: string;
  readonly outcome: IntegrityOutcome;
  readonly cleanupError: unknown;
  constructor(expected: string, received: string, outcome: IntegrityOutcome = received === '' ? 'unverified' : 'left', cleanupError?: unknown) {
    super(
      outcome === 'unverified'
        ? `The upload could not be verified: the answer showed no ETag to compare with the file's MD5 ${expected}`
        : `Corrupted in transit: the ETag of the bytes received${received === '' ? '' : ` (${received})`} is not the file's MD5 ${expected}; ${OUTCOMES[outcome]}`,
    );
    this.name = 'IntegrityError';
    this.expected = expected;
    this.received = received;
    this.outcome = outcome;
    this.cleanupError = cleanupError;
  }
}

const OUTCOMES: Record<Exclude<IntegrityOutcome, 'unverified'>, string> = {
  untouched: 'the key was not written',
  removed: 'the changed copy was removed',
  replacedSince: 'another object was written under the key since and was left as it is',
  left: 'the changed copy could not be removed',
};

/** True when `etag` (quoted or not, any case) is `md5Hex`. */
export function etagIsMd5(etag: string, md5Hex: string): boolean {
  return unquoteEtag(etag).toLowerCase() === md5Hex.toLowerCase();
}
