import { useEffect, useRef } from 'react';
import { useI18n } from '../../../i18n/i18n.tsx';
import { Link, useLocation, useNavigate } from '../../../lib/router.tsx';
import type { JobEntry, JobHost } from '../engine/host.ts';
import { isActive } from '../engine/machine.ts';
import { settledOf } from '../engine/types.ts';
import { jobTitle } from './job-text.ts';
import { JobView, shownStatus, type ShownStatus } from './job-view.tsx';
import { useJobsState } from './use-jobs.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './jobs.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

/** The list's word for a job's state (the view's own line says more). */
export function statusLabel(status: ShownStatus): 'jobs.status.running' | 'jobs.status.paused' | 'jobs.status.interrupted' | 'jobs.status.cancelled' | 'jobs.status.finished' | 'jobs.status.failed' | 'jobs.status.elsewhere' {
  switch (status) {
    case 'running':
    case 'pausing':
    case 'cancelling':
      return 'jobs.status.running';
    case 'paused':
    case 'storedPaused':
      return 'jobs.status.paused';
    case 'interrupted':
      return 'jobs.status.interrupted';
    case 'cancelled':
      return 'jobs.status.cancelled';
    case 'finished':
      return 'jobs.status.finished';
    case 'failed':
      return 'jobs.status.failed';
    case 'elsewhere':
      return 'jobs.status.elsewhere';
  }
}

export function jobsHref(id?: string): string {
  return id === undefined ? '/jobs' : `/jobs?job=${encodeURIComponent(id)}`;
}

/** `/jobs`: the connection's jobs, newest first, and the one named by `?job=` (a deep link) below them. */
export function JobsPage({ host }: { host: JobHost }) {
  const { t, tp, formatDateTime, formatNumber } = useI18n();
  const state = useJobsState(host);
  const location = useLocation();
  const navigate = useNavigate();
  const selected = new URLSearchParams(location.search).get('job');
  const entry = selected === null ? undefined : state.entries.find((e) => e.record.id === selected);
  const detailRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (entry) detailRef.current?.focus();
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a newly selected job takes the focus
  }, [entry?.record.id]);
  return (
    <section className="jobs-page" aria-labelledby="jobs-title">
      <h1 id="jobs-title">{t('jobs.page.title')}</h1>
      <p className="field-hint">{t(host.inMemory ? 'jobs.page.introInMemory' : 'jobs.page.intro')}</p>
      {state.loaded && state.entries.length === 0 ? <p className="status-line">{t('jobs.page.empty')}</p> : null}
      {state.entries.length > 0 ? (
        <div className="table-scroll">
          <table className="table jobs-list" aria-label={t('jobs.page.list')}>
            <thead>
              <tr>
                <th scope="col">{t('jobs.page.col.job')}</th>
                <th scope="col">{t('jobs.page.col.status')}</th>
                <th scope="col">{t('jobs.page.col.progress')}</th>
                <th scope="col">{t('jobs.page.col.started')}</th>
              </tr>
            </thead>
            <tbody>
              {state.entries.map((e) => (
                <JobRow key={e.record.id} entry={e} current={e.record.id === selected} started={formatDateTime(new Date(e.record.createdAt), 'short')} done={formatNumber(settledOf(e.record.counts))} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {entry ? (
        <section className="jobs-detail" ref={detailRef} tabIndex={-1} aria-labelledby="jobs-detail-title">
          <h2 id="jobs-detail-title">
            {jobTitle({ t, tp }, entry.record)} <span className="field-hint mono">{entry.record.bucket}</span>
          </h2>
          <JobView
            host={host}
            id={entry.record.id}
            onJob={(id) => navigate(jobsHref(id))}
            footer={
              !entry.elsewhere && !isActive(entry.live?.phase ?? 'idle') ? (
                <p className="job-view__more">
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => {
                      void host.remove(entry.record.id).then(() => navigate(jobsHref()));
                    }}
                  >
                    {t('jobs.forget')}
                  </button>
                </p>
              ) : null
            }
          />
        </section>
      ) : null}
    </section>
  );
}

function JobRow({ entry, current, started, done }: { entry: JobEntry; current: boolean; started: string; done: string }) {
  const { t, tp } = useI18n();
  const status = shownStatus(entry);
  return (
    <tr aria-current={current ? 'true' : undefined} data-status={status}>
      <td className="jobs-list__title">
        <Link to={jobsHref(entry.record.id)}>{jobTitle({ t, tp }, entry.record)}</Link> <span className="field-hint mono">{entry.record.bucket}</span>
      </td>
      <td>{t(statusLabel(status))}</td>
      <td>{done}</td>
      <td>{started}</td>
    </tr>
  );
}
