import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/errors.ts';
import { abortRulesOf, wholeBucketAbortRule } from '../../api/lifecycle/auto-abort.ts';
import { bucketLifecycleQuery, setWholeBucketAbortMutation } from '../../api/lifecycle/queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';
import { NumberForm, wholeNumberIn } from './number-form.tsx';

const DEFAULT_DAYS = 7;
const MAX_DAYS = 3650;

/**
 * The bucket's lifecycle rule that aborts incomplete multipart uploads after N days (ref §9.10): shown when
 * present (any prefix), set or changed for the whole bucket in one click, removed after a question. Only
 * the bucket owner may read lifecycle rules; anyone else sees a one-line note instead.
 */
export function AutoAbortRule({ zone, bucket }: { zone: string; bucket: string }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const lifecycle = useQuery(bucketLifecycleQuery(client, { zone, bucket }));
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const mutation = useMutation(setWholeBucketAbortMutation(client, queryClient));
  const write = {
    ...mutation,
    mutate: (days: number | null) =>
      mutation.mutate(
        { zone, bucket, days },
        {
          onSuccess: () => {
            setEditing(false);
            setConfirmRemove(false);
          },
        },
      ),
  };

  if (lifecycle.isPending) return null;
  if (lifecycle.isError) {
    if (lifecycle.error instanceof ApiError && lifecycle.error.status === 403) {
      return <p className="auto-abort auto-abort--muted">{t('multipart.auto.ownerOnly')}</p>;
    }
    return <ErrorNotice error={lifecycle.error} onRetry={() => void lifecycle.refetch()} />;
  }
  const rules = lifecycle.data.rule;
  const whole = wholeBucketAbortRule(rules);
  const others = abortRulesOf(rules).filter((rule) => rule !== undefined && rule.prefix !== '');

  return (
    <section className="auto-abort" aria-labelledby="auto-abort-title">
      <h2 id="auto-abort-title" className="auto-abort__title">
        {t('multipart.auto.title')}
      </h2>
      {whole && whole.enabled ? (
        <p className="auto-abort__state" data-testid="auto-abort-state">
          {tp('multipart.auto.active', whole.days, { id: whole.id })}
        </p>
      ) : (
        <p className="auto-abort__state" data-testid="auto-abort-state">
          {whole ? tp('multipart.auto.disabled', whole.days, { id: whole.id }) : t('multipart.auto.none')}
        </p>
      )}
      {others.map((rule) => (
        <p key={rule.id} className="auto-abort__other">
          {tp(rule.enabled ? 'multipart.auto.prefixRule' : 'multipart.auto.prefixRuleDisabled', rule.days, { prefix: rule.prefix, id: rule.id })}
        </p>
      ))}
      {editing ? (
        <DaysForm
          initial={whole?.days ?? DEFAULT_DAYS}
          busy={write.isPending}
          onCancel={() => setEditing(false)}
          onSave={(days) => write.mutate(days)}
        />
      ) : (
        <div className="auto-abort__actions">
          {whole && whole.enabled ? (
            <>
              <button type="button" className="button button--small" onClick={() => setEditing(true)}>
                {t('multipart.auto.change')}
              </button>
              <button type="button" className="button button--small" onClick={() => setConfirmRemove(true)}>
                {t('multipart.auto.remove')}
              </button>
            </>
          ) : (
            <>
              <button type="button" className="button button--small button--primary" disabled={write.isPending} onClick={() => write.mutate(whole?.days ?? DEFAULT_DAYS)}>
                {tp('multipart.auto.enable', whole?.days ?? DEFAULT_DAYS)}
              </button>
              <button type="button" className="button button--small" onClick={() => setEditing(true)}>
                {t('multipart.auto.otherDays')}
              </button>
            </>
          )}
        </div>
      )}
      {confirmRemove ? (
        <div className="notice" role="alertdialog" aria-labelledby="auto-abort-remove">
          <p id="auto-abort-remove">{t('multipart.auto.removeQuestion')}</p>
          <div className="auto-abort__actions">
            <button type="button" className="button button--small" onClick={() => setConfirmRemove(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button--small button--danger" disabled={write.isPending} onClick={() => write.mutate(null)}>
              {t('multipart.auto.removeConfirm')}
            </button>
          </div>
        </div>
      ) : null}
      {write.isError ? <ErrorNotice error={write.error} /> : null}
      <p className="auto-abort__hint">{t('multipart.auto.delayHint')}</p>
    </section>
  );
}

function DaysForm({ initial, busy, onCancel, onSave }: { initial: number; busy: boolean; onCancel: () => void; onSave: (days: number) => void }) {
  const { t } = useI18n();
  return (
    <NumberForm
      className="auto-abort__form"
      label={t('multipart.auto.daysLabel')}
      value={String(initial)}
      min={1}
      max={MAX_DAYS}
      submitLabel={busy ? t('multipart.auto.saving') : t('multipart.auto.save')}
      submitClassName="button button--small button--primary"
      submitDisabled={busy}
      errorText={t('multipart.auto.daysError', { max: MAX_DAYS })}
      parse={(text) => wholeNumberIn(text, 1, MAX_DAYS)}
      onSubmit={onSave}
    >
      <button type="button" className="button button--small" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </NumberForm>
  );
}
