import ChevronDown from 'lucide-react/icons/chevron-down';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import RotateCw from 'lucide-react/icons/rotate-cw';
import Square from 'lucide-react/icons/square';
import X from 'lucide-react/icons/x';
import { useState } from 'react';
import { IconButton } from '../../../components/ui/icon-button.tsx';
import { ProgressBar } from '../../../components/ui/progress.tsx';
import { Status, type StatusTone } from '../../../components/ui/status.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { visibleText } from '../../../lib/visible-text.ts';
import type { UploadItem, UploadQueue } from '../engine/index.ts';
import { ItemError, percent, stateLabel } from './upload-items.tsx';
import { formatEta, formatSpeed } from './rate-format.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';

const TONES: Record<UploadItem['state'], StatusTone> = {
  queued: 'neutral',
  running: 'busy',
  paused: 'warn',
  done: 'ok',
  failed: 'danger',
  cancelled: 'neutral',
};

/**
 * The transfers as a compact table: name, size, progress, status and the actions of each file, one row of at
 * most 48 px each. What only a closer look needs (speed, parts, the upload id, the ETag) is in the row's
 * details, opened by the chevron; a failure's explanation is shown there without opening it.
 */
export function UploadTable({ items, queue }: { items: readonly UploadItem[]; queue: UploadQueue }) {
  const { t } = useI18n();
  if (items.length === 0) return null;
  return (
    <table className="upload-table" aria-label={t('uploads.items')}>
      <thead>
        <tr>
          <th scope="col">{t('uploads.col.name')}</th>
          <th scope="col" className="upload-table__size">{t('uploads.col.size')}</th>
          <th scope="col" className="upload-table__progress">{t('uploads.col.progress')}</th>
          <th scope="col" className="upload-table__status">{t('uploads.col.status')}</th>
          <th scope="col" className="upload-table__actions">
            <span className="visually-hidden">{t('uploads.col.actions')}</span>
          </th>
        </tr>
      </thead>
      {items.map((item) => (
        <UploadRows key={item.id} item={item} queue={queue} />
      ))}
    </table>
  );
}

/** One file: its row, and under it a row with why it failed (always) and its details (when opened). */
function UploadRows({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const detailsId = `upload-details-${item.id}`;
  const name = item.key.split('/').filter(Boolean).at(-1) ?? item.key;
  return (
    <tbody className="upload-table__item">
      <tr aria-label={visibleText(item.key)} data-state={item.state} className="upload-table__row">
        <td className="upload-table__name">
          <span className="upload-table__name-cell">
            <IconButton
              className="upload-table__toggle"
              label={t(open ? 'uploads.hideDetailsOf' : 'uploads.showDetailsOf', { name: item.key })}
              tipSide="start"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              icon={open ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
              onClick={() => setOpen((was) => !was)}
            />
            <span className="upload-table__key" dir="auto" title={visibleText(item.key)}>
              {visibleText(name)}
            </span>
          </span>
        </td>
        <td className="upload-table__size">{formatBytes(item.bytesTotal)}</td>
        <td className="upload-table__progress">
          <span className="upload-table__meter">
            <ProgressBar
              value={item.bytesSent}
              max={Math.max(1, item.bytesTotal)}
              label={t('uploads.progressOf', { name: item.key })}
              valueText={`${percent(item.bytesSent, item.bytesTotal)}%`}
              tone={item.state === 'failed' ? 'danger' : item.state === 'done' ? 'ok' : 'busy'}
            />
            <span className="upload-table__percent">{percent(item.bytesSent, item.bytesTotal)}%</span>
          </span>
        </td>
        <td className="upload-table__status">
          <Status tone={TONES[item.state]}>{stateLabel(item, t)}</Status>
        </td>
        <td className="upload-table__actions">
          <RowActions item={item} queue={queue} />
        </td>
      </tr>
      {open || item.error ? (
        <tr className="upload-table__details" id={detailsId} aria-label={t('uploads.detailsOf', { name: item.key })}>
          <td colSpan={5}>
            {item.error ? <ItemError error={item.error} /> : null}
            {open ? <UploadFacts item={item} /> : null}
          </td>
        </tr>
      ) : null}
    </tbody>
  );
}

/** What a row's details show: where the file goes, how it is sent, and what the server answered. */
function UploadFacts({ item }: { item: UploadItem }) {
  const { t, formatNumber } = useI18n();
  const mp = item.multipart;
  return (
    <dl className="upload-table__facts">
      <dt>{t('uploads.fact.key')}</dt>
      <dd dir="auto">{visibleText(item.key)}</dd>
      <dt>{t('uploads.fact.sent')}</dt>
      <dd data-testid="item-bytes">
        {t('uploads.bytesOf', { sent: formatBytes(item.bytesSent), total: formatBytes(item.bytesTotal) })}
        {item.state === 'running' ? ` · ${formatSpeed(item.speed)} · ${t('uploads.eta', { eta: formatEta(item.eta, t) })}` : ''}
      </dd>
      <dt>{t('uploads.fact.how')}</dt>
      <dd>
        {item.kind === 'form' ? t('uploads.kind.form') : t('uploads.kind.multipart')}
        {mp && mp.partCount > 0 ? ` · ${t('uploads.partsLine', { done: formatNumber(mp.partsDone), count: formatNumber(mp.partCount), size: formatBytes(mp.partSize) })}` : ''}
        {mp && mp.partsReused > 0 ? ` ${t('uploads.partsReused', { count: formatNumber(mp.partsReused) })}` : ''}
      </dd>
      {item.state === 'running' && item.phase ? (
        <>
          <dt>{t('uploads.fact.step')}</dt>
          <dd>{t(`uploads.phase.${item.phase}`)}</dd>
        </>
      ) : null}
      {mp?.uploadId ? (
        <>
          <dt>{t('uploads.uploadId')}</dt>
          <dd>
            <code data-testid="item-upload-id">{mp.uploadId}</code>
          </dd>
        </>
      ) : null}
      {item.state === 'done' && item.etag !== undefined ? (
        <>
          <dt>{t('uploads.etag')}</dt>
          <dd>
            <code data-testid="item-etag">{item.etag || t('uploads.noEtag')}</code>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function RowActions({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const { t } = useI18n();
  const name = item.key;
  const size = 16;
  return (
    <span className="upload-table__buttons">
      {item.kind === 'multipart' && (item.state === 'running' || item.state === 'queued') ? (
        <IconButton label={t('uploads.pauseOf', { name })} tipSide="end" icon={<Pause size={size} aria-hidden="true" />} onClick={() => queue.pause(item.id)} />
      ) : null}
      {item.state === 'paused' ? (
        <IconButton label={t('uploads.resumeOf', { name })} tipSide="end" icon={<Play size={size} aria-hidden="true" />} onClick={() => queue.resume(item.id)} />
      ) : null}
      {item.state === 'failed' ? (
        <IconButton label={t('uploads.retryOf', { name })} tipSide="end" icon={<RotateCw size={size} aria-hidden="true" />} onClick={() => queue.retry(item.id)} />
      ) : null}
      {item.state === 'running' || item.state === 'paused' ? (
        <IconButton label={t('uploads.cancelOf', { name })} tipSide="end" icon={<Square size={size} aria-hidden="true" />} onClick={() => void queue.cancel(item.id)} />
      ) : null}
      {item.state === 'queued' || item.state === 'done' || item.state === 'failed' || item.state === 'cancelled' ? (
        <IconButton label={t('uploads.removeOf', { name })} tipSide="end" icon={<X size={size} aria-hidden="true" />} onClick={() => queue.remove(item.id)} />
      ) : null}
    </span>
  );
}
