/**
 * The metadata rules as plain functions: what a key and a value may hold and how many bytes they count
 * (reference §6), the one source of truth for the checker below and for the zod schemas in schemas.ts.
 */
import { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES } from '../protocol/limits.ts';
import type { MetadataViolation } from './types.ts';

// ---------------------------------------------------------------------------------------------------
// Predicates and byte counters (the single source of truth for the checker AND the zod schemas)

const KEY_PATTERN = /^[A-Za-z0-9._-]+$/;
const PRINTABLE_ASCII_PATTERN = /^[\x20-\x7e]*$/;

/** True when every character is printable ASCII, code points 32..126 inclusive (ref §6). Empty is true. */
export function isPrintableAscii(value: string): boolean {
  return PRINTABLE_ASCII_PATTERN.test(value);
}

/**
 * True when a value starts or ends with a space or tab. HTTP strips such whitespace from header values
 * (fetch's Headers does it too), so the server would silently store a different value; encode it
 * (encodeMetadataValue) or trim it.
 */
export function hasSurroundingWhitespace(value: string): boolean {
  return /^[ \t]|[ \t]$/.test(value);
}

export function surroundingWhitespaceViolation(key: string, what: string): MetadataViolation {
  return {
    code: 'invalid_argument',
    rule: 'value_surrounding_whitespace',
    key,
    message: `The value of ${what} starts or ends with whitespace, which HTTP would strip; trim or encode it.`,
  };
}

/** The console-side rules on top of ref §6, for one custom entry (see MetadataRule). */
export function customValueSendViolation(key: string, value: string): MetadataViolation | null {
  return hasSurroundingWhitespace(value) ? surroundingWhitespaceViolation(key, `metadata key "${key}"`) : null;
}

/** True when a custom key (without prefix) uses only A-Z a-z 0-9 '-' '_' '.' and is not empty (ref §6). */
export function isValidMetadataKeyCharset(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * UTF-8 byte length of a JS string. Lone surrogates count 3 bytes (they would go out as U+FFFD).
 * For legal keys and values (pure ASCII) this equals `.length`; for illegal ones it is what a browser
 * would put on the wire, which is the honest number to show next to an error.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes a key (given WITHOUT the `x-qs-meta-` prefix) counts toward the 512-byte limit and the total. */
export function metadataKeyBytes(key: string): number {
  return utf8ByteLength(key);
}

/** Bytes one entry counts toward the 2 KB total: len(key without prefix) + len(value). */
export function metadataEntryBytes(key: string, value: string): number {
  return metadataKeyBytes(key) + utf8ByteLength(value);
}

/** Σ(len(key) + len(value)) over all custom entries (ref §6). */
export function customMetadataTotalBytes(custom: Record<string, string>): number {
  let total = 0;
  for (const [key, value] of Object.entries(custom)) total += metadataEntryBytes(key, value);
  return total;
}

/** Per-entry violations, in the fixed order key_empty → key_charset → key_too_long → value_not_printable. */
export function entryViolations(key: string, value: string): MetadataViolation[] {
  const found: MetadataViolation[] = [];
  if (key === '') {
    found.push({
      code: 'invalid_argument',
      rule: 'key_empty',
      key,
      message: 'A metadata key must not be empty.',
    });
  } else if (!isValidMetadataKeyCharset(key)) {
    found.push({
      code: 'invalid_argument',
      rule: 'key_charset',
      key,
      message: `Metadata key "${key}" may contain only ASCII letters, digits, "-", "_" and ".".`,
    });
  }
  const keyBytes = metadataKeyBytes(key);
  if (keyBytes > METADATA_KEY_MAX_BYTES) {
    found.push({
      code: 'metadata_too_large',
      rule: 'key_too_long',
      key,
      bytes: keyBytes,
      limit: METADATA_KEY_MAX_BYTES,
      message: `Metadata key is ${keyBytes} bytes long; at most ${METADATA_KEY_MAX_BYTES} bytes are allowed.`,
    });
  }
  if (!isPrintableAscii(value)) {
    found.push({
      code: 'invalid_argument',
      rule: 'value_not_printable',
      key,
      message:
        `The value of metadata key "${key}" contains characters outside printable ASCII (32–126); ` +
        'encode it (RFC 2047 or percent-encoding) first.',
    });
  }
  return found;
}

export function totalViolation(total: number): MetadataViolation | null {
  if (total <= METADATA_TOTAL_MAX_BYTES) return null;
  return {
    code: 'metadata_too_large',
    rule: 'total_too_large',
    bytes: total,
    limit: METADATA_TOTAL_MAX_BYTES,
    message: `Custom metadata totals ${total} bytes (keys plus values); at most ${METADATA_TOTAL_MAX_BYTES} bytes are allowed.`,
  };
}

/**
 * Every violation of ref §6 in `custom` (keys without prefix): per entry in iteration order, then the
 * total. Empty array = valid. Use this to show all problems at once; the server reports only one.
 */
export function listCustomMetadataViolations(custom: Record<string, string>): MetadataViolation[] {
  const found: MetadataViolation[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(custom)) {
    found.push(...entryViolations(key, value));
    total += metadataEntryBytes(key, value);
  }
  const overTotal = totalViolation(total);
  if (overTotal) found.push(overTotal);
  return found;
}

/**
 * The first violation (what the mock answers with) or null. Order: entries in iteration order (the mock
 * passes them sorted by name, as `Headers` iterates), each key_empty → key_charset → key_too_long →
 * value_not_printable; then the 2 KB total. Which error real QingStor reports first when a request
 * breaks several rules is undocumented; this order is our choice.
 */
export function checkCustomMetadata(custom: Record<string, string>): MetadataViolation | null {
  return listCustomMetadataViolations(custom)[0] ?? null;
}
