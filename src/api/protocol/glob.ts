/**
 * `*` matches any run of characters (also none); every other character matches itself. The one wildcard
 * QingStor's patterns use: CORS allowed origins and headers, bucket policy resources and Referers.
 * Case-sensitive; callers fold case where the thing compared is case-insensitive (origins, header names).
 */
export function globMatch(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  let pos = first.length;
  const limit = value.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = value.indexOf(middle, pos);
    if (found < 0 || found + middle.length > limit) return false;
    pos = found + middle.length;
  }
  return true;
}
