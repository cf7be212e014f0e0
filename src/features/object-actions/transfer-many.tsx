import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { transferDestKey, transferObjectsMutation } from '../../api/objects/transfer-queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useUnsavedGuard } from '../../components/unsaved-guard.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { toast } from '../../components/toast.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
import { BrowseDestination, folderOf } from './destination-fields.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/transfer.ts';
import { visibleText } from '../../lib/visible-text.ts';

/**
 * Copy or move the selected objects into one folder (each keeps its name and metadata), one after another
 * with progress and Stop, then what was written, skipped and refused, key by key. Replacing what already
 * stands at a destination is opt-in: by default such objects are skipped.
 */
export function TransferManyDialog({ mode, zone, bucket, keys, onClose }: { mode: 'copy' | 'move'; zone: string; bucket: string; keys: readonly string[]; onClose: () => void }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const id = useId();
  const [frozen] = useState(() => [...keys]);
  const [destBucket, setDestBucket] = useState(bucket);
  const [initialFolder] = useState(() => folderOf(frozen[0] ?? ''));
  const [destFolder, setDestFolder] = useState(initialFolder);
  const [skipExisting, setSkipExisting] = useState(true);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const stop = useRef<AbortController | null>(null);
  const transfer = useMutation(transferObjectsMutation(client, queryClient));
  const destPrefix = destFolder === '' || destFolder.endsWith('/') ? destFolder.replace(/^\/+/, '') : `${destFolder.replace(/^\/+/, '')}/`;
  const same = destBucket === bucket && frozen.every((key) => transferDestKey(key, destPrefix) === key);
  const location = `${destBucket}/${destPrefix}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (same || destBucket === '') return;
    const controller = new AbortController();
    stop.current = controller;
    setProgress({ done: 0, total: frozen.length });
    transfer.mutate(
      { zone, bucket, mode, keys: frozen, destBucket, destPrefix, skipExisting, signal: controller.signal, onProgress: (done, total) => setProgress({ done, total }) },
      {
        onSuccess: (outcome) => {
          const failed = outcome.errors.length > 0;
          toast(tp(mode === 'copy' ? 'transfer.copied' : 'transfer.moved', outcome.written.length, { location }), { tone: failed ? 'error' : 'success' });
        },
      },
    );
  };

  const title = t(mode === 'copy' ? 'transfer.copyTitle' : 'transfer.moveTitle', { count: frozen.length });
  const outcome = transfer.data;
  // Closing stops what has not started yet; before the start, a typed destination is asked about first.
  const guard = useUnsavedGuard(() => {
    stop.current?.abort();
    onClose();
  });
  const dirty = !outcome && !transfer.isPending && (destBucket !== bucket || destFolder !== initialFolder);
  const { setDirty } = guard;
  useEffect(() => setDirty(dirty), [setDirty, dirty]);
  return (
    <Dialog open onClose={() => {
      stop.current?.abort();
      onClose();
    }} title={title} guard={guard}>
      {outcome ? (
        <div>
          <output className="status-line" data-testid="transfer-result">
            {tp(mode === 'copy' ? 'transfer.copied' : 'transfer.moved', outcome.written.length, { location })}
            {outcome.skipped.length > 0 ? ` ${tp('transfer.skipped', outcome.skipped.length)}` : ''}
            {outcome.cancelled ? ` ${t('transfer.stopped')}` : ''}
          </output>
          {outcome.errors.length > 0 ? (
            <ul className="notice notice--error" role="alert">
              {outcome.errors.map((e) => {
                const explain = `qs.${e.code}`;
                return (
                  <li key={e.key} dir="auto">
                    {visibleText(e.key)}: <code>{e.code}</code> — {isMessageKey(explain) ? t(explain) : e.message}
                  </li>
                );
              })}
            </ul>
          ) : null}
          <div className="dialog__actions">
            <button type="button" className="button" onClick={onClose}>
              {t('common.close')}
            </button>
          </div>
        </div>
      ) : transfer.isPending ? (
        <div>
          <progress max={progress?.total ?? frozen.length} value={progress?.done ?? 0} aria-labelledby={`${id}-p`} />
          <output id={`${id}-p`} className="status-line">
            {t('transfer.progress', { done: progress?.done ?? 0, total: progress?.total ?? frozen.length })}
          </output>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => stop.current?.abort()}>
              {t('transfer.stop')}
            </button>
          </div>
        </div>
      ) : (
        <form className="object-actions-form" onSubmit={onSubmit} noValidate>
          <ul className="selection__preview">
            {frozen.slice(0, 5).map((key) => (
              <li key={key} dir="auto" className="mono">
                {visibleText(key)}
              </li>
            ))}
            {frozen.length > 5 ? <li>{t('actions.andMore', { count: frozen.length - 5 })}</li> : null}
          </ul>
          <div className="field">
            <label htmlFor={`${id}-b`}>{t('actions.destBucket')}</label>
            <input id={`${id}-b`} value={destBucket} onChange={(e) => setDestBucket(e.target.value)} spellCheck={false} autoComplete="off" />
          </div>
          <BrowseDestination
            zone={zone}
            initial={{ bucket: destBucket, prefix: destPrefix }}
            onPick={(picked) => {
              setDestBucket(picked.bucket);
              setDestFolder(picked.prefix);
            }}
          />
          <div className="field">
            <label htmlFor={`${id}-f`}>{t('transfer.destFolder')}</label>
            <input
              id={`${id}-f`}
              value={destFolder}
              onChange={(e) => setDestFolder(e.target.value)}
              dir="auto"
              spellCheck={false}
              autoComplete="off"
              aria-describedby={`${id}-h`}
              aria-invalid={same ? true : undefined}
            />
            <p id={`${id}-h`} className="field-hint">
              {t('transfer.destHint', { example: `${destBucket}/${transferDestKey(frozen[0] ?? '', destPrefix)}` })}
            </p>
            {same ? <p className="field-error">{t('transfer.sameFolder')}</p> : null}
          </div>
          {!same && destBucket !== '' ? (
            <div className="field">
              <p id={`${id}-k`} className="field-hint">
                {t('picker.finalKeys')}
              </p>
              <ul className="selection__preview" aria-labelledby={`${id}-k`} data-testid="final-destinations">
                {frozen.slice(0, 5).map((key) => (
                  <li key={key} dir="auto" className="mono">
                    {`${destBucket}/${transferDestKey(key, destPrefix)}`}
                  </li>
                ))}
                {frozen.length > 5 ? <li>{t('actions.andMore', { count: frozen.length - 5 })}</li> : null}
              </ul>
            </div>
          ) : null}
          <label>
            <input type="checkbox" checked={skipExisting} onChange={(e) => setSkipExisting(e.target.checked)} /> {t('transfer.skipExisting')}
          </label>
          {transfer.isError ? <ErrorNotice error={transfer.error} /> : null}
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => guard.requestClose()}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button button--primary" disabled={same || destBucket === ''}>
              {t('transfer.start')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
