import type { I18n } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import type { UploadTotals } from '../engine/index.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module formats
import '../../../i18n/parts/uploads.ts';

/** Time left as "12 s", "3 min 4 s", "1 h 2 min"; "time unknown" while nothing is moving. */
export function formatEta(seconds: number | null, t: I18n['t']): string {
  if (seconds === null || !Number.isFinite(seconds)) return t('uploads.etaUnknown');
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('uploads.etaSeconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('uploads.etaMinutes', { m, s: s % 60 });
  return t('uploads.etaHours', { h: Math.floor(m / 60), m: m % 60 });
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

/**
 * The header indicator's rate line: overall speed and time left from the queue's byte counters. Until the
 * speed meter has a measurement (it needs a fraction of a second of traffic) both read "—" rather than a
 * made-up 0 B/s or an endless ETA.
 */
export function indicatorRate(totals: Pick<UploadTotals, 'speed' | 'eta'>, t: I18n['t']): string {
  if (!(totals.speed > 0) || totals.eta === null || !Number.isFinite(totals.eta)) return t('uploads.indicator.unmeasured');
  return t('uploads.indicator.rate', { speed: formatSpeed(totals.speed), eta: formatEta(totals.eta, t) });
}
