import { ApiError } from '../../../api/errors.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useI18n, type I18n, type MessageKey } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { IntegrityError, ResumeMismatchError, type UploadItem, type UploadQueue, type UploadsSnapshot } from '../engine/index.ts';
import { formatEta, formatSpeed } from './rate-format.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';

export function percent(sent: number, total: number): number {
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

export function stateLabel(item: UploadItem, t: I18n['t']): string {
  if (item.state === 'running' && item.phase) return t(`uploads.phase.${item.phase}`);
  if (item.state === 'failed' && item.error instanceof IntegrityError) {
    return t(item.error.outcome === 'unverified' ? 'uploads.state.unverified' : 'uploads.state.corrupted');
  }
  return t(`uploads.state.${item.state}`);
}

/** What the bucket holds after the failed check says what the user reads (engine/integrity.ts). */
const INTEGRITY_MESSAGES = {
  untouched: 'uploads.corrupted',
  removed: 'uploads.corrupted',
  replacedSince: 'uploads.corruptedReplaced',
  left: 'uploads.corruptedLeft',
  unverified: 'uploads.unverified',
} as const satisfies Record<IntegrityError['outcome'], MessageKey>;

/** Why a file failed, in words, with the digests when its bytes changed on the way. */
export function ItemError({ error }: { error: Error }) {
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
