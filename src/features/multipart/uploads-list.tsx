import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { ApiError } from '../../api/errors.ts';
import { abortMultipartUpload } from '../../api/multipart/operations.ts';
import { listMultipartUploadsInfiniteQuery, uploadListsKey } from '../../api/multipart/queries.ts';
import type { UploadEntry } from '../../api/multipart/schemas.ts';
import { Dialog } from '../../components/dialog.tsx';
import { SkeletonRows } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { forEachConcurrently } from '../../lib/concurrency.ts';
import { formatBytes } from '../../lib/format.ts';
import { partsPageQuery } from './data.ts';
import { formatAge } from './age.ts';
import { AutoAbortRule } from './auto-abort-rule.tsx';
import { DEFAULT_PARTS_LIMIT, uploadsHref } from './location.ts';
import { UploadErrorNotice } from './upload-error.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/** Uploads per ListMultipartUploads request (ref §8.7: default 200, max 1000). */
export const UPLOADS_PAGE_LIMIT = 50;
const FILTER_DEBOUNCE_MS = 250;
/** Parts read per upload for the table's "parts so far" and "uploaded" (one ListMultipart request, ref §8.4). */
const ROW_PARTS_LIMIT = 1000;
const DAY_MS = 86_400_000;
const AGE_CHOICES = [0, 1, 7, 30] as const;
/** Aborts sent at once when many are aborted together. */
const ABORT_CONCURRENCY = 4;

/** One upload's identity in the selection and in React keys: its key and id (a key may have several uploads). */
const selectionId = (key: string, id: string) => `${key}\u0000${id}`;
const rowId = (upload: UploadEntry) => selectionId(upload.key, upload.upload_id);

interface AbortOutcome {
  key: string;
  uploadId: string;
  error?: string;
  requestId?: string;
}

export function UploadsList({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useInfiniteQuery(listMultipartUploadsInfiniteQuery(client, { zone, bucket, prefix, limit: UPLOADS_PAGE_LIMIT }));
  const uploads = useMemo(() => query.data?.pages.flatMap((page) => page.uploads) ?? [], [query.data]);
  const listHref = uploadsHref({ zone, bucket, prefix });
  const [minAgeDays, setMinAgeDays] = useState<number>(0);
  // The clock the age filter and the Age column read: when the list was last loaded.
  const now = query.dataUpdatedAt;
  const shown = useMemo(
    () => (minAgeDays === 0 ? uploads : uploads.filter((u) => u.created !== undefined && now - Date.parse(u.created) >= minAgeDays * DAY_MS)),
    [uploads, minAgeDays, now],
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const shownIds = useMemo(() => new Set(shown.map(rowId)), [shown]);
  const selection = useMemo(() => shown.filter((u) => selected.has(rowId(u))), [shown, selected]);
  const allShownSelected = shown.length > 0 && selection.length === shown.length;
  const [confirming, setConfirming] = useState(false);
  const [aborting, setAborting] = useState<{ done: number; total: number } | null>(null);
  const [outcomes, setOutcomes] = useState<AbortOutcome[] | null>(null);

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set([...current].filter((item) => shownIds.has(item)));
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const abortSelected = async () => {
    setConfirming(false);
    const targets = selection.map((u) => ({ key: u.key, uploadId: u.upload_id }));
    const results: AbortOutcome[] = [];
    setAborting({ done: 0, total: targets.length });
    await forEachConcurrently(targets, ABORT_CONCURRENCY, async (target) => {
      try {
        const written = await abortMultipartUpload(client, { zone, bucket, key: target.key, uploadId: target.uploadId });
        results.push({ ...target, ...(written.requestId ? { requestId: written.requestId } : {}) });
      } catch (error) {
        results.push({
          ...target,
          error: error instanceof Error ? error.message : String(error),
          ...(error instanceof ApiError && error.requestId ? { requestId: error.requestId } : {}),
        });
      }
      setAborting({ done: results.length, total: targets.length });
    });
    setAborting(null);
    setOutcomes(results);
    setSelected(new Set(results.filter((r) => r.error !== undefined).map((r) => selectionId(r.key, r.uploadId))));
    await queryClient.invalidateQueries({ queryKey: uploadListsKey(client, bucket) });
  };

  const failed = outcomes?.filter((o) => o.error !== undefined) ?? [];
  const abortedCount = (outcomes?.length ?? 0) - failed.length;

  return (
    <>
      <AutoAbortRule zone={zone} bucket={bucket} />
      <section aria-labelledby="uploads-list-title" className="uploads-list">
        <h2 id="uploads-list-title">{t('multipart.listTitle')}</h2>
        <div className="uploads-toolbar">
          <PrefixFilter prefix={prefix} onChange={(value) => navigate(uploadsHref({ zone, bucket, prefix: value }), { replace: true })} />
          <AgeFilter value={minAgeDays} onChange={setMinAgeDays} />
          <div className="uploads-toolbar__actions">
            <span className="uploads-toolbar__count" aria-live="polite">
              {selection.length > 0 ? tp('multipart.selectedCount', selection.length) : null}
            </span>
            <button type="button" className="button button--danger" disabled={selection.length === 0 || aborting !== null} onClick={() => setConfirming(true)}>
              {selection.length > 0 ? tp('multipart.abortSelected', selection.length) : t('multipart.abortSelectedNone')}
            </button>
          </div>
        </div>
        {aborting ? (
          <output className="uploads-progress">
            <progress max={aborting.total} value={aborting.done} aria-label={t('multipart.abortingMany', { done: aborting.done, total: aborting.total })} />{' '}
            {t('multipart.abortingMany', { done: aborting.done, total: aborting.total })}
          </output>
        ) : null}
        {outcomes ? (
          <div className={failed.length ? 'notice notice--error' : 'notice'} role={failed.length ? 'alert' : 'status'}>
            <p>{failed.length ? tp('multipart.abortedSome', abortedCount, { failed: failed.length }) : tp('multipart.abortedAll', abortedCount)}</p>
            {failed.length ? (
              <ul>
                {failed.map((o) => (
                  <li key={selectionId(o.key, o.uploadId)}>
                    <span dir="auto">{o.key}</span>: {o.error}
                    {o.requestId ? ` (${t('error.requestId')}: ${o.requestId})` : ''}
                  </li>
                ))}
              </ul>
            ) : null}
            <button type="button" className="button button--small" onClick={() => setOutcomes(null)}>
              {t('common.close')}
            </button>
          </div>
        ) : null}
        {query.isError && !query.data ? (
          <>
            <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.refetch()} />
            <OpenUploadForm onOpen={(key, uploadId) => navigate(uploadsHref({ zone, bucket, prefix, key, upload: uploadId, limit: DEFAULT_PARTS_LIMIT }))} />
          </>
        ) : null}
        {query.isPending ? <SkeletonRows label={t('app.loading')} columns={5} /> : null}
        {query.data ? (
          <>
            {shown.length === 0 ? (
              <p className="empty-state">
                {uploads.length > 0 ? tp('multipart.noneOlder', minAgeDays) : prefix ? t('multipart.noneWithPrefix', { prefix }) : t('multipart.none')}
              </p>
            ) : (
              <div className="table-scroll">
                <table className="table uploads-table" aria-label={t('multipart.listTitle')}>
                  <thead>
                    <tr>
                      <th scope="col" className="uploads-table__check">
                        <input
                          type="checkbox"
                          aria-label={t('multipart.selectAllShown')}
                          checked={allShownSelected}
                          ref={(input) => {
                            if (input) input.indeterminate = selection.length > 0 && !allShownSelected;
                          }}
                          onChange={() => setSelected(allShownSelected ? new Set() : new Set(shownIds))}
                        />
                      </th>
                      <th scope="col">{t('multipart.key')}</th>
                      <th scope="col">{t('multipart.initiated')}</th>
                      <th scope="col" className="num">{t('multipart.age')}</th>
                      <th scope="col" className="num">{t('multipart.partsSoFar')}</th>
                      <th scope="col" className="num">{t('multipart.bytesSoFar')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((upload) => (
                      <UploadRow
                        key={rowId(upload)}
                        zone={zone}
                        bucket={bucket}
                        prefix={prefix}
                        upload={upload}
                        now={now}
                        checked={selected.has(rowId(upload))}
                        onToggle={() => toggle(rowId(upload))}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p className="uploads-footer">
              <output data-testid="uploads-status">
                {query.hasNextPage ? tp('multipart.loadedMore', uploads.length) : tp('multipart.loaded', uploads.length)}
              </output>
              {minAgeDays > 0 ? <span className="muted"> · {tp('multipart.filteredLoaded', shown.length, { days: minAgeDays })}</span> : null}{' '}
              {query.hasNextPage ? (
                <button type="button" className="button button--small" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                  {query.isFetchingNextPage ? t('app.loading') : t('multipart.loadMore')}
                </button>
              ) : null}
            </p>
            {query.isFetchNextPageError ? <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.fetchNextPage()} /> : null}
          </>
        ) : null}
        <Dialog open={confirming} onClose={() => setConfirming(false)} title={tp('multipart.abortManyTitle', selection.length)}>
          <p>{t('multipart.abortManyWarning')}</p>
          <ul className="uploads-confirm-list">
            {selection.slice(0, 10).map((u) => (
              <li key={rowId(u)} dir="auto">
                {u.key}
              </li>
            ))}
            {selection.length > 10 ? <li>{tp('multipart.andMore', selection.length - 10)}</li> : null}
          </ul>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button--danger" onClick={() => void abortSelected()}>
              {tp('multipart.abortManyConfirm', selection.length)}
            </button>
          </div>
        </Dialog>
      </section>
    </>
  );
}

function UploadRow({ zone, bucket, prefix, upload, now, checked, onToggle }: {
  zone: string;
  bucket: string;
  prefix: string;
  upload: UploadEntry;
  now: number;
  checked: boolean;
  onToggle: () => void;
}) {
  const { t, tp, locale, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const parts = useQuery({ ...partsPageQuery(client, { zone, bucket, key: upload.key, uploadId: upload.upload_id }, ROW_PARTS_LIMIT, null), staleTime: 30_000 });
  const created = upload.created ? new Date(upload.created) : undefined;
  const page = parts.data?.object_parts ?? [];
  const complete = parts.data !== undefined && (parts.data.count ?? page.length) <= page.length;
  const count = parts.data ? (parts.data.count ?? page.length) : undefined;
  const bytes = page.reduce((sum, part) => sum + (part.size ?? 0), 0);
  return (
    <tr aria-selected={checked}>
      <td className="uploads-table__check">
        <input type="checkbox" checked={checked} onChange={onToggle} aria-label={t('multipart.selectUpload', { key: upload.key })} />
      </td>
      <td className="uploads-table__key">
        <Link dir="auto" to={uploadsHref({ zone, bucket, prefix, key: upload.key, upload: upload.upload_id, limit: DEFAULT_PARTS_LIMIT })}>
          {upload.key}
        </Link>
        <code className="uploads-table__id" title={t('multipart.uploadId')}>
          {upload.upload_id}
        </code>
      </td>
      <td className="nowrap">{created ? formatDateTime(created, 'short') : t('common.none')}</td>
      <td className="num nowrap">{created ? formatAge(locale, now - created.getTime()) : t('common.none')}</td>
      <td className="num nowrap">{count === undefined ? (parts.isError ? t('common.none') : '…') : tp('multipart.partCount', count, { count: formatNumber(count) })}</td>
      <td className="num nowrap">
        {parts.data === undefined ? (parts.isError ? t('common.none') : '…') : complete ? formatBytes(bytes) : <span title={t('multipart.bytesPartial', { parts: formatNumber(page.length) })}>≥ {formatBytes(bytes)}</span>}
      </td>
    </tr>
  );
}

function AgeFilter({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  const { t, tp } = useI18n();
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{t('multipart.ageFilter')}</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {AGE_CHOICES.map((days) => (
          <option key={days} value={days}>
            {days === 0 ? t('multipart.ageAny') : tp('multipart.olderThan', days)}
          </option>
        ))}
      </select>
    </div>
  );
}

function PrefixFilter({ prefix, onChange }: { prefix: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState({ base: prefix, value: prefix });
  const value = draft.base === prefix ? draft.value : prefix;
  useEffect(() => {
    if (value === prefix) return;
    const timer = setTimeout(() => onChange(value), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, prefix, onChange]);
  return (
    <search className="filter">
      <label htmlFor={id}>{t('multipart.prefixFilter')}</label>
      <input id={id} type="search" value={value} onChange={(e) => setDraft({ base: prefix, value: e.target.value })} dir="auto" spellCheck={false} autoComplete="off" />
    </search>
  );
}

/** Anonymous users cannot list uploads (ref §10) but may read the parts of one they know. */
function OpenUploadForm({ onOpen }: { onOpen: (key: string, uploadId: string) => void }) {
  const { t } = useI18n();
  const keyId = useId();
  const idId = useId();
  const [key, setKey] = useState('');
  const [uploadId, setUploadId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key !== '' && uploadId.trim() !== '') onOpen(key, uploadId.trim());
  };
  return (
    <form className="notice" onSubmit={submit}>
      <p>{t('multipart.openByIdHint')}</p>
      <div className="inline-form__fields">
        <label htmlFor={keyId}>{t('multipart.key')}</label>
        <input id={keyId} value={key} onChange={(e) => setKey(e.target.value)} dir="auto" spellCheck={false} required />
        <label htmlFor={idId}>{t('multipart.uploadId')}</label>
        <input id={idId} value={uploadId} onChange={(e) => setUploadId(e.target.value)} spellCheck={false} required />
        <button type="submit" className="button">
          {t('multipart.openById')}
        </button>
      </div>
    </form>
  );
}
