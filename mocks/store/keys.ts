import { MAX_KEY_BYTES } from '../../src/api/protocol/limits.ts';
import { QsError } from '../errors.ts';

/** Key order (ref §9.5) is a protocol fact the console's parallel count relies on too: one definition. */
export { compareKeys } from '../../src/api/protocol/key-order.ts';

/** UTF-8 length of a well-formed string, without allocating. */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++; // low surrogate of the pair
    } else bytes += 3;
  }
  return bytes;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** Keys: 1–1023 bytes of UTF-8 (ref §1.3, §11.15); a lone surrogate has no UTF-8 form. */
export function checkObjectKey(key: string): void {
  if (key.length === 0) throw new QsError('invalid_object_name', 'The object key must not be empty.');
  if (key.length > MAX_KEY_BYTES || utf8ByteLength(key) > MAX_KEY_BYTES) {
    // a string longer than MAX_KEY_BYTES code units is always longer than MAX_KEY_BYTES UTF-8 bytes
    throw new QsError('invalid_object_name', `The object key must be at most ${MAX_KEY_BYTES} bytes of UTF-8.`);
  }
  if (LONE_SURROGATE.test(key)) throw new QsError('invalid_object_name', 'The object key is not valid UTF-8.');
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{4,61}[a-z0-9]$/;

/**
 * Bucket names (ref §1.3): 6–63 characters of lower-case letters, digits and '-', starting and
 * ending with a letter or digit. Dots are not allowed at all, so no name can look like an IP address.
 */
export function isValidBucketName(name: string): boolean {
  return BUCKET_NAME.test(name);
}

export function checkBucketName(name: string): void {
  if (!isValidBucketName(name)) throw new QsError('invalid_bucket_name');
}
