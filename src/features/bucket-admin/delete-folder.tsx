import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { visibleText } from '../../lib/visible-text.ts';
import { deleteObjectsMutation, prefixScanQuery, type DeleteObjectsOutcome } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { browseHref, parentPrefix } from '../../hooks/browse-location.ts';
import { useClient } from '../../hooks/use-client.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { useNavigate } from '../../lib/router.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './bucket-admin.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';


/**
 * "Delete folder" (from the folder's menu in the toolbar, or a folder row's menu), open from the start: counts
 * every key under the folder first (ListObjects without a delimiter), then, once confirmed, deletes them with
 * DeleteMultipleObjects in batches of 1000 (ref §5.9), showing progress; Cancel stops before the next batch.
 * Every key the server refused is listed with its code.
 */
export function DeleteFolderDialog({ zone, bucket, prefix, onClose }: { zone: string; bucket: string; prefix: string; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open onClose={onClose} title={t('admin.folder.title', { location: `${bucket}/${visibleText(prefix)}` })} subject={`${bucket}/${visibleText(prefix)}`}>
      <DeleteFolderFlow zone={zone} bucket={bucket} prefix={prefix} onClose={onClose} />
    </Dialog>
  );
}

function DeleteFolderFlow({ zone, bucket, prefix, onClose }: { zone: string; bucket: string; prefix: string; onClose: () => void }) {
  const { t } = useI18n();
  const progressId = useId();
  const [stopping, setStopping] = useState(false);
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [scanned, setScanned] = useState(0);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const stop = useRef<AbortController | null>(null);
  const remove = useMutation(deleteObjectsMutation(client, queryClient));
  // Counting stops once deleting starts: the listing refresh after the delete must not recount here.
  const scan = useQuery({ ...prefixScanQuery(client, { zone, bucket, prefix }, (s) => setScanned(s.keys.length)), enabled: remove.isIdle });

  const close = () => {
    stop.current?.abort();
    onClose();
  };

  if (scan.isError && remove.isIdle) {
    return (
      <>
        <ErrorNotice error={scan.error} onRetry={() => void scan.refetch()} />
        <ActionRow>
          <Button onClick={close}>{t('common.cancel')}</Button>
        </ActionRow>
      </>
    );
  }
  if (remove.isIdle) {
    if (!scan.data) {
      return (
        <>
          <output className="admin-status">{t('admin.folder.counting', { count: scanned })}</output>
          <ActionRow>
            <Button onClick={close}>{t('common.cancel')}</Button>
          </ActionRow>
        </>
      );
    }
    const { keys, size } = scan.data;
    const start = () => {
      const controller = new AbortController();
      stop.current = controller;
      setProgress({ done: 0, total: keys.length });
      remove.mutate({ zone, bucket, keys, signal: controller.signal, onProgress: (done, total) => setProgress({ done, total }) });
    };
    return (
      <>
        <output className="admin-status" data-testid="folder-count">
          {t('admin.folder.counted', { count: keys.length, size: formatBytes(size) })}
        </output>
        <p>{t('admin.folder.confirm')}</p>
        <ActionRow>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button variant="danger" onClick={start}>
            {t('admin.folder.confirmButton', { count: keys.length })}
          </Button>
        </ActionRow>
      </>
    );
  }
  if (remove.isPending) {
    const done = progress?.done ?? 0;
    const total = progress?.total ?? 0;
    return (
      <>
        <label className="admin-status" htmlFor={progressId}>{t('admin.folder.progressLabel')}</label>
        <progress id={progressId} className="admin-progress" max={total} value={done} />
        <output className="admin-status">{t('admin.folder.progress', { done, total })}</output>
        <ActionRow>
          <Button disabled={stopping} onClick={() => {
            stop.current?.abort();
            setStopping(true);
          }}>
            {stopping ? t('admin.folder.stopping') : t('admin.folder.stop')}
          </Button>
        </ActionRow>
      </>
    );
  }
  if (remove.isError) {
    return (
      <>
        <ErrorNotice error={remove.error} />
        <ActionRow>
          <Button onClick={close}>{t('common.close')}</Button>
        </ActionRow>
      </>
    );
  }
  const outcome: DeleteObjectsOutcome = remove.data ?? { deleted: [], errors: [], cancelled: false };
  const total = scan.data?.keys.length ?? 0;
  const untouched = total - outcome.deleted.length - outcome.errors.length;
  const complete = !outcome.cancelled && outcome.errors.length === 0;
  return (
    <>
      <output className="admin-status" data-testid="folder-result">
        {t('admin.folder.deleted', { count: outcome.deleted.length, total })}
      </output>
      {outcome.cancelled ? <p className="notice notice--warn">{t('admin.folder.cancelled', { count: untouched })}</p> : null}
      {outcome.errors.length > 0 ? (
        <div className="notice notice--error" role="alert">
          <h3>{t('admin.folder.failures', { count: outcome.errors.length })}</h3>
          <ul className="admin-failures">
            {outcome.errors.map((e) => {
              const key = `qs.${e.code}`;
              return (
                <li key={e.key}>
                  <code dir="auto">{visibleText(e.key)}</code>: <code>{e.code}</code> {isMessageKey(key) ? t(key) : (e.message ?? '')}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <ActionRow>
        <Button onClick={onClose}>{t('common.close')}</Button>
        {complete ? (
          <Button variant="primary" onClick={() => {
            onClose();
            navigate(browseHref({ zone, bucket, prefix: parentPrefix(prefix) }));
          }}>
            {t('admin.folder.toParent')}
          </Button>
        ) : null}
      </ActionRow>
    </>
  );
}
