import { useEffect, useState, type ReactNode } from 'react';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import type { JobEntry, JobHost, StartOutcome } from '../engine/host.ts';
import { accepts, isActive, type JobPhase } from '../engine/machine.ts';
import type { ProblemRow } from '../engine/progress.ts';
import type { ReportFormat } from '../engine/report.ts';
import { settledOf, type JobRecord } from '../engine/types.ts';
import { duration, jobTitle, reasonOf, summary } from './job-text.ts';
import { ProblemsTable } from './problems-table.tsx';
import { useJobClient, useJobsState } from './use-jobs.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

/** What a job stands at as the views tell it: the tab's phase when it runs here, else what the journal says. */
export type ShownStatus = 'running' | 'pausing' | 'paused' | 'cancelling' | 'cancelled' | 'finished' | 'failed' | 'interrupted' | 'storedPaused' | 'elsewhere';

export function shownStatus(entry: JobEntry): ShownStatus {
  if (entry.elsewhere) return 'elsewhere';
  const phase: JobPhase = entry.live?.phase ?? 'idle';
  if (phase !== 'idle') return phase;
  switch (entry.record.status) {
    case 'running':
      return 'interrupted';
    case 'paused':
      return 'storedPaused';
    default:
      return entry.record.status;
  }
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the Blob by now.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * One job, live: what it did so far, how fast and how long it has left, its controls, its report and the
 * objects it skipped or that failed. `onJob` opens another job (the undo this view started).
 */
export function JobView({ host, id, onJob, footer }: { host: JobHost; id: string; onJob?: (id: string) => void; footer?: ReactNode }) {
  const { t, tp, formatNumber } = useI18n();
  const jobClient = useJobClient();
  const state = useJobsState(host);
  const entry = state.entries.find((e) => e.record.id === id);
  // An edit job is undone once; its undo job says what came back.
  const undone = state.entries.some((e) => e.record.operation.kind === 'undo' && e.record.operation.of === id);
  const [outcome, setOutcome] = useState<StartOutcome | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  if (!entry) return null;
  const { record, live } = entry;
  const status = shownStatus(entry);
  const phase: JobPhase = live?.phase ?? 'idle';
  const kind = record.operation.kind;
  const total = record.pass === 'retry' ? record.retryTotal : record.total;
  const settled = settledOf(record.counts);
  const running = isActive(phase);
  const here = !entry.elsewhere;
  const canResume = here && (status === 'interrupted' || status === 'storedPaused' || status === 'paused' || status === 'pausing' || (status === 'cancelled' && record.pass === 'main') || status === 'failed');
  const over = here && !running && (status === 'finished' || status === 'cancelled' || status === 'failed');
  const act = (start: () => Promise<StartOutcome>) => {
    setOutcome(null);
    start().then(
      (result) => {
        setOutcome(result);
        if (result.kind === 'started' && result.id !== id) onJob?.(result.id);
      },
      (error: unknown) => setFailure(error),
    );
  };
  const report = (format: ReportFormat) => {
    host.report(id, format).then((file) => file && download(file.blob, file.name), (error: unknown) => setFailure(error));
  };
  const rate = live?.rate ?? null;
  const left = live?.secondsLeft ?? null;

  return (
    <section className="job-view" aria-label={jobTitle({ t, tp }, record)} data-job={record.id} data-status={status}>
      <progress max={Math.max(1, total ?? settled)} value={record.pass === 'retry' ? Math.max(0, (record.retryTotal ?? 0) - record.counts.failed) : settled} aria-label={t('jobs.progress')} />
      <output className="status-line" data-testid="job-summary">
        {summary({ t, tp }, kind, record.counts, record.total)}
      </output>
      <p className="status-line job-view__phase" data-testid="job-phase">
        {status === 'failed' && record.fatal ? t('jobs.phase.failed', { reason: reasonOf({ t }, { code: record.fatal.code, message: record.fatal.message }) }) : t(`jobs.phase.${status}`)}
        {running && rate !== null ? <span> {t('jobs.speed', { rate: formatNumber(Math.round(rate)), limit: live?.limit ?? 0 })}</span> : null}
        {running && left !== null ? <span>, {t('jobs.eta', { time: duration({ t, tp }, left) })}</span> : null}
      </p>
      <div className="bulk-gate">
        {here && phase === 'running' ? (
          <button type="button" className="button" onClick={() => host.pause(id)}>
            {t('jobs.pause')}
          </button>
        ) : null}
        {canResume ? (
          <button type="button" className="button button--primary" onClick={() => act(() => host.resume(jobClient, id))}>
            {t('jobs.resume')}
          </button>
        ) : null}
        {here && (accepts(phase, { type: 'cancel' }) || status === 'interrupted' || status === 'storedPaused') ? (
          <button type="button" className="button" disabled={phase === 'cancelling'} onClick={() => void host.cancel(id)}>
            {t('jobs.cancel')}
          </button>
        ) : null}
      </div>
      <div className="bulk-actions">
        {over && record.counts.failed > 0 ? (
          <button type="button" className="button button--primary" onClick={() => act(() => host.resume(jobClient, id, 'retry'))}>
            {tp('jobs.retry', record.counts.failed)}
          </button>
        ) : null}
        {over && kind === 'edit' && record.counts.changed > 0 && !undone ? <UndoButton record={record} onUndo={() => act(() => host.undo(jobClient, id))} /> : null}
        <span className="job-view__report">
          {t('jobs.report')}:{' '}
          <button type="button" className="button button--small" onClick={() => report('csv')}>
            {t('jobs.report.csv')}
          </button>{' '}
          <button type="button" className="button button--small" onClick={() => report('json')}>
            {t('jobs.report.json')}
          </button>
        </span>
      </div>
      {outcome?.kind === 'busy' ? (
        <p role="alert" className="notice notice--warn">
          {t('jobs.busy', { title: jobTitle({ t, tp }, outcome.other) })}
        </p>
      ) : null}
      {outcome?.kind === 'elsewhere' ? (
        <p role="alert" className="notice notice--warn">
          {t('jobs.busyElsewhere')}
        </p>
      ) : null}
      {failure ? <ErrorNotice error={failure} title={t('jobs.report')} /> : null}
      <JobProblems host={host} entry={entry} />
      {footer}
    </section>
  );
}

function UndoButton({ record, onUndo }: { record: JobRecord; onUndo: () => void }) {
  const { t, tp } = useI18n();
  return (
    <button type="button" className="button" onClick={onUndo} title={t('jobs.undoNote')}>
      {tp('jobs.undo', record.counts.changed)}
    </button>
  );
}

/** The problems of the job: live when it runs here, else read from the journal (again when its record changes). */
function JobProblems({ host, entry }: { host: JobHost; entry: JobEntry }) {
  const { live, record } = entry;
  const [stored, setStored] = useState<{ rows: readonly ProblemRow[]; beyond: number; version: number; at: number } | null>(null);
  const stale = live === undefined && (stored === null || stored.at < record.updatedAt);
  useEffect(() => {
    if (!stale) return;
    let current = true;
    void host.problems(record.id).then((list) => {
      if (current) setStored({ rows: list.rows(), beyond: list.beyond, version: list.version, at: record.updatedAt });
    });
    return () => {
      current = false;
    };
  }, [host, record.id, record.updatedAt, stale]);
  if (live) return <ProblemsTable rows={live.problems} beyond={live.problemsBeyond} version={live.problemsVersion} />;
  return stored ? <ProblemsTable rows={stored.rows} beyond={stored.beyond} version={stored.version} /> : null;
}
