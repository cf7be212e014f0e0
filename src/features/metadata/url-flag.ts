/**
 * A boolean query flag such as `edit=1` added to or removed from a search string without touching the
 * other parameters' encoding (the browser's keys use a custom encoding, see hooks/browse-location.ts).
 */
export function withFlag(search: string, name: string, on: boolean): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  const parts = query.split('&').filter((part) => part !== '' && part.split('=')[0] !== name);
  if (on) parts.push(`${name}=1`);
  return parts.length ? `?${parts.join('&')}` : '';
}
