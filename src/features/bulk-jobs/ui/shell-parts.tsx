import { useState } from 'react';
import { useI18n } from '../../../i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';
import type { JobHost, StartOutcome } from '../engine/host.ts';
import { settledOf } from '../engine/types.ts';
import { jobTitle } from './job-text.ts';
import { shownStatus } from './job-view.tsx';
import { jobsHref } from './jobs-page.tsx';
import { useJobClient, useJobsState, useRefreshAfterJobs } from './use-jobs.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './jobs.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

/** The header's link to the Jobs page while jobs run, in this tab or another. */
export function JobsIndicator({ host }: { host: JobHost }) {
  const { tp } = useI18n();
  const state = useJobsState(host);
  useRefreshAfterJobs(host);
  const running = state.entries.filter((entry) => {
    const status = shownStatus(entry);
    return status === 'running' || status === 'pausing' || status === 'cancelling' || status === 'elsewhere';
  }).length;
  if (running === 0) return null;
  return (
    <Link className="button button--ghost button--small jobs-indicator" to={jobsHref()} data-testid="jobs-indicator">
      {tp('jobs.indicator', running)}
    </Link>
  );
}

/**
 * After a reload or a restart of the browser: a job the journal holds as running, which no tab runs any
 * more, is offered to be resumed (the newest first). "Not now" hides the offer until the next page load.
 */
export function ResumeOffer({ host }: { host: JobHost }) {
  const { t, tp } = useI18n();
  const state = useJobsState(host);
  const jobClient = useJobClient();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const [outcome, setOutcome] = useState<StartOutcome | null>(null);
  const entry = state.entries.find((e) => shownStatus(e) === 'interrupted' && !dismissed.has(e.record.id));
  if (!entry) return null;
  const { record } = entry;
  const dismiss = () => setDismissed((previous) => new Set(previous).add(record.id));
  return (
    <section className="notice notice--warn jobs-resume-offer" aria-label={t('jobs.resumeOffer.title')} data-testid="jobs-resume-offer">
      <p>
        <strong>{t('jobs.resumeOffer.title')}</strong> {t('jobs.resumeOffer.body', { title: jobTitle({ t, tp }, record), bucket: record.bucket, settled: settledOf(record.counts) })}
      </p>
      <button type="button" className="button button--primary button--small" onClick={() => void host.resume(jobClient, record.id).then(setOutcome, () => setOutcome({ kind: 'elsewhere' }))}>
        {t('jobs.resumeOffer.resume')}
      </button>
      <Link className="button button--small" to={jobsHref(record.id)} onClick={dismiss}>
        {t('jobs.resumeOffer.show')}
      </Link>
      <button type="button" className="button button--small" onClick={dismiss}>
        {t('jobs.resumeOffer.later')}
      </button>
      {outcome?.kind === 'busy' ? <p role="alert">{t('jobs.busy', { title: jobTitle({ t, tp }, outcome.other) })}</p> : null}
      {outcome?.kind === 'elsewhere' ? <p role="alert">{t('jobs.busyElsewhere')}</p> : null}
    </section>
  );
}
