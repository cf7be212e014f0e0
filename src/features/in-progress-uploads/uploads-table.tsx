import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/button.tsx';
import { ProgressBar } from '../../components/ui/progress.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from '../../lib/router.tsx';
import { ApiError } from '../../api/errors.ts';
import { abortMultipartUpload } from '../../api/multipart/operations.ts';
import type { UploadEntry } from '../../api/multipart/schemas.ts';
import { Dialog } from '../../components/dialog.tsx';
import { TypedConfirm } from '../../components/ui/typed-confirm.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useUrlDraft } from '../../hooks/use-url-draft.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { forEachConcurrently } from '../../lib/concurrency.ts';
import { formatBytes } from '../../lib/format.ts';
import { partsPageQuery } from './queries.ts';
import { formatAge } from './age.ts';
import { DEFAULT_PARTS_LIMIT, uploadsHref } from './location.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/** Parts read per upload for the table's "parts so far" and "uploaded" (one ListMultipart request, ref §8.4). */
const ROW_PARTS_LIMIT = 1000;
const DAY_MS = 86_400_000;
const AGE_CHOICES = [0, 1, 7, 30] as const;
/** Aborts sent at once when many are aborted together. */
const ABORT_CONCURRENCY = 4;

/** One in-progress upload and the bucket it lives in. */
export interface UploadRowData {
  zone: string;
  bucket: string;
  upload: UploadEntry;
}

/** An upload's identity in the selection and in React keys (a key may have several uploads; buckets differ). */
const rowId = (zone: string, bucket: string, key: string, uploadId: string) => `${zone}\u0000${bucket}\u0000${key}\u0000${uploadId}`;
const idOf = (row: UploadRowData) => rowId(row.zone, row.bucket, row.upload.key, row.upload.upload_id);

interface AbortOutcome {
  zone: string;
  bucket: string;
  key: string;
  uploadId: string;
  error?: string;
  requestId?: string;
}

/** The uploads older than `days` (all of them for 0), judged at `now`. */
export function olderThan(rows: readonly UploadRowData[], days: number, now: number): UploadRowData[] {
  if (days === 0) return [...rows];
  return rows.filter((row) => row.upload.created !== undefined && now - Date.parse(row.upload.created) >= days * DAY_MS);
}

/**
 * The table of in-progress uploads, for one bucket or across buckets (`showBucket`): a checkbox column,
 * key (linking to the parts inspector) with its upload id, initiated, age, parts and bytes so far; select
 * and abort many (asked first, a few at a time, each failure with its request id). `onAborted` receives the
 * buckets whose listings changed.
 */
export function UploadsTable({ rows, now, prefix, showBucket, onAborted, filters, notices, footer }: {
  rows: readonly UploadRowData[];
  now: number;
  prefix: string;
  showBucket: boolean;
  onAborted: (buckets: ReadonlyArray<{ zone: string; bucket: string }>) => Promise<void>;
  /** The filters, on the toolbar's start (the abort button is at its end). */
  filters: ReactNode;
  /** Shown between the toolbar and the table: loading, errors, the empty state. */
  notices?: ReactNode;
  /** Shown under the table: counts, "load more". */
  footer?: ReactNode;
}) {
  const { t, tp } = useI18n();
  const client = useClient();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const shownIds = useMemo(() => new Set(rows.map(idOf)), [rows]);
  const selection = useMemo(() => rows.filter((row) => selected.has(idOf(row))), [rows, selected]);
  const allShownSelected = rows.length > 0 && selection.length === rows.length;
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
    const targets = selection.map((row) => ({ zone: row.zone, bucket: row.bucket, key: row.upload.key, uploadId: row.upload.upload_id }));
    const results: AbortOutcome[] = [];
    setAborting({ done: 0, total: targets.length });
    await forEachConcurrently(targets, ABORT_CONCURRENCY, async (target) => {
      try {
        const written = await abortMultipartUpload(client, target);
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
    setSelected(new Set(results.filter((r) => r.error !== undefined).map((r) => rowId(r.zone, r.bucket, r.key, r.uploadId))));
    const buckets = new Map(targets.map((target) => [`${target.zone}\u0000${target.bucket}`, { zone: target.zone, bucket: target.bucket }]));
    await onAborted([...buckets.values()]);
  };

  const failed = outcomes?.filter((o) => o.error !== undefined) ?? [];
  const abortedCount = (outcomes?.length ?? 0) - failed.length;

  return (
    <>
      <div className="uploads-toolbar">
        {filters}
        <div className="uploads-toolbar__actions">
          <span className="uploads-toolbar__count" aria-live="polite">
            {selection.length > 0 ? tp('multipart.selectedCount', selection.length) : null}
          </span>
          {/* Only with a selection, and never red in a toolbar: the red button is the dialog's, after the question. */}
          {selection.length > 0 ? (
            <Button disabled={aborting !== null} onClick={() => setConfirming(true)}>
              {tp('multipart.abortSelected', selection.length)}
            </Button>
          ) : null}
        </div>
      </div>
      {aborting ? (
        <output className="uploads-progress">
          <ProgressBar max={aborting.total} value={aborting.done} tone="busy" label={t('multipart.abortingMany', { done: aborting.done, total: aborting.total })} />{' '}
          {t('multipart.abortingMany', { done: aborting.done, total: aborting.total })}
        </output>
      ) : null}
      {outcomes ? (
        <div className={failed.length ? 'notice notice--error' : 'notice'} role={failed.length ? 'alert' : 'status'}>
          <p>{failed.length ? tp('multipart.abortedSome', abortedCount, { failed: failed.length }) : tp('multipart.abortedAll', abortedCount)}</p>
          {failed.length ? (
            <ul>
              {failed.map((o) => (
                <li key={rowId(o.zone, o.bucket, o.key, o.uploadId)}>
                  {showBucket ? `${visibleText(o.bucket)}/` : ''}
                  <span dir="auto">{visibleText(o.key)}</span>: {o.error === undefined ? null : visibleText(o.error)}
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
      {notices}
      {rows.length > 0 ? (
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
                {showBucket ? (
                  <th scope="col" className="uploads-table__bucket">
                    {t('multipart.all.bucket')}
                  </th>
                ) : null}
                <th scope="col">{t('multipart.key')}</th>
                <th scope="col" className="uploads-table__initiated">
                  {t('multipart.initiated')}
                </th>
                <th scope="col" className="num">{t('multipart.age')}</th>
                <th scope="col" className="num uploads-table__parts">
                  {t('multipart.partsSoFar')}
                </th>
                <th scope="col" className="num">{t('multipart.bytesSoFar')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <UploadRow key={idOf(row)} row={row} prefix={prefix} showBucket={showBucket} now={now} checked={selected.has(idOf(row))} onToggle={() => toggle(idOf(row))} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {footer}
      <Dialog open={confirming} onClose={() => setConfirming(false)} title={tp('multipart.abortManyTitle', selection.length)}>
        <TypedConfirm
          consequence={
            <>
              <p>{t('multipart.abortManyWarning')}</p>
              <ul className="uploads-confirm-list">
                {selection.slice(0, 10).map((row) => (
                  <li key={idOf(row)} dir="auto">
                    {showBucket ? `${visibleText(row.bucket)}/` : ''}
                    {visibleText(row.upload.key)}
                  </li>
                ))}
                {selection.length > 10 ? <li>{tp('multipart.andMore', selection.length - 10)}</li> : null}
              </ul>
            </>
          }
          phrase={t('multipart.abortPhrase')}
          confirmLabel={tp('multipart.abortManyConfirm', selection.length)}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void abortSelected()}
        />
      </Dialog>
    </>
  );
}

function UploadRow({ row, prefix, showBucket, now, checked, onToggle }: {
  row: UploadRowData;
  prefix: string;
  showBucket: boolean;
  now: number;
  checked: boolean;
  onToggle: () => void;
}) {
  const { t, tp, locale, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const { zone, bucket, upload } = row;
  const parts = useQuery({ ...partsPageQuery(client, { zone, bucket, key: upload.key, uploadId: upload.upload_id }, ROW_PARTS_LIMIT, null), staleTime: 30_000 });
  const created = upload.created ? new Date(upload.created) : undefined;
  const page = parts.data?.object_parts ?? [];
  const complete = parts.data !== undefined && (parts.data.count ?? page.length) <= page.length;
  const count = parts.data ? (parts.data.count ?? page.length) : undefined;
  const bytes = page.reduce((sum, part) => sum + (part.size ?? 0), 0);
  return (
    <tr aria-selected={checked}>
      <td className="uploads-table__check">
        <input
          type="checkbox"
          checked={checked}
          onChange={onToggle}
          aria-label={showBucket ? t('multipart.all.selectUpload', { key: visibleText(upload.key), bucket }) : t('multipart.selectUpload', { key: visibleText(upload.key) })}
        />
      </td>
      {showBucket ? (
        <td className="uploads-table__bucket">
          <Link to={uploadsHref({ zone, bucket })}>{visibleText(bucket)}</Link> <span className="muted">({visibleText(zone)})</span>
        </td>
      ) : null}
      <td className="uploads-table__key">
        <Link dir="auto" to={uploadsHref({ zone, bucket, prefix, key: upload.key, upload: upload.upload_id, limit: DEFAULT_PARTS_LIMIT })}>
          {visibleText(upload.key)}
        </Link>
        <code className="uploads-table__id" title={t('multipart.uploadId')}>
          {upload.upload_id}
        </code>
        {showBucket ? (
          <span className="uploads-table__bucket-inline">
            {bucket} ({zone})
          </span>
        ) : null}
      </td>
      <td className="nowrap uploads-table__initiated">{created ? formatDateTime(created, 'short') : t('common.none')}</td>
      <td className="num nowrap">{created ? formatAge(locale, now - created.getTime()) : t('common.none')}</td>
      <td className="num nowrap uploads-table__parts">{count === undefined ? (parts.isError ? t('common.none') : '…') : tp('multipart.partCount', count, { count: formatNumber(count) })}</td>
      <td className="num nowrap">
        {parts.data === undefined ? (parts.isError ? t('common.none') : '…') : complete ? formatBytes(bytes) : <span title={t('multipart.bytesPartial', { parts: formatNumber(page.length) })}>≥ {formatBytes(bytes)}</span>}
      </td>
    </tr>
  );
}

export function AgeFilter({ value, onChange }: { value: number; onChange: (days: number) => void }) {
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

/** The key prefix filter of an uploads table: the URL changes (and the listing is asked again) once typing pauses. */
export function PrefixFilter({ prefix, onChange }: { prefix: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [value, setValue] = useUrlDraft(prefix, onChange);
  return (
    <search className="filter">
      <label htmlFor={id}>{t('multipart.prefixFilter')}</label>
      <input id={id} type="search" value={value} onChange={(e) => setValue(e.target.value)} dir="auto" spellCheck={false} autoComplete="off" />
    </search>
  );
}
