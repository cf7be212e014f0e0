import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { putBucketMutation } from '../../api/buckets/queries.ts';
import { allBucketsQuery } from '../../api/service/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ActionRow, Button, buttonClass } from '../../components/ui/button.tsx';
import { NetworkError } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { bucketPath, bucketSettingsPath } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { Link } from '../../lib/router.tsx';
import { bucketNameProblem } from './bucket-name.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './bucket-admin.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';

/** "Create bucket": a name checked against QingStor's rules as it is typed, and the zone it lives in (ref §9.2). */
export function CreateBucketButton() {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [run, setRun] = useState(0);
  return (
    <>
      <button type="button" className="button button--primary" onClick={() => {
        setRun((n) => n + 1);
        setOpen(true);
      }}>
        {t('admin.bucket.create')}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('admin.bucket.createTitle')}>
        <CreateBucketForm key={run} onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function CreateBucketForm({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  const client = useClient();
  const queryClient = useQueryClient();
  const ids = { name: useId(), zone: useId() };
  const buckets = useQuery(allBucketsQuery(client));
  const zones = [...new Set([...session.zones, ...(buckets.data ?? []).map((b) => b.location)])];
  const [name, setName] = useState('');
  const [zone, setZone] = useState(session.zones[0] ?? zones[0] ?? '');
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation(putBucketMutation(client, queryClient));
  const problem = bucketNameProblem(name);
  const showProblem = (submitted || name.length >= 6) && problem !== null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem || zone === '') return;
    create.mutate({ zone, bucket: name });
  };

  if (create.isSuccess) {
    const created = { bucket: create.variables.bucket, zone: create.variables.zone ?? zone };
    return (
      <>
        <output className="notice notice--ok">
          {t('admin.bucket.created', { bucket: created.bucket, zone: created.zone })}
        </output>
        <ActionRow>
          <Button onClick={onDone}>{t('common.close')}</Button>
          <Link className={buttonClass()} to={bucketSettingsPath(created.zone, created.bucket)} onClick={onDone}>
            {t('admin.bucket.settingsOf', { bucket: created.bucket })}
          </Link>
          <Link className={buttonClass('primary')} to={bucketPath(created.zone, created.bucket)} onClick={onDone}>
            {t('admin.bucket.openCreated', { bucket: created.bucket })}
          </Link>
        </ActionRow>
      </>
    );
  }

  return (
    <form className="admin-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={ids.name}>{t('admin.bucket.name')}</label>
        <input
          id={ids.name}
          // The dialog's showModal() focuses an element marked autofocus: typing the name comes first.
          ref={(element) => element?.setAttribute('autofocus', '')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="none"
          aria-invalid={showProblem ? true : undefined}
          aria-describedby={`${ids.name}-h${showProblem ? ` ${ids.name}-e` : ''}`}
        />
        <p id={`${ids.name}-h`} className="field-hint">{t('admin.bucket.nameHint')}</p>
        {showProblem && problem ? <p id={`${ids.name}-e`} className="field-error">{t(problem)}</p> : null}
      </div>
      <div className="field">
        <label htmlFor={ids.zone}>{t('admin.bucket.zone')}</label>
        <select id={ids.zone} value={zone} onChange={(e) => setZone(e.target.value)} aria-describedby={`${ids.zone}-h`}>
          {zones.map((z) => (
            <option key={z} value={z}>{z}</option>
          ))}
        </select>
        <p id={`${ids.zone}-h`} className="field-hint">{t('admin.bucket.zoneHint')}</p>
      </div>
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      {create.error instanceof NetworkError && create.error.likelyCors ? <p className="notice notice--warn">{t('admin.bucket.corsBlocked')}</p> : null}
      <ActionRow>
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? t('admin.bucket.creating') : t('admin.bucket.createSubmit')}
        </Button>
      </ActionRow>
    </form>
  );
}
