/**
 * Text with its invisible characters made visible, for showing stored values and object names:
 * - C0 controls become their Unicode "control picture" (BEL → ␇, TAB → ␉, NUL → ␀), DEL becomes ␡;
 * - bidi controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks LRM, RLM and
 *   ALM) and zero-width characters (U+200B, word joiner, BOM) become their code point, e.g. ⟨U+202E⟩, so a
 *   name like `invoice‮fdp.exe` can never pass for `invoiceexe.pdf`.
 * ZWNJ and ZWJ (U+200C, U+200D) are part of ordinary Persian, Indic and emoji text: they are kept between
 * two letters, marks or pictographs and shown as code points anywhere else.
 * A value with such a character is never shown as nothing or as plain whitespace. Display only: never send
 * the result.
 */
export function visibleText(value: string): string {
  return revealDisguise(showControlPictures(value));
}

function showControlPictures(value: string): string {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return value.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))));
}

const DISGUISE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]|(?<![\p{L}\p{M}\p{Extended_Pictographic}])[\u200c\u200d]|[\u200c\u200d](?![\p{L}\p{M}\p{Extended_Pictographic}])/gu;

/** ⟨U+202E⟩ for one character. */
function codePoint(c: string): string {
  return `\u27e8U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}\u27e9`;
}

/**
 * Only the bidi and zero-width characters made visible (see visibleText); line breaks and tabs stay, for
 * showing a file's text.
 */
export function revealDisguise(value: string): string {
  return value.replace(DISGUISE, codePoint);
}

/** True when `value` holds a character visibleText would replace. */
export function hasInvisible(value: string): boolean {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return /[\u0000-\u001f\u007f]/.test(value) || new RegExp(DISGUISE.source, 'u').test(value);
}
