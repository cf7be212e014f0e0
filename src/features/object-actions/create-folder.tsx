import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { createFolderMutation } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { destinationKeyProblem, folderKey } from './keys.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';
import { visibleText } from '../../lib/visible-text.ts';

/** "New folder": a zero-byte object whose key ends in '/' under the folder being shown (ref §1.3), open from the start. */
export function CreateFolderDialog({ zone, bucket, prefix, onClose }: { zone: string; bucket: string; prefix: string; onClose: () => void }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} onClose={() => {
      setOpen(false);
      onClose();
    }} title={t('actions.newFolderTitle', { location: `${bucket}/${prefix}` })} subject={`${bucket}/${prefix}`}>
      <CreateFolderForm zone={zone} bucket={bucket} prefix={prefix} onDone={() => {
        setOpen(false);
        onClose();
      }} />
    </Dialog>
  );
}

function CreateFolderForm({ zone, bucket, prefix, onDone }: { zone: string; bucket: string; prefix: string; onDone: () => void }) {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation(createFolderMutation(client, queryClient));
  const trimmed = name.replace(/\/+$/, '');
  const key = folderKey(prefix, trimmed);
  const problem = trimmed === '' ? 'empty' : name.startsWith('/') ? 'leadingSlash' : destinationKeyProblem(key);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    create.mutate(
      { zone, bucket, prefix: key },
      {
        onSuccess: () => {
          toast(t('toast.folderCreated', { location: `${bucket}/${key}` }));
          onDone();
        },
      },
    );
  };

  return (
    <form className="object-actions-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={id}>{t('actions.folderName')}</label>
        <input
          id={id}
          value={name}
          onChange={(e) => setName(e.target.value)}
          dir="auto"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={submitted && problem ? true : undefined}
          aria-describedby={`${id}-k${submitted && problem ? ` ${id}-e` : ''}`}
        />
        <p id={`${id}-k`} className="field-hint">
          {t('actions.folderKey')} <code dir="auto">{visibleText(key)}</code>
        </p>
        {submitted && problem ? (
          <p id={`${id}-e`} className="field-error">
            {t(`actions.keyProblem.${problem}`)}
          </p>
        ) : null}
      </div>
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {t('actions.createFolder')}
        </button>
      </div>
    </form>
  );
}
