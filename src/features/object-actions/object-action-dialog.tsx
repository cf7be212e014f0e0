import { useQuery } from '@tanstack/react-query';
import { headObjectQuery } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useUnsavedGuard } from '../../components/unsaved-guard.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import type { ObjectAction, ObjectActionsProps, ReplaceMetadataRenderer } from './action-props.ts';
import { CopyForm } from './copy-form.tsx';
import { DeleteForm } from './delete-form.tsx';
import { MoveForm } from './move-form.tsx';

/**
 * The copy, move or delete dialog of one object, open from the start; `onClose` when it closes. Copy and move
 * read the object's head first (the copy's metadata choice needs it).
 */
export function ObjectActionDialog({ action, zone, bucket, objectKey, onClose, onNavigate, renderReplaceMetadata }: {
  action: ObjectAction;
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  onNavigate: ObjectActionsProps['onNavigate'];
  renderReplaceMetadata?: ReplaceMetadataRenderer | undefined;
}) {
  const { t } = useI18n();
  const title = t(action === 'copy' ? 'actions.copyTitle' : action === 'move' ? 'actions.moveTitle' : 'actions.deleteTitle', { key: objectKey });
  const guard = useUnsavedGuard(onClose);
  return (
    <Dialog open onClose={onClose} title={title} subject={objectKey} guard={guard}>
      {action === 'delete' ? (
        <DeleteForm zone={zone} bucket={bucket} objectKey={objectKey} onNavigate={onNavigate} onCancel={onClose} />
      ) : (
        <WithHead action={action} zone={zone} bucket={bucket} objectKey={objectKey} onClose={onClose} onDirty={guard.setDirty} onNavigate={onNavigate} renderReplaceMetadata={renderReplaceMetadata} />
      )}
    </Dialog>
  );
}

function WithHead({ action, zone, bucket, objectKey, onClose, onDirty, onNavigate, renderReplaceMetadata }: {
  action: 'copy' | 'move';
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  onDirty: (dirty: boolean) => void;
  onNavigate: ObjectActionsProps['onNavigate'];
  renderReplaceMetadata?: ReplaceMetadataRenderer | undefined;
}) {
  const { t } = useI18n();
  const client = useClient();
  const head = useQuery(headObjectQuery(client, { zone, bucket, key: objectKey }));
  // Once read, the head stays: a move invalidates its source, whose refetch (404) must not replace the
  // form while the move's answer is being handled.
  if (!head.data) return head.isError ? <ErrorNotice error={head.error} onRetry={() => void head.refetch()} /> : <Loading label={t('app.loading')} />;
  const props = { zone, bucket, objectKey, head: head.data, onNavigate, ...(renderReplaceMetadata ? { renderReplaceMetadata } : {}) };
  return action === 'copy' ? <CopyForm {...props} onDone={onClose} onDirty={onDirty} /> : <MoveForm {...props} onDone={onClose} onDirty={onDirty} />;
}
