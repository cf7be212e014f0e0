import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import { copyObjectMutation } from '../../api/objects/queries.ts';
import { useDialogClose } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { Banner } from '../../components/ui/banner.tsx';
import { ChoiceGroup } from '../../components/ui/choice-group.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import type { FormProps } from './action-props.ts';
import { DestinationFields } from './destination-fields.tsx';
import { DestinationNotice, useDestinationCheck, useReportDirty } from './destination-notice.tsx';
import { copyKeyFor, destinationKeyProblem } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';

/** Copies one object to a destination typed or browsed to, keeping its metadata or replacing it. */
export function CopyForm({ zone, bucket, objectKey, head, onNavigate, renderReplaceMetadata, onDone: closeNow, onDirty }: FormProps) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [destBucket, setDestBucket] = useState(bucket);
  const [destKey, setDestKey] = useState(() => copyKeyFor(objectKey));
  const [directive, setDirective] = useState<'COPY' | 'REPLACE'>('COPY');
  const [replacement, setReplacement] = useState<ObjectMetadata | null>(head.metadata);
  const [submitted, setSubmitted] = useState(false);
  const copy = useMutation(copyObjectMutation(client, queryClient));
  // Cancel inside the form closes the way Esc does: through the guard, which asks first.
  const onDone = useDialogClose() ?? closeNow;
  const edited = destBucket !== bucket || destKey !== copyKeyFor(objectKey) || (directive === 'REPLACE' && JSON.stringify(replacement) !== JSON.stringify(head.metadata));
  useReportDirty(edited && !copy.isSuccess, onDirty);
  const problem = destinationKeyProblem(destKey);
  const selfCopy = destBucket === bucket && destKey === objectKey && directive === 'COPY';
  const blocked = problem !== null || destBucket === '' || (directive === 'REPLACE' && replacement === null) || selfCopy;

  const destination = useDestinationCheck(zone, destBucket, destKey);
  const write = () =>
    copy.mutate(
      {
        zone,
        bucket: destBucket,
        key: destKey,
        source: { bucket, key: objectKey },
        directive,
        ...(directive === 'REPLACE' && replacement ? { metadata: replacement } : {}),
      },
      { onSuccess: () => toast(t('toast.copied', { location: `${destBucket}/${destKey}` })) },
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (blocked) return;
    // A copy onto its own key (REPLACE) rewrites that object on purpose: nothing to ask.
    if (destBucket === bucket && destKey === objectKey) {
      write();
      return;
    }
    if ((await destination.check()).kind === 'free') write();
  };

  if (copy.isSuccess) {
    // Done: what was written and where to go next. The request id is kept for failures, where it helps.
    return (
      <div className="object-actions-form">
        <Banner tone="ok">
          <p dir="auto">{t('actions.copied', { key: destKey })}</p>
        </Banner>
        <ActionRow>
          <Button onClick={onDone}>{t('common.close')}</Button>
          <Button variant="primary" onClick={() => { onDone(); onNavigate({ bucket: destBucket, key: destKey }); }}>
            {t('actions.openCopy')}
          </Button>
        </ActionRow>
      </div>
    );
  }

  return (
    <form className="object-actions-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <DestinationFields zone={zone} bucket={destBucket} setBucket={setDestBucket} destKey={destKey} setKey={setDestKey} problem={submitted || destKey !== '' ? problem : null} />
      <ChoiceGroup
        legend={t('actions.metadataChoice')}
        value={directive}
        onChange={setDirective}
        choices={[
          { value: 'COPY', label: t('actions.keepMetadata') },
          { value: 'REPLACE', label: t('actions.replaceMetadata') },
        ]}
      />
      {directive === 'REPLACE' && renderReplaceMetadata ? renderReplaceMetadata({ source: { zone, bucket, head }, initial: head.metadata, onChange: setReplacement }) : null}
      {selfCopy ? <p className="field__error">{t('actions.selfCopy')}</p> : null}
      <DestinationNotice state={destination.state} zone={zone} bucket={destBucket} destKey={destKey} pending={copy.isPending} onReplace={write} />
      {copy.isError ? <ErrorNotice error={copy.error} /> : null}
      <ActionRow>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={copy.isPending || destination.checking || (submitted && blocked)}>
          {copy.isPending ? t('actions.copying') : t('actions.copySubmit')}
        </Button>
      </ActionRow>
    </form>
  );
}
