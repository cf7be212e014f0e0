import { unquoteEtag } from '../../../api/protocol/etag.ts';

/**
 * A form upload (PostObject) whose stored object is not the file: the service's ETag of a single-request
 * upload is the MD5 of the bytes it received (ref §7), so it must equal the file's MD5. `received` is ''
 * when the answer did not show an ETag (a CORS rule that does not expose it), so nothing could be checked.
 */
export class IntegrityError extends Error {
  readonly code = 'corrupted_in_transit';
  /** MD5 (hex) of the local file. */
  readonly expected: string;
  /** The ETag the service answered, unquoted; '' when none was readable. */
  readonly received: string;
  constructor(expected: string, received: string) {
    super(
      received === ''
        ? `The upload could not be verified: the answer showed no ETag to compare with the file's MD5 ${expected}`
        : `Corrupted in transit: the stored object's ETag ${received} is not the file's MD5 ${expected}`,
    );
    this.name = 'IntegrityError';
    this.expected = expected;
    this.received = received;
  }
}

/** Throws IntegrityError unless `etag` (quoted or not, any case) is `md5Hex`. */
export function verifyEtag(md5Hex: string, etag: string): void {
  const received = unquoteEtag(etag).toLowerCase();
  if (received !== md5Hex.toLowerCase()) throw new IntegrityError(md5Hex.toLowerCase(), received);
}
