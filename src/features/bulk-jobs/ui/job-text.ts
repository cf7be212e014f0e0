/**
 * The words a job is shown with: its title (what it does to which objects), its counts and the reason
 * of each skipped or failed object. Keys and prefixes are shown with their control and bidi characters
 * made visible (visibleText), as everywhere in the console.
 */
import { isMessageKey, type I18n } from '../../../i18n/i18n.tsx';
import { visibleText } from '../../../lib/visible-text.ts';
import type { ProblemRow } from '../engine/progress.ts';
import { settledOf, type JobCounts, type JobRecord, type JobScope, type OperationKind } from '../engine/types.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

type Words = Pick<I18n, 't' | 'tp'>;

/** The operation a title speaks of: an undo is titled after the edit it undoes. */
type TitledKind = Exclude<OperationKind, 'undo'>;

export function scopeTitle(words: Words, kind: TitledKind, scope: JobScope, bucket: string): string {
  const { t, tp } = words;
  switch (scope.kind) {
    case 'keys':
      return tp(`jobs.title.${kind}.keys`, scope.keys.length);
    case 'prefix':
      return t(`jobs.title.${kind}.prefix`, { prefix: visibleText(scope.prefix) });
    case 'bucket':
      return t(`jobs.title.${kind}.bucket`, { bucket });
  }
}

export function jobTitle(words: Words, record: Pick<JobRecord, 'operation' | 'scope' | 'bucket'>): string {
  const op = record.operation;
  if (op.kind === 'undo') return words.t('jobs.title.undo', { title: scopeTitle(words, 'edit', record.scope, record.bucket) });
  return scopeTitle(words, op.kind, record.scope, record.bucket);
}

export function summary(words: Words, kind: OperationKind, counts: JobCounts, total: number | null): string {
  const params = { settled: settledOf(counts), total: total ?? 0, changed: counts.changed, unchanged: counts.unchanged, skipped: counts.skipped, failed: counts.failed };
  return words.t(total === null ? `jobs.summary.open.${kind}` : `jobs.summary.${kind}`, params);
}

/** "2 h 5 min", "3 min 20 s", "40 s". */
export function duration(words: Words, seconds: number): string {
  const { t } = words;
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return t('jobs.time.hm', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  if (s >= 60) return t('jobs.time.ms', { m: Math.floor(s / 60), s: s % 60 });
  return t('jobs.time.s', { s });
}

const REASONS: readonly string[] = [
  'hidden-headers',
  'no-guard',
  'checking',
  'large-copy-hidden',
  'changed_since',
  'destination_exists',
  'source_gone',
  'nothing_to_undo',
  'network_error',
  'network_error_cors',
  'journal_write_failed',
  'contract_error',
];

/** Plain words for a problem row's code: the job's own reasons, else QingStor's codes (qs.*), else the code. */
export function reasonOf(words: Pick<I18n, 't'>, row: Pick<ProblemRow, 'code' | 'message'>): string {
  const { t } = words;
  const own = `jobs.reason.${row.code}`;
  if (REASONS.includes(row.code) && isMessageKey(own)) return t(own);
  const qs = `qs.${row.code}`;
  if (isMessageKey(qs)) return t(qs);
  return t('jobs.reason.other', { code: row.code || 'error', message: row.message ?? '' });
}
