/**
 * ETags on the wire are quoted (`"d41d8cd98f00b204e9800998ecf8427e"`, ref §11.3); ListMultipart shows part
 * ETags bare (ref §8.4) and clients may send either form. Compare them bare: without the surrounding quotes
 * and without a weak `W/` prefix (ref §5.4, inferred). The one definition for the console and the emulator.
 */

/** The ETag without a weak `W/` prefix and without its surrounding double quotes; trimmed. */
export function unquoteEtag(etag: string): string {
  let value = etag.trim();
  if (value.startsWith('W/')) value = value.slice(2);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value;
}

/** The ETag as sent in headers and ListObjects JSON: the bare value in double quotes (ref §11.3). */
export function quoteEtag(etag: string): string {
  return `"${unquoteEtag(etag)}"`;
}
