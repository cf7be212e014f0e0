/**
 * Text with its invisible characters made visible: the one rule for showing stored names (keys, prefixes,
 * buckets, rule prefixes) and values. A name that holds such a character is never shown as nothing, as plain
 * whitespace, or reordered, so `invoice‮fdp.exe` can never pass for `invoiceexe.pdf`.
 *
 * What is made visible (display only: never send the result):
 * - C0 controls become their Unicode "control picture" (BEL → ␇, TAB → ␉, NUL → ␀), DEL becomes ␡;
 * - every other control (C1), format character (Cf: bidi embeddings, overrides, isolates and marks,
 *   zero-width space, word joiner, BOM, soft hyphen, invisible math operators, Mongolian vowel separator,
 *   musical format characters, tag characters), line and paragraph separator (U+2028, U+2029) and
 *   default-ignorable code point (combining grapheme joiner, Hangul fillers, variation selectors) becomes
 *   its code point, e.g. ⟨U+202E⟩.
 * What stays, because ordinary text needs it and it changes how the text looks rather than hiding anything:
 * - ZWJ and ZWNJ between two letters or marks of a script that joins (Arabic, Persian, Indic, …), never
 *   between Latin, Greek, Cyrillic or CJK letters, where they only hide a boundary (`pay‍pal`);
 * - ZWJ inside an emoji sequence (👨‍👩‍👧, 👩🏽‍💻, ❤️‍🔥): after an emoji, a skin tone or VS16 and before an emoji;
 * - the emoji and text variation selectors (U+FE0F, U+FE0E) right after an emoji, or on a keycap (1️⃣);
 * - ideographic variation selectors after a Han character (葛󠄀), Mongolian free variation selectors after
 *   a Mongolian letter;
 * - the tag characters of the three flags Unicode recommends (England, Scotland, Wales); any other tag run
 *   is shown, since a browser draws an unknown one as a bare black flag with the tags hidden;
 * - the prepended concatenation marks (U+0600–U+0605 and kin), which are format characters with a glyph.
 */
export function visibleText(value: string): string {
  return CANDIDATE.test(value) ? value.replace(CANDIDATE_ALL, (c, offset: number, whole: string) => reveal(c, offset, whole, false)) : value;
}

/**
 * The same rule for a file's text: line breaks (LF, CR) and tabs stay as they are.
 */
export function revealDisguise(value: string): string {
  return CANDIDATE.test(value) ? value.replace(CANDIDATE_ALL, (c, offset: number, whole: string) => reveal(c, offset, whole, true)) : value;
}

/** True when `value` holds a character visibleText would replace. */
export function hasInvisible(value: string): boolean {
  return visibleText(value) !== value;
}

/** True when `text` (a page's text, with its line breaks and tabs) holds a character shown raw against the rule. */
export function hasHiddenCharacters(text: string): boolean {
  return revealDisguise(text) !== text;
}

const CANDIDATE_SOURCE = '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}]';
const CANDIDATE = new RegExp(CANDIDATE_SOURCE, 'u');
const CANDIDATE_ALL = new RegExp(CANDIDATE_SOURCE, 'gu');

/** Format characters drawn with a glyph of their own (prepended concatenation marks). */
const VISIBLE_FORMAT = /^[\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}]$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
/** Scripts whose letters never need a joiner: there a ZWJ or ZWNJ only hides a boundary. */
const NON_JOINING_SCRIPT =
  /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const SKIN_TONE = /^\p{Emoji_Modifier}$/u;
const HAN = /^\p{Script=Han}$/u;
const MONGOLIAN = /^\p{Script=Mongolian}$/u;
/** Tag letters after U+1F3F4 of the flags Unicode recommends for general interchange. */
const RECOMMENDED_TAG_FLAGS = new Set(['gbeng', 'gbsct', 'gbwls']);
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

function reveal(c: string, offset: number, whole: string, keepLayout: boolean): string {
  const cp = c.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f) {
    if (keepLayout && (c === '\n' || c === '\r' || c === '\t')) return c;
    return cp === 0x7f ? '\u2421' : String.fromCharCode(0x2400 + cp);
  }
  return kept(cp, c, offset, whole) ? c : codePoint(cp);
}

/** Whether the invisible character `c` at `offset` is part of ordinary text (see visibleText). */
function kept(cp: number, c: string, offset: number, whole: string): boolean {
  if (VISIBLE_FORMAT.test(c)) return true;
  const before = charBefore(whole, offset);
  const after = charAt(whole, offset + c.length);
  if (cp === 0x200d || cp === 0x200c) {
    if (joins(before) && joins(after)) return true;
    return cp === 0x200d && (PICTOGRAPH.test(before) || SKIN_TONE.test(before) || before === '\ufe0f') && PICTOGRAPH.test(after);
  }
  if (cp === 0xfe0f || cp === 0xfe0e) return PICTOGRAPH.test(before) || (/^[0-9#*]$/.test(before) && after === '\u20e3');
  if ((cp >= 0xfe00 && cp <= 0xfe0d) || (cp >= 0xe0100 && cp <= 0xe01ef)) return HAN.test(before);
  if ((cp >= 0x180b && cp <= 0x180d) || cp === 0x180f) return MONGOLIAN.test(before);
  if (cp >= 0xe0020 && cp <= 0xe007f) return inRecommendedFlag(whole, offset);
  return false;
}

function joins(c: string): boolean {
  return LETTER_OR_MARK.test(c) && !NON_JOINING_SCRIPT.test(c);
}

/** Whether the tag character at `offset` belongs to 🏴 + tag letters + cancel tag of a recommended flag. */
function inRecommendedFlag(whole: string, offset: number): boolean {
  // Tag characters are astral: two code units each. A recommended flag has at most 5 letters.
  // Looking at most that far either way keeps a long run of tags linear.
  let start = offset;
  while (start >= 2 && offset - start <= 10 && isTag(whole.codePointAt(start - 2))) start -= 2;
  if (start < 2 || whole.codePointAt(start - 2) !== BLACK_FLAG) return false;
  let end = offset;
  while (end - start <= 10 && isTag(whole.codePointAt(end)) && whole.codePointAt(end) !== CANCEL_TAG) end += 2;
  if (whole.codePointAt(end) !== CANCEL_TAG) return false;
  let letters = '';
  for (let i = start; i < end; i += 2) letters += String.fromCharCode((whole.codePointAt(i) ?? 0) - 0xe0000);
  return RECOMMENDED_TAG_FLAGS.has(letters);
}

function isTag(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 0xe0020 && cp <= 0xe007f;
}

function charAt(value: string, index: number): string {
  const cp = value.codePointAt(index);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

function charBefore(value: string, index: number): string {
  if (index <= 0) return '';
  const low = value.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = value.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return value.slice(index - 2, index);
  }
  return value.slice(index - 1, index);
}

/** ⟨U+202E⟩ for one code point. */
function codePoint(cp: number): string {
  return `\u27e8U+${cp.toString(16).toUpperCase().padStart(4, '0')}\u27e9`;
}
