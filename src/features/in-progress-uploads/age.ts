import type { Locale } from '../../i18n/i18n.tsx';

type AgeUnit = 'minute' | 'hour' | 'day';
const formats = new Map<string, Intl.NumberFormat>();

function formatIn(locale: Locale, unit: AgeUnit): Intl.NumberFormat {
  const id = `${locale}\u0000${unit}`;
  let format = formats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 0 });
    formats.set(id, format);
  }
  return format;
}

/** How long ago, in the largest whole unit that fits: "45 minutes", "5 hours", "12 days" (or the locale's words). */
export function formatAge(locale: Locale, ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return formatIn(locale, 'minute').format(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return formatIn(locale, 'hour').format(hours);
  return formatIn(locale, 'day').format(Math.floor(hours / 24));
}
