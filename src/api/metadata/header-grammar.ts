/**
 * The HTTP grammar of the standard headers a REPLACE save resends (RFC 9110 §5.6 for tokens, lists and
 * quoted strings; §8.4 Content-Encoding, §8.3 Content-Type, RFC 9111 §5.2 Cache-Control, RFC 6266
 * Content-Disposition). QingStor stores these values verbatim, but a browser refuses an object whose
 * Content-Encoding it cannot parse (Chromium fails every request: ERR_CONTENT_DECODING_FAILED), so the
 * console checks what the user types before a save. Each checker returns null when the value is well
 * formed, otherwise a short English reason (the UI shows its own translated text by rule).
 */

const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]";
const TOKEN = `${TCHAR}+`;
// qdtext (HTAB, SP, 0x21, 0x23-0x5B, 0x5D-0x7E) or a quoted-pair.
const QUOTED_STRING = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x21-\\x7e])*"';
const OWS = '[ \\t]*';
const PARAMETER = `${TOKEN}=(?:${TOKEN}|${QUOTED_STRING})`;

const TOKEN_LIST = new RegExp(`^${TOKEN}(?:${OWS},${OWS}${TOKEN})*$`);
const CACHE_DIRECTIVE = `${TOKEN}(?:=(?:${TOKEN}|${QUOTED_STRING}))?`;
const CACHE_CONTROL = new RegExp(`^${CACHE_DIRECTIVE}(?:${OWS},${OWS}${CACHE_DIRECTIVE})*$`);
// RFC 9110 §5.6.6 allows empty parameters ("text/plain;").
const PARAMETERS = `(?:${OWS};${OWS}(?:${PARAMETER})?)*`;
const CONTENT_DISPOSITION = new RegExp(`^${TOKEN}${PARAMETERS}$`);
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}${PARAMETERS}$`);

/** Content-Encoding: a comma-separated list of codings, each a token ("gzip", "br, gzip"). */
export function contentEncodingProblem(value: string): string | null {
  return TOKEN_LIST.test(value) ? null : 'Content-Encoding must be a list of content codings such as "gzip" or "br, gzip" (no spaces or quotes inside a coding).';
}

/** Cache-Control: directives separated by commas, each a token with an optional =token or ="quoted". */
export function cacheControlProblem(value: string): string | null {
  return CACHE_CONTROL.test(value) ? null : 'Cache-Control must be directives separated by commas, such as "public, max-age=3600".';
}

/** Content-Disposition: a type token, then ;-separated name=value parameters (filename*= included). */
export function contentDispositionProblem(value: string): string | null {
  return CONTENT_DISPOSITION.test(value)
    ? null
    : 'Content-Disposition must be a type such as "inline" or "attachment", optionally followed by parameters such as ; filename="report.pdf".';
}

/** Content-Type: type "/" subtype, then ;-separated parameters. */
export function contentTypeProblem(value: string): string | null {
  return CONTENT_TYPE.test(value) ? null : 'Content-Type must be a media type such as "text/plain" or "text/html; charset=utf-8".';
}
