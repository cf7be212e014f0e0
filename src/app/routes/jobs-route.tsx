import { JobsPage } from '../../features/bulk-jobs/ui/jobs-page.tsx';
import { jobHost } from '../jobs/job-host.ts';
import { RequireSession } from '../require-session.tsx';

/** `/jobs`: the bulk jobs of the connection (running here or in another tab, paused, interrupted, finished). */
export function JobsRoute() {
  return (
    <RequireSession>
      <JobsPage host={jobHost()} />
    </RequireSession>
  );
}
