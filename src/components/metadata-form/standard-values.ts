/**
 * What the standard-header fields offer beside typing (standard-field.tsx), free of React: a
 * Content-Disposition built from a file name, an Expires date from a date picker, and the common choices
 * for Content-Type and Cache-Control.
 */

// ---------------------------------------------------------------------------------------------------
// Helpers for the standard fields

// RFC 5987 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
function encodeRfc5987(text: string): string {
  const bytes = new TextEncoder().encode(text.replace(/[\uD800-\uDFFF]/g, (ch, i: number, s: string) => {
    const code = ch.charCodeAt(0);
    const next = s.charCodeAt(i + 1);
    const prev = s.charCodeAt(i - 1);
    const paired = (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) || (code >= 0xdc00 && prev >= 0xd800 && prev <= 0xdbff);
    return paired ? ch : '\uFFFD';
  }));
  let out = '';
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9!#$&+\-.^_`|~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Content-Disposition for a file name (RFC 6266): an ASCII fallback in `filename` (anything outside
 * printable ASCII, and quotes/backslashes, become '_') plus the exact name as UTF-8 in `filename*`.
 */
export function contentDispositionFor(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

/** A `datetime-local` input value (local time, 'YYYY-MM-DDTHH:mm[:ss]') → HTTP date, or null. */
export function httpDateFromLocalInput(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// ---------------------------------------------------------------------------------------------------
// Choices the standard-header helpers offer

export const COMMON_CONTENT_TYPES: readonly string[] = [
  'text/plain; charset=utf-8',
  'text/html; charset=utf-8',
  'text/css; charset=utf-8',
  'text/csv; charset=utf-8',
  'text/markdown; charset=utf-8',
  'application/json',
  'application/javascript',
  'application/xml',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/octet-stream',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'audio/mpeg',
  'video/mp4',
  'font/woff2',
];

export const CACHE_CONTROL_PRESETS: readonly string[] = [
  'no-cache',
  'no-store',
  'private, max-age=0',
  'public, max-age=3600',
  'public, max-age=86400',
  'public, max-age=31536000, immutable',
];
