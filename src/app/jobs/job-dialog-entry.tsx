import { JobDialog, type StartKind } from '../../features/bulk-jobs/ui/job-dialog.tsx';
import type { JobScope } from '../../features/bulk-jobs/engine/types.ts';
import { jobHost } from './job-host.ts';
import { EditSafety } from './safety.tsx';

/** A bulk job's dialog with the app's job host and the metadata feature's safety notice (loaded on first use). */
export function BulkJobDialog({ zone, bucket, scope, initial, onClose }: { zone: string; bucket: string; scope: JobScope; initial?: StartKind; onClose: () => void }) {
  return <JobDialog host={jobHost()} zone={zone} bucket={bucket} scope={scope} {...(initial ? { initial } : {})} onClose={onClose} Safety={EditSafety} />;
}
