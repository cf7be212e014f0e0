import { useCallback, useEffect } from 'react';
import { lazyView } from '../../components/lazy-view.tsx';
import { DeleteFolderDialog } from '../../features/bucket-admin/delete-folder.tsx';
import type { RowAction } from '../../features/object-browser/slots.ts';
import type { ReplaceMetadataRenderer } from '../../features/object-actions/action-props.ts';
import { DownloadObject } from '../../features/object-actions/download.tsx';
import { ObjectActionDialog } from '../../features/object-actions/object-action-dialog.tsx';
import { SingleObjectActions } from '../../features/object-actions/selection.tsx';
import { browseHref, useBrowseLocation } from '../../hooks/browse-location.ts';
import { useNavigate } from '../../lib/router.tsx';

// The object table's row menu actions and the selection bar's one-object actions, composed from the
// object-actions, bucket-admin and metadata features (loaded when the first one is needed).

const ReplaceMetadataFields = lazyView(async () => (await import('../../features/metadata/replace-metadata-fields.tsx')).ReplaceMetadataFields);
const BulkJobDialog = lazyView(async () => (await import('../jobs/job-dialog-entry.tsx')).BulkJobDialog);
const renderReplaceMetadata: ReplaceMetadataRenderer = (props) => <ReplaceMetadataFields {...props} />;

export function SelectionSingle({ zone, bucket, keys }: { zone: string; bucket: string; keys: readonly string[] }) {
  const onNavigate = useActionNavigate();
  return <SingleObjectActions zone={zone} bucket={bucket} keys={keys} onNavigate={onNavigate} renderReplaceMetadata={renderReplaceMetadata} />;
}

/** After a copy or move: show the result's details; after a delete: close the details if they showed it. */
function useActionNavigate() {
  const navigate = useNavigate();
  const here = useBrowseLocation();
  return useCallback(
    (target: { bucket: string; key: string } | null) => {
      if (target === null) {
        if (here.object !== null) navigate(browseHref({ ...here, object: null }));
      } else if (target.bucket === here.bucket) navigate(browseHref({ ...here, object: target.key }));
      else {
        const prefix = target.key.slice(0, target.key.lastIndexOf('/') + 1);
        navigate(browseHref({ zone: here.zone, bucket: target.bucket, prefix, object: target.key }));
      }
    },
    [navigate, here],
  );
}

/** What a row menu's action shows: the same dialogs as the details panel and the toolbar. */
export function RowActionView({ action }: { action: RowAction }) {
  const navigate = useNavigate();
  const here = useBrowseLocation();
  const onNavigate = useActionNavigate();
  const { kind, zone, bucket, key, onClose } = action;
  switch (kind) {
    case 'download':
      return <DownloadObject zone={zone} bucket={bucket} objectKey={key} onDone={onClose} />;
    case 'editMetadata':
      // The metadata editor opens over the object's details (its open state is the URL's `edit=1`).
      return <NavigateOnce to={`${browseHref({ ...here, object: key })}&edit=1`} navigate={navigate} onDone={onClose} />;
    case 'bulkEditFolder':
      return <BulkJobDialog zone={zone} bucket={bucket} scope={{ kind: 'prefix', prefix: key }} onClose={onClose} />;
    case 'deleteFolder':
      return <DeleteFolderDialog zone={zone} bucket={bucket} prefix={key} onClose={onClose} />;
    default:
      return <ObjectActionDialog action={kind} zone={zone} bucket={bucket} objectKey={key} onClose={onClose} onNavigate={onNavigate} renderReplaceMetadata={renderReplaceMetadata} />;
  }
}

function NavigateOnce({ to, navigate, onDone }: { to: string; navigate: (to: string) => void; onDone: () => void }) {
  useEffect(() => {
    navigate(to);
    onDone();
  }, [to, navigate, onDone]);
  return null;
}
