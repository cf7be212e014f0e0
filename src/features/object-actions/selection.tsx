import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TransferManyDialog } from './transfer-many.tsx';
import type { ObjectAction, ObjectActionsProps, ReplaceMetadataRenderer } from './action-props.ts';
import { downloadObject } from './download.tsx';
import { ObjectActionDialog } from './object-action-dialog.tsx';
import { deleteObjectsMutation } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';
import { visibleText } from '../../lib/visible-text.ts';

/** Deletes the selection with DeleteMultipleObjects (ref §5.9), at most 1000 keys per request. */
export function DeleteSelected({ zone, bucket, keys, onDeleted }: { zone: string; bucket: string; keys: readonly string[]; onDeleted: (keys: ReadonlySet<string>) => void }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [frozen, setFrozen] = useState<readonly string[]>([]);
  const remove = useMutation(deleteObjectsMutation(client, queryClient));
  return (
    <>
      <button
        type="button"
        className="button button--danger"
        data-action="delete-selected"
        disabled={keys.length === 0}
        onClick={() => {
          setFrozen([...keys]);
          remove.reset();
          setOpen(true);
        }}
      >
        {t('actions.deleteSelected', { count: keys.length })}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={tp('actions.deleteSelectedTitle', frozen.length)}>
        {remove.data ? (
          <div>
            <output className="status-line">{tp('actions.deletedCount', remove.data.deleted.length)}</output>
            {remove.data.errors.length > 0 ? (
              <ul className="notice notice--error" role="alert">
                {remove.data.errors.map((e) => {
                  const explain = `qs.${e.code}`;
                  return (
                    <li key={e.key} dir="auto">
                      {visibleText(e.key)}: <code>{e.code}</code> — {isMessageKey(explain) ? t(explain) : (e.message ?? '')}
                    </li>
                  );
                })}
              </ul>
            ) : null}
            <div className="dialog__actions">
              <button type="button" className="button" onClick={() => setOpen(false)}>
                {t('common.close')}
              </button>
            </div>
          </div>
        ) : (
          <div>
            <p>{tp('actions.deleteSelectedConfirm', frozen.length)}</p>
            <ul className="selection__preview">
              {frozen.slice(0, 10).map((key) => (
                <li key={key} dir="auto" className="mono">
                  {visibleText(key)}
                </li>
              ))}
              {frozen.length > 10 ? <li>{t('actions.andMore', { count: frozen.length - 10 })}</li> : null}
            </ul>
            {remove.isError ? <ErrorNotice error={remove.error} /> : null}
            <div className="dialog__actions">
              <button type="button" className="button" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </button>
              <button type="button" className="button button--danger" onClick={() =>
                  remove.mutate(
                    { zone, bucket, keys: frozen },
                    {
                      onSuccess: (result) => {
                        const failed = result.errors.length;
                        // Keys the service refused are listed in the dialog, which stays open; the toast marks that with its tone.
                        toast(tp('toast.deleted', result.deleted.length, { bucket }), { tone: failed > 0 ? 'error' : 'success' });
                        onDeleted(new Set(result.deleted));
                      },
                    },
                  )
                } disabled={remove.isPending}>
                {t('actions.deleteConfirmButton')}
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}

/**
 * The selection bar's Download (one object), Copy and Move: one object opens the same dialogs as its details
 * panel; several are copied or moved into one folder (TransferManyDialog).
 */
export function SingleObjectActions({ zone, bucket, keys, onNavigate, renderReplaceMetadata }: {
  zone: string;
  bucket: string;
  keys: readonly string[];
  onNavigate: ObjectActionsProps['onNavigate'];
  renderReplaceMetadata?: ReplaceMetadataRenderer;
}) {
  const { t } = useI18n();
  const client = useClient();
  const demo = useConnectedSession().mode === 'demo';
  const [open, setOpen] = useState<{ action: ObjectAction; keys: readonly string[] } | null>(null);
  const key = keys.length === 1 ? keys[0] : undefined;
  const choose = (action: ObjectAction) => () => {
    if (keys.length > 0) setOpen({ action, keys: [...keys] });
  };
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={key === undefined}
        title={key === undefined ? t('selection.oneOnly') : undefined}
        onClick={() => {
          if (key !== undefined) downloadObject(client, { zone, bucket, key }, demo).catch(() => toast(t('menu.downloadFailed'), { tone: 'error' }));
        }}
      >
        {t('menu.download')}
      </button>
      <button type="button" className="button" disabled={keys.length === 0} onClick={choose('copy')}>
        {t('menu.copy')}
      </button>
      <button type="button" className="button" disabled={keys.length === 0} onClick={choose('move')}>
        {t('selection.move')}
      </button>
      {open && open.keys.length === 1 && open.keys[0] !== undefined ? (
        <ObjectActionDialog
          action={open.action}
          zone={zone}
          bucket={bucket}
          objectKey={open.keys[0]}
          onClose={() => setOpen(null)}
          onNavigate={onNavigate}
          renderReplaceMetadata={renderReplaceMetadata}
        />
      ) : null}
      {open && open.keys.length > 1 && open.action !== 'delete' ? (
        <TransferManyDialog mode={open.action} zone={zone} bucket={bucket} keys={open.keys} onClose={() => setOpen(null)} />
      ) : null}
    </>
  );
}
