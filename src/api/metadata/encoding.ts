/**
 * Codecs for metadata values that are not printable ASCII. QingStor stores `x-qs-meta-*` values only as
 * printable ASCII (code points 32..126) and leaves encoding to the client, suggesting RFC 2047
 * encoded-words or percent-encoding (ref §6). The console writes values in one of those forms and reads
 * back whatever another client stored (the JS SDK, for instance, sends values `encodeURI`d, ref §6).
 *
 * Every encoder here returns printable ASCII only, so its output always passes the value rule of
 * model.ts. Input strings with lone surrogates are encoded as U+FFFD (they have no UTF-8 form).
 */
import { isPrintableAscii } from './rules.ts';

export { isPrintableAscii };

export type MetadataValueEncoding = 'rfc2047-b' | 'rfc2047-q' | 'percent' | 'plain';

export interface DecodedMetadataValue {
  /** The value as a user should read it. */
  text: string;
  /** The form the stored value was recognised in ('plain' = shown as stored). */
  encoding: MetadataValueEncoding;
}

const utf8Encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';

function hexByte(byte: number): string {
  return HEX.charAt(byte >> 4) + HEX.charAt(byte & 0x0f);
}

/** Decodes bytes in `charset` strictly: null for an unknown charset or bytes invalid in it. */
function decodeBytes(bytes: Uint8Array, charset: string): string | null {
  try {
    return new TextDecoder(charset, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Percent-encoding

// encodeURIComponent's unreserved set; everything else (including all non-ASCII) becomes %XX.
const PERCENT_UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]$/;

/**
 * UTF-8 percent-encoding in the style of `encodeURIComponent` (same unreserved set, upper-case hex).
 * Unlike `encodeURIComponent` it never throws: a lone surrogate becomes %EF%BF%BD (U+FFFD).
 */
export function encodePercent(text: string): string {
  let out = '';
  for (const ch of text) {
    if (PERCENT_UNRESERVED.test(ch)) {
      out += ch;
    } else {
      for (const byte of utf8Encoder.encode(ch)) out += `%${hexByte(byte)}`;
    }
  }
  return out;
}

/**
 * Reverses percent-encoding of UTF-8 text. Returns null when the value is not well-formed: a character
 * outside printable ASCII, a '%' not followed by two hex digits, or bytes that are not UTF-8. '+' stays
 * '+' (this is not form encoding).
 */
export function decodePercent(value: string): string | null {
  if (!isPrintableAscii(value)) return null;
  const bytes = new Uint8Array(value.length);
  let length = 0;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code === 0x25 /* % */) {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes[length] = Number.parseInt(hex, 16);
      i += 2;
    } else {
      bytes[length] = code;
    }
    length += 1;
  }
  return decodeBytes(bytes.subarray(0, length), 'utf-8');
}

// ---------------------------------------------------------------------------------------------------
// RFC 2047 encoded-words

export type Rfc2047Mode = 'B' | 'Q';

// RFC 2047 §2: an encoded-word is at most 75 characters; §5: each word holds whole characters.
const MAX_ENCODED_WORD_LENGTH = 75;
const WORD_OVERHEAD = '=?UTF-8?B??='.length;
const MAX_ENCODED_TEXT_LENGTH = MAX_ENCODED_WORD_LENGTH - WORD_OVERHEAD;
// Base64 turns each 3 bytes into 4 characters; 63 characters hold 15 groups = 45 bytes.
const MAX_B_BYTES_PER_WORD = Math.floor(MAX_ENCODED_TEXT_LENGTH / 4) * 3;

// Q literal set: the strictest one RFC 2047 §5(3) allows anywhere (letters, digits, ! * + - /);
// space is written as '_', everything else as =XX.
const Q_LITERAL = /^[A-Za-z0-9!*+\-/]$/;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function qEncodeChar(ch: string): string {
  if (ch === ' ') return '_';
  if (Q_LITERAL.test(ch)) return ch;
  let out = '';
  for (const byte of utf8Encoder.encode(ch)) out += `=${hexByte(byte)}`;
  return out;
}

/**
 * Encodes text as UTF-8 RFC 2047 encoded-words (`=?UTF-8?B?...?=` or `=?UTF-8?Q?...?=`). Text that does
 * not fit one 75-character word is split between code points into several words separated by a single
 * space, which decoders drop (RFC 2047 §6.2). Empty text gives ''.
 */
export function encodeRfc2047(text: string, mode: Rfc2047Mode): string {
  const words: string[] = [];
  if (mode === 'B') {
    let pending: number[] = [];
    const flush = () => {
      if (pending.length > 0) words.push(`=?UTF-8?B?${bytesToBase64(Uint8Array.from(pending))}?=`);
      pending = [];
    };
    for (const ch of text) {
      const bytes = utf8Encoder.encode(ch);
      if (pending.length + bytes.length > MAX_B_BYTES_PER_WORD) flush();
      pending.push(...bytes);
    }
    flush();
  } else {
    let pending = '';
    for (const ch of text) {
      const encoded = qEncodeChar(ch);
      if (pending.length + encoded.length > MAX_ENCODED_TEXT_LENGTH) {
        words.push(`=?UTF-8?Q?${pending}?=`);
        pending = '';
      }
      pending += encoded;
    }
    if (pending !== '') words.push(`=?UTF-8?Q?${pending}?=`);
  }
  return words.join(' ');
}

export const encodeRfc2047B = (text: string): string => encodeRfc2047(text, 'B');
export const encodeRfc2047Q = (text: string): string => encodeRfc2047(text, 'Q');

function base64ToBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function qToBytes(text: string): Uint8Array | null {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    if (ch === '_') bytes.push(0x20);
    else if (ch === '=') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      const code = ch.charCodeAt(0);
      if (code < 0x21 || code > 0x7e) return null;
      bytes.push(code);
    }
  }
  return Uint8Array.from(bytes);
}

// charset (optionally with an RFC 2231 "*language" suffix), B or Q in either case, encoded-text.
const ENCODED_WORD = /=\?([^?*\s]+)(?:\*[^?\s]*)?\?([BbQq])\?([^?\s]*)\?=/g;

interface WordBytes {
  start: number;
  end: number;
  raw: string;
  charset: string;
  mode: 'rfc2047-b' | 'rfc2047-q';
  bytes: Uint8Array;
}

/**
 * Decodes every RFC 2047 encoded-word in `value` (any charset the platform's TextDecoder knows; charset
 * and B/Q letters case-insensitive). Whitespace between adjacent encoded-words is dropped (RFC 2047
 * §6.2); other text is kept. Adjacent words in the same charset are joined at the byte level first, so
 * a character split across words by a careless encoder still decodes. Words that cannot be decoded are
 * left as they are. Returns null when no word could be decoded; `encoding` is the form of the first one.
 */
export function decodeRfc2047(value: string): DecodedMetadataValue | null {
  const words: WordBytes[] = [];
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [raw, charset = '', letter = '', encodedText = ''] = match;
    const isB = letter.toUpperCase() === 'B';
    const bytes = isB ? base64ToBytes(encodedText) : qToBytes(encodedText);
    if (bytes === null) continue;
    words.push({
      start: match.index,
      end: match.index + raw.length,
      raw,
      charset: charset.toLowerCase(),
      mode: isB ? 'rfc2047-b' : 'rfc2047-q',
      bytes,
    });
  }
  if (words.length === 0) return null;

  let text = '';
  let firstMode: DecodedMetadataValue['encoding'] | null = null;
  let cursor = 0;
  let previousRunDecoded = false;
  let i = 0;
  while (i < words.length) {
    const first = words[i]!;
    // A run: following words in the same charset separated only by whitespace.
    let j = i + 1;
    while (j < words.length) {
      const previous = words[j - 1]!;
      const next = words[j]!;
      if (next.charset !== first.charset || !/^[ \t\r\n]*$/.test(value.slice(previous.end, next.start))) break;
      j += 1;
    }
    const run = words.slice(i, j);
    const last = run[run.length - 1]!;
    const joined = new Uint8Array(run.reduce((n, w) => n + w.bytes.length, 0));
    let offset = 0;
    for (const w of run) {
      joined.set(w.bytes, offset);
      offset += w.bytes.length;
    }
    const decoded = decodeBytes(joined, first.charset);
    const gap = value.slice(cursor, first.start);
    // Whitespace between two decoded encoded-words is dropped (RFC 2047 §6.2); other text is kept.
    const dropGap = decoded !== null && previousRunDecoded && /^[ \t\r\n]+$/.test(gap);
    if (!dropGap) text += gap;
    if (decoded === null) {
      text += value.slice(first.start, last.end);
    } else {
      text += decoded;
      firstMode ??= first.mode;
    }
    previousRunDecoded = decoded !== null;
    cursor = last.end;
    i = j;
  }
  text += value.slice(cursor);
  return firstMode === null ? null : { text, encoding: firstMode };
}

// ---------------------------------------------------------------------------------------------------
// Detection for display, and the encoder the console uses when saving

const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/**
 * Recognises the form of a stored value and decodes it for display: RFC 2047 encoded-words first, then
 * percent-encoding (only when the value holds at least one %XX escape and decodes to valid UTF-8), else
 * 'plain' (returned as stored). The forms are ambiguous by nature: a plain value such as "100%25" reads
 * as percent-encoded "100%"; `encodeMetadataValue` avoids writing such values plain.
 */
export function decodeMetadataValue(value: string): DecodedMetadataValue {
  const rfc2047 = decodeRfc2047(value);
  if (rfc2047) return rfc2047;
  if (isPrintableAscii(value) && PERCENT_ESCAPE.test(value)) {
    const text = decodePercent(value);
    if (text !== null) return { text, encoding: 'percent' };
  }
  return { text: value, encoding: 'plain' };
}

/**
 * The value to store for `text`: unchanged when it is printable ASCII that would read back the same
 * (no surrounding whitespace, which HTTP strips, and nothing that looks encoded); otherwise encoded in
 * `form`. Guarantees: the result is printable ASCII, and `decodeMetadataValue(result).text === text`
 * for every well-formed string.
 */
export function encodeMetadataValue(
  text: string,
  form: Exclude<MetadataValueEncoding, 'plain'> = 'percent',
): string {
  const plainIsSafe =
    isPrintableAscii(text) && text.trim() === text && decodeMetadataValue(text).encoding === 'plain';
  if (plainIsSafe) return text;
  switch (form) {
    case 'rfc2047-b':
      return encodeRfc2047(text, 'B');
    case 'rfc2047-q':
      return encodeRfc2047(text, 'Q');
    case 'percent':
      return encodePercent(text);
  }
}
