/**
 * The Expires picker's typed date: year first, as both languages read it (`2031-12-31 23:59`, seconds and
 * the time optional, `T` accepted for a space), in the browser's local time. Null for anything else,
 * including days a month does not have (2031-02-30).
 */
export function parseLocalDateText(text: string): Date | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(year, month - 1, day, hour, minute, second);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** A local date as the picker writes it back (`2031-12-31 23:59:59`). */
export function localDateText(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
