import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { deleteObjectsMutation, listObjectsInfiniteQuery } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { BrowseLocation } from '../../hooks/browse-location.ts';
import { useClient } from '../../hooks/use-client.ts';
import { isMessageKey, useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';

/** Same page size as the object browser, so both read the same cached listing pages. */
const PAGE_LIMIT = 1000;

export interface Selection {
  zone: string;
  bucket: string;
  keys: readonly string[];
}

/**
 * Selection mode for the folder being shown: a dialog listing the loaded objects as checkboxes (plain
 * form controls: Tab, Space and screen readers work as everywhere), "select all loaded", and actions on
 * the chosen keys — delete here, others (bulk metadata edit) passed in by the app.
 */
export function SelectionMode({ location, actions }: { location: BrowseLocation; actions?: (selection: Selection) => ReactNode }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {t('actions.select')}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('actions.selectTitle', { location: `${location.bucket}/${location.prefix}` })}>
        <SelectionPanel location={location} {...(actions ? { actions } : {})} />
      </Dialog>
    </>
  );
}

function SelectionPanel({ location, actions }: { location: BrowseLocation; actions?: (selection: Selection) => ReactNode }) {
  const { t } = useI18n();
  const client = useClient();
  const { zone, bucket, prefix, filter, flat } = location;
  const listPrefix = prefix + filter;
  const query = useInfiniteQuery(listObjectsInfiniteQuery(client, { zone, bucket, prefix: listPrefix, delimiter: flat ? '' : '/', limit: PAGE_LIMIT }));
  const keys = useMemo(
    () => (query.data ? query.data.pages.flatMap((page) => page.keys.map((k) => k.key)).filter((key) => key !== prefix) : []),
    [query.data, prefix],
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Keys that disappeared (deleted, moved) leave the selection.
  const chosen = keys.filter((key) => selected.has(key));
  const allRef = useRef<HTMLInputElement>(null);
  const allId = useId();
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = chosen.length > 0 && chosen.length < keys.length;
  }, [chosen.length, keys.length]);

  const toggle = (key: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <div className="selection">
      {query.isError ? <ErrorNotice error={query.error} onRetry={() => void query.refetch()} /> : null}
      <div className="selection__head">
        <input
          ref={allRef}
          id={allId}
          type="checkbox"
          checked={keys.length > 0 && chosen.length === keys.length}
          disabled={keys.length === 0}
          onChange={(e) => setSelected(e.target.checked ? new Set(keys) : new Set())}
        />
        <label htmlFor={allId}>{t('actions.selectAllLoaded', { count: keys.length })}</label>
        {query.hasNextPage ? (
          <button type="button" className="button button--small" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {t('actions.loadMore')}
          </button>
        ) : null}
      </div>
      <fieldset className="selection__list">
        <legend>{t('actions.objects')}</legend>
        {keys.length === 0 && query.isSuccess ? <p>{t('actions.noObjects')}</p> : null}
        <ul>
          {keys.map((key) => (
            <li key={key}>
              <label dir="auto">
                <input type="checkbox" checked={selected.has(key)} onChange={(e) => toggle(key, e.target.checked)} /> {key.slice(prefix.length)}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <output className="status-line" data-testid="selection-count">
        {t('actions.selectedCount', { count: chosen.length })}
      </output>
      <div className="dialog__actions">
        {actions ? actions({ zone, bucket, keys: chosen }) : null}
        <DeleteSelected zone={zone} bucket={bucket} keys={chosen} onDeleted={(deleted) => setSelected((previous) => new Set([...previous].filter((k) => !deleted.has(k))))} />
      </div>
    </div>
  );
}

/** Deletes the selection with DeleteMultipleObjects (ref §5.9), at most 1000 keys per request. */
export function DeleteSelected({ zone, bucket, keys, onDeleted }: { zone: string; bucket: string; keys: readonly string[]; onDeleted: (keys: ReadonlySet<string>) => void }) {
  const { t } = useI18n();
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
        disabled={keys.length === 0}
        onClick={() => {
          setFrozen([...keys]);
          remove.reset();
          setOpen(true);
        }}
      >
        {t('actions.deleteSelected', { count: keys.length })}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('actions.deleteSelectedTitle', { count: frozen.length })}>
        {remove.data ? (
          <div>
            <output className="status-line">{t('actions.deletedCount', { count: remove.data.deleted.length })}</output>
            {remove.data.errors.length > 0 ? (
              <ul className="notice notice--error" role="alert">
                {remove.data.errors.map((e) => {
                  const explain = `qs.${e.code}`;
                  return (
                    <li key={e.key} dir="auto">
                      {e.key}: <code>{e.code}</code> — {isMessageKey(explain) ? t(explain) : (e.message ?? '')}
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
            <p>{t('actions.deleteSelectedConfirm', { count: frozen.length })}</p>
            <ul className="selection__preview">
              {frozen.slice(0, 10).map((key) => (
                <li key={key} dir="auto" className="mono">
                  {key}
                </li>
              ))}
              {frozen.length > 10 ? <li>{t('actions.andMore', { count: frozen.length - 10 })}</li> : null}
            </ul>
            {remove.isError ? <ErrorNotice error={remove.error} /> : null}
            <div className="dialog__actions">
              <button type="button" className="button button--danger" onClick={() => remove.mutate({ zone, bucket, keys: frozen }, { onSuccess: (result) => onDeleted(new Set(result.deleted)) })} disabled={remove.isPending}>
                {t('actions.deleteConfirmButton')}
              </button>
              <button type="button" className="button" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
