import { JobsIndicator, ResumeOffer } from '../../features/bulk-jobs/ui/shell-parts.tsx';
import { jobHost } from './job-host.ts';

/** The header's jobs link (while jobs run). */
export function JobsIndicatorSlot() {
  return <JobsIndicator host={jobHost()} />;
}

/** Above the page's content: the offer to resume a job a reload or a browser restart interrupted. */
export function JobsResumeSlot() {
  return <ResumeOffer host={jobHost()} />;
}
