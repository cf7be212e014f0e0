import { useEffect } from 'react';
import type { SafetyProps } from '../../features/bulk-jobs/ui/job-dialog.tsx';
import { completenessBlock } from '../../api/metadata/save.ts';
import { SaveSafetyNotice } from '../../features/metadata/visibility-notice.tsx';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';

/**
 * The metadata feature's safety notice inside a bulk job's dialog: an edit job covers objects the user has not
 * looked at one by one, so a header the bucket's CORS rule hides always blocks it (no acknowledgement), with
 * the one-click fix of the rule.
 */
export function EditSafety({ zone, bucket, onBlocked }: SafetyProps) {
  const visibility = useHeaderVisibility(zone, bucket);
  const block = completenessBlock(visibility);
  const blocked = block !== null;
  useEffect(() => onBlocked(blocked), [blocked, onBlocked]);
  return <SaveSafetyNotice block={block} bucket={{ zone, name: bucket }} allowAcknowledge={false} acknowledged={false} onAcknowledge={() => undefined} />;
}
