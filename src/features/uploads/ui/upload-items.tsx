import { ApiError } from '../../../api/errors.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useI18n, type I18n, type MessageKey } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { IntegrityError, ResumeMismatchError, type UploadItem, type UploadQueue, type UploadsSnapshot } from '../engine/index.ts';
import { formatEta, formatSpeed } from './rate-format.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';
import { visibleText } from '../../../lib/visible-text.ts';

function percent(sent: number, total: number): number {
  return total > 0 ? Math.floor((sent / total) * 100) : sent > 0 ? 100 : 0;
}

/** Overall progress, totals and the batch actions. */
export function UploadTotals({ snapshot, queue }: { snapshot: UploadsSnapshot; queue: UploadQueue }) {
  const { t, tp, formatNumber } = useI18n();
  const { totals } = snapshot;
  const active = totals.counts.running + totals.counts.queued;
  const finished = totals.counts.done + totals.counts.cancelled;
  return (
    <div className="uploads__totals">
      <label className="uploads__overall">
        <span>{t('uploads.overall')}</span>
        <progress max={Math.max(1, totals.bytesTotal)} value={totals.bytesSent} aria-label={t('uploads.overall')} aria-valuetext={`${percent(totals.bytesSent, totals.bytesTotal)}%`} />
      </label>
      <p data-testid="uploads-totals">
        {tp('uploads.totalsLine', snapshot.items.length - totals.counts.cancelled, {
          sent: formatBytes(totals.bytesSent),
          total: formatBytes(totals.bytesTotal),
          done: totals.counts.done,
        })}
        {active > 0 ? ` · ${formatSpeed(totals.speed)} · ${t('uploads.eta', { eta: formatEta(totals.eta, t) })}` : ''}
        {totals.counts.failed > 0 ? ` · ${t('uploads.failedCount', { count: formatNumber(totals.counts.failed) })}` : ''}
      </p>
      <div className="notice__actions">
        {totals.counts.failed > 0 ? (
          <button type="button" className="button" onClick={() => queue.retryFailed()}>
            {t('uploads.retryFailed')}
          </button>
        ) : null}
        {finished > 0 ? (
          <button type="button" className="button" onClick={() => queue.clearFinished()}>
            {t('uploads.clearFinished')}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function stateLabel(item: UploadItem, t: I18n['t']): string {
  if (item.state === 'running' && item.phase) return t(`uploads.phase.${item.phase}`);
  if (item.state === 'failed' && item.error instanceof IntegrityError) {
    return t(item.error.outcome === 'unverified' ? 'uploads.state.unverified' : 'uploads.state.corrupted');
  }
  return t(`uploads.state.${item.state}`);
}

export function UploadItemRow({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const { t, formatNumber } = useI18n();
  const label = t('uploads.progressOf', { name: item.key });
  const mp = item.multipart;
  return (
    <li className={`upload-item upload-item--${item.state}`} data-state={item.state} aria-label={visibleText(item.key)}>
      <div className="upload-item__head">
        <span className="upload-item__key" dir="auto">
          {visibleText(item.key)}
        </span>
        <span className="upload-item__state">{stateLabel(item, t)}</span>
        <span className="upload-item__kind">{item.kind === 'form' ? t('uploads.kind.form') : t('uploads.kind.multipart')}</span>
      </div>
      <progress max={Math.max(1, item.bytesTotal)} value={item.bytesSent} aria-label={label} aria-valuetext={`${percent(item.bytesSent, item.bytesTotal)}%`} />
      <p className="upload-item__facts">
        <span data-testid="item-bytes">{t('uploads.bytesOf', { sent: formatBytes(item.bytesSent), total: formatBytes(item.bytesTotal) })}</span>
        {item.state === 'running' ? (
          <>
            {' · '}
            {formatSpeed(item.speed)} · {t('uploads.eta', { eta: formatEta(item.eta, t) })}
          </>
        ) : null}
        {mp && mp.partCount > 0 ? (
          <>
            {' · '}
            {t('uploads.partsLine', { done: formatNumber(mp.partsDone), count: formatNumber(mp.partCount), size: formatBytes(mp.partSize) })}
            {mp.partsReused > 0 ? ` ${t('uploads.partsReused', { count: formatNumber(mp.partsReused) })}` : ''}
          </>
        ) : null}
      </p>
      {mp?.uploadId ? (
        <p className="upload-item__facts">
          {t('uploads.uploadId')}: <code>{mp.uploadId}</code>
        </p>
      ) : null}
      {item.state === 'done' && item.etag !== undefined ? (
        <p className="upload-item__facts">
          {t('uploads.etag')}: <code data-testid="item-etag">{item.etag || t('uploads.noEtag')}</code>
        </p>
      ) : null}
      {item.error ? <ItemError error={item.error} /> : null}
      <div className="upload-item__actions">
        {item.kind === 'multipart' && (item.state === 'running' || item.state === 'queued') ? (
          <button type="button" className="button button--small" onClick={() => queue.pause(item.id)} aria-label={t('uploads.pauseOf', { name: item.key })}>
            {t('uploads.pause')}
          </button>
        ) : null}
        {item.state === 'paused' ? (
          <button type="button" className="button button--small" onClick={() => queue.resume(item.id)} aria-label={t('uploads.resumeOf', { name: item.key })}>
            {t('uploads.resume')}
          </button>
        ) : null}
        {item.state === 'failed' ? (
          <button type="button" className="button button--small" onClick={() => queue.retry(item.id)} aria-label={t('uploads.retryOf', { name: item.key })}>
            {t('uploads.retry')}
          </button>
        ) : null}
        {item.state === 'running' || item.state === 'paused' ? (
          <button type="button" className="button button--small" onClick={() => void queue.cancel(item.id)} aria-label={t('uploads.cancelOf', { name: item.key })}>
            {t('uploads.cancel')}
          </button>
        ) : null}
        {item.state === 'queued' || item.state === 'done' || item.state === 'failed' || item.state === 'cancelled' ? (
          <button type="button" className="button button--small" onClick={() => queue.remove(item.id)} aria-label={t('uploads.removeOf', { name: item.key })}>
            {t('uploads.remove')}
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** What the bucket holds after the failed check says what the user reads (engine/integrity.ts). */
const INTEGRITY_MESSAGES = {
  untouched: 'uploads.corrupted',
  removed: 'uploads.corrupted',
  replacedSince: 'uploads.corruptedReplaced',
  left: 'uploads.corruptedLeft',
  unverified: 'uploads.unverified',
} as const satisfies Record<IntegrityError['outcome'], MessageKey>;

function ItemError({ error }: { error: Error }) {
  const { t } = useI18n();
  if (error instanceof IntegrityError) {
    return (
      <div className="field-error" role="alert">
        <p>{t(INTEGRITY_MESSAGES[error.outcome])}</p>
        <dl className="upload-item__digests">
          <dt>{t('uploads.fileMd5')}</dt>
          <dd>
            <code data-testid="item-expected-md5">{error.expected}</code>
          </dd>
          <dt>{t('uploads.storedEtag')}</dt>
          <dd>
            <code data-testid="item-received-etag">{error.received || t('uploads.noEtag')}</code>
          </dd>
        </dl>
      </div>
    );
  }
  if (error instanceof ResumeMismatchError) {
    return (
      <p className="field-error" role="alert">
        {t('uploads.mismatch')}
      </p>
    );
  }
  if (error instanceof ApiError && error.code === 'upload_not_exists') {
    return (
      <div>
        <ErrorNotice error={error} title={t('uploads.gone')} />
      </div>
    );
  }
  return <ErrorNotice error={error} />;
}

export function UploadItemList({ items, queue }: { items: readonly UploadItem[]; queue: UploadQueue }) {
  const { t } = useI18n();
  if (items.length === 0) return null;
  return (
    <ul className="upload-items" aria-label={t('uploads.items')}>
      {items.map((item) => (
        <UploadItemRow key={item.id} item={item} queue={queue} />
      ))}
    </ul>
  );
}
