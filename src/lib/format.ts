const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** Between a size's number and its unit: a no-break space, so "8.0 KiB" never ends a line at "8.0". */
const NBSP = '\u00A0';

/** Human-readable binary size: 0 B, 1023 B, 1.0 KiB, 4.0 MiB ... (number and unit held together). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value}${NBSP}B` : `${value.toFixed(1)}${NBSP}${UNITS[unit]}`;
}
