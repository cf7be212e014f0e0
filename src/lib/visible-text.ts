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
  return ANY.test(value) ? value.replace(SHOWN, (c: string, kept: string | undefined) => (kept ?? reveal(c, false))) : value;
}

/**
 * The same rule for a file's text: line breaks (LF, CR) and tabs stay as they are.
 */
export function revealDisguise(value: string): string {
  return ANY.test(value) ? value.replace(SHOWN, (c: string, kept: string | undefined) => (kept ?? reveal(c, true))) : value;
}

/** True when `value` holds a character visibleText would replace. */
export function hasInvisible(value: string): boolean {
  return visibleText(value) !== value;
}

/** True when `text` (a page's text, with its line breaks and tabs) holds a character shown raw against the rule. */
export function hasHiddenCharacters(text: string): boolean {
  return revealDisguise(text) !== text;
}

const HIDDEN = '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{DI}]';
/** A letter or mark of a script that joins: none of Latin, Greek, Cyrillic, Armenian, Georgian and the CJK scripts. */
const JOINING = '(?![\\p{sc=Latn}\\p{sc=Grek}\\p{sc=Cyrl}\\p{sc=Armn}\\p{sc=Geor}\\p{sc=Hani}\\p{sc=Hira}\\p{sc=Kana}\\p{sc=Hang}\\p{sc=Bopo}])[\\p{L}\\p{M}]';
/** Sequences that keep their invisible characters (see visibleText), tried before a character is shown. */
const KEPT = [
  // Prepended concatenation marks: format characters with a glyph.
  '[\\u0600-\\u0605\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u{110bd}\\u{110cd}]',
  // England, Scotland, Wales: 🏴 + tag letters + cancel tag.
  '\\u{1f3f4}\\u{e0067}\\u{e0062}(?:\\u{e0065}\\u{e006e}\\u{e0067}|\\u{e0073}\\u{e0063}\\u{e0074}|\\u{e0077}\\u{e006c}\\u{e0073})\\u{e007f}',
  // An emoji with its presentation selector; a keycap.
  '\\p{ExtPict}[\\ufe0e\\ufe0f]',
  '[0-9#*]\\ufe0f\\u20e3',
  // ZWJ inside an emoji sequence.
  '\\u200d(?<=[\\p{ExtPict}\\p{EMod}\\ufe0f]\\u200d)(?=\\p{ExtPict})',
  // ZWJ and ZWNJ between letters of a joining script.
  `[\\u200c\\u200d](?<=${JOINING}[\\u200c\\u200d])(?=${JOINING})`,
  // Ideographic and Mongolian variation selectors after their script's characters.
  '[\\ufe00-\\ufe0d\\u{e0100}-\\u{e01ef}](?<=\\p{sc=Hani}.)',
  '[\\u180b-\\u180d\\u180f](?<=\\p{sc=Mong}.)',
].join('|');
const ANY = new RegExp(HIDDEN, 'u');
const SHOWN = new RegExp(`(${KEPT})|${HIDDEN}`, 'gu');

/** A hidden character as what shows it: a control picture for C0 and DEL, else its code point (⟨U+202E⟩). */
function reveal(c: string, keepLayout: boolean): string {
  const cp = c.codePointAt(0) ?? 0;
  if (keepLayout && (c === '\n' || c === '\r' || c === '\t')) return c;
  if (cp < 0x20) return String.fromCharCode(0x2400 + cp);
  if (cp === 0x7f) return '\u2421';
  return `\u27e8U+${cp.toString(16).toUpperCase().padStart(4, '0')}\u27e9`;
}
