import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { moveObjectMutation } from '../../api/objects/queries.ts';
import { useDialogClose } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import type { FormProps } from './action-props.ts';
import { DestinationFields } from './destination-fields.tsx';
import { DestinationNotice, useDestinationCheck, useReportDirty } from './destination-notice.tsx';
import { destinationKeyProblem } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';

/** Moves or renames one object (a copy, then the source's delete). */
export function MoveForm({ zone, bucket, objectKey, onNavigate, onDone: closeNow, onDirty }: FormProps) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [destBucket, setDestBucket] = useState(bucket);
  const [destKey, setDestKey] = useState(objectKey);
  const [submitted, setSubmitted] = useState(false);
  const move = useMutation(moveObjectMutation(client, queryClient));
  // Cancel closes through the guard (it asks while a typed destination would be lost); a move that was
  // written closes at once.
  const onCancel = useDialogClose() ?? closeNow;
  const onDone = closeNow;
  useReportDirty((destBucket !== bucket || destKey !== objectKey) && !move.isSuccess, onDirty);
  const problem = destinationKeyProblem(destKey);
  const same = destBucket === bucket && destKey === objectKey;

  const destination = useDestinationCheck(zone, destBucket, destKey);
  const write = () =>
    move.mutate(
      { zone, bucket: destBucket, key: destKey, source: { bucket, key: objectKey } },
      {
        onSuccess: () => {
          // Written: nothing is left to lose, so the navigation to the moved object must not be asked about.
          onDirty(false);
          toast(t('toast.moved', { location: `${destBucket}/${destKey}` }));
          onDone();
          onNavigate({ bucket: destBucket, key: destKey });
        },
      },
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem || same || destBucket === '') return;
    if ((await destination.check()).kind === 'free') write();
  };

  return (
    <form className="object-actions-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="field__description">{t('actions.moveHint')}</p>
      <DestinationFields zone={zone} bucket={destBucket} setBucket={setDestBucket} destKey={destKey} setKey={setDestKey} problem={submitted || destKey !== '' ? problem : null} />
      {submitted && same ? <p className="field__error">{t('actions.moveSame')}</p> : null}
      <DestinationNotice state={destination.state} zone={zone} bucket={destBucket} destKey={destKey} pending={move.isPending} onReplace={write} />
      {move.isError ? <ErrorNotice error={move.error} /> : null}
      <ActionRow>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={move.isPending || destination.checking}>
          {move.isPending ? t('actions.moving') : t('actions.moveSubmit')}
        </Button>
      </ActionRow>
    </form>
  );
}
