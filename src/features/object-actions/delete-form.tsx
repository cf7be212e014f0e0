import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteObjectMutation } from '../../api/objects/queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import type { ObjectActionsProps } from './action-props.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';

/** Asks before deleting one object, then deletes it and closes its details. */
export function DeleteForm({ zone, bucket, objectKey, onNavigate, onCancel }: Pick<ObjectActionsProps, 'zone' | 'bucket' | 'objectKey' | 'onNavigate'> & { onCancel: () => void }) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const remove = useMutation(deleteObjectMutation(client, queryClient));
  return (
    <div className="object-actions-form">
      <p>{t('actions.deleteConfirm')}</p>
      <p dir="auto" className="mono object-actions__key">
        {visibleText(objectKey)}
      </p>
      {remove.isError ? <ErrorNotice error={remove.error} /> : null}
      <ActionRow>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button
          variant="danger"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { zone, bucket, key: objectKey },
              {
                onSuccess: () => {
                  toast(t('toast.deletedKey', { key: `${bucket}/${objectKey}` }));
                  onCancel();
                  onNavigate(null);
                },
              },
            )
          }
        >
          {t('actions.deleteConfirmButton')}
        </Button>
      </ActionRow>
    </div>
  );
}
