import { MAX_KEY_BYTES } from '../../src/api/protocol/limits.ts';
import { QsError } from '../errors.ts';

/**
 * Orders strings by Unicode code point, which equals UTF-8 byte order (the mock's listing order,
 * ref §9.5). JS `<` compares UTF-16 code units, which puts astral characters (surrogate pairs,
 * D800–DFFF) BEFORE U+E000..U+FFFF; byte order puts them after. Only that case needs fixing, so the
 * loop compares code units and remaps the two ranges when the first difference involves them.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // surrogates move above U+FFFF's neighbourhood; E000..FFFF move down into the gap
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

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
