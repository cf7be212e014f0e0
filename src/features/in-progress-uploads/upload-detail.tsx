import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { ApiError } from '../../api/errors.ts';
import type { UploadRef } from '../../api/multipart/operations.ts';
import { abortMultipartUploadMutation, completeMultipartUploadMutation, uploadKey, uploadListsKey } from '../../api/multipart/queries.ts';
import { objectKey, objectListsKey } from '../../api/objects/queries.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { KeyValueList } from '../../components/ui/key-value.tsx';
import { ProgressBar } from '../../components/ui/progress.tsx';
import { TypedConfirm } from '../../components/ui/typed-confirm.tsx';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { Link, useNavigate } from '../../lib/router.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import { CompleteSection } from './complete-section.tsx';
import { uploadsHref } from './location.ts';
import { PartMap } from './part-map.tsx';
import type { PartScan } from './part-scan.ts';
import { PartsSection } from './parts-section.tsx';
import { partScanQuery, partsPageQuery, scanProgressStore, uploadInfoQuery, type ScanProgressStore } from './queries.ts';
import { completeParts, jumpMarker, partsPagePosition, previousPageMarker } from './upload-detail-model.ts';
import { UploadErrorNotice } from './upload-error.tsx';
import { UploadOutcome } from './upload-outcome.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

export interface ResumeContext {
  zone: string;
  bucket: string;
  key: string;
  uploadId: string;
  /** Called after a resumed upload completed, so the inspector can leave the (now gone) upload. */
  onCompleted: () => void;
}

/**
 * One in-progress upload: its facts, totals over all its parts with a map of them, Complete / Abort /
 * Resume, and its parts page by page. After Complete or Abort, where to go next (UploadOutcome).
 */
export function UploadDetail({ zone, bucket, objectKey: key, uploadId, limit, after, prefix, renderResume }: {
  zone: string;
  bucket: string;
  objectKey: string;
  uploadId: string;
  limit: number;
  after: number | null;
  prefix: string;
  renderResume?: ((context: ResumeContext) => ReactNode) | undefined;
}) {
  const { t, tp, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const session = useConnectedSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ref: UploadRef = { zone, bucket, key, uploadId };
  // Scan progress lives outside this component's state: only the counting line re-renders on each page
  // (and the scan may have started at boot, before this view).
  const progress = scanProgressStore(client, queryClient, ref);
  const [outcome, setOutcome] = useState<'completed' | 'aborted' | null>(null);
  const [history, setHistory] = useState<Array<number | null>>([]);
  const [jumpedTo, setJumpedTo] = useState<number | null>(null);
  const [confirmAbort, setConfirmAbort] = useState(false);

  const enabled = outcome === null;
  // The previous page stays on screen while the next loads: no 1,000-row unmount/remount flash.
  const page = useQuery({ ...partsPageQuery(client, ref, limit, after), enabled, placeholderData: keepPreviousData });
  const scan = useQuery({ ...partScanQuery(client, queryClient, ref), enabled });
  const info = useQuery({ ...uploadInfoQuery(client, ref), enabled, retry: false });
  // The factories drop the gone upload's queries (no refetch into upload_not_exists) and refresh the lists.
  const complete = useMutation(completeMultipartUploadMutation(client, queryClient));
  const abort = useMutation(abortMultipartUploadMutation(client, queryClient));

  // A resumed upload completed elsewhere in the page (the uploads feature): the same clean-up, by hand.
  const leaveResumed = () => {
    setOutcome('completed');
    queryClient.removeQueries({ queryKey: uploadKey(client, bucket, key, uploadId) });
    void queryClient.invalidateQueries({ queryKey: uploadListsKey(client, bucket) });
    void queryClient.invalidateQueries({ queryKey: objectListsKey(client, bucket) });
    void queryClient.invalidateQueries({ queryKey: objectKey(client, bucket, key) });
  };

  const listHref = uploadsHref({ zone, bucket, prefix });
  const pageHref = (marker: number | null, pageLimit = limit) => uploadsHref({ zone, bucket, prefix, upload: uploadId, key, limit: pageLimit, after: marker });

  if (outcome) return <UploadOutcome kind={outcome} zone={zone} bucket={bucket} objectKey={key} listHref={listHref} />;

  const pageError = page.error ?? scan.error;
  const parts = page.data?.object_parts ?? [];
  const scanData = scan.data;
  const position = partsPagePosition(parts, limit, scanData, page.isPlaceholderData);

  const goNext = () => {
    const lastOnPage = parts.at(-1)?.part_number;
    if (lastOnPage === undefined) return;
    setHistory((h) => [...h, after]);
    navigate(pageHref(lastOnPage));
  };
  const goPrevious = () => {
    const marker = previousPageMarker(after, parts, limit, scanData, history);
    if (marker === undefined) return;
    setHistory((h) => h.slice(0, -1));
    navigate(pageHref(marker));
  };
  // Jump to a part: the page that holds it, with its row (or the next present part, if it is missing) marked.
  const jumpTo = (wanted: number) => {
    setJumpedTo(wanted);
    setHistory([]);
    navigate(pageHref(jumpMarker(wanted, limit, scanData)));
  };
  const runComplete = (chosen: PartScan) => complete.mutate({ ...ref, parts: completeParts(chosen) }, { onSuccess: () => setOutcome('completed') });

  const initiated = info.data?.created
    ? formatDateTime(new Date(info.data.created))
    : info.isPending
      ? t('app.loading')
      : info.error instanceof ApiError && (info.error.status === 401 || info.error.status === 403)
        ? t('multipart.initiatedHidden')
        : t('common.none');

  return (
    <section className="upload-detail" aria-labelledby="upload-detail-title">
      <p className="upload-detail__back">
        <Link to={listHref}>{t('multipart.backToList')}</Link>
      </p>
      <h2 id="upload-detail-title" dir="auto">
        {visibleText(key)}
      </h2>
      <KeyValueList
        label={t('multipart.facts')}
        items={[
          { key: 'key', label: t('multipart.key'), value: <span className="upload-detail__copyable" dir="auto"><code>{visibleText(key)}</code> <CopyButton text={key} label={t('multipart.copyKey')} /></span> },
          { key: 'id', label: t('multipart.uploadId'), value: <span className="upload-detail__copyable"><code data-testid="upload-id">{uploadId}</code> <CopyButton text={uploadId} label={t('multipart.copyUploadId')} /></span> },
          { key: 'initiated', label: t('multipart.initiated'), value: initiated },
        ]}
      />

      {pageError ? <UploadErrorNotice error={pageError} listHref={listHref} onRetry={() => void Promise.all([page.refetch(), scan.refetch()])} /> : null}

      <section className="upload-detail__totals" aria-labelledby="totals-title">
        <h3 id="totals-title">{t('multipart.totals')}</h3>
        {scan.isPending && !scan.isError ? <ScanProgressText store={progress} /> : null}
        {scanData ? (
          <>
            <p data-testid="totals">
              {t('multipart.totalsText', { parts: tp('multipart.partCount', scanData.numbers.length), bytes: formatBytes(scanData.totalBytes), exact: formatNumber(scanData.totalBytes), pages: tp('multipart.pagesPhrase', scanData.pages) })}
            </p>
            <PartMap numbers={scanData.numbers} />
          </>
        ) : null}
      </section>

      <CompleteSection
        scan={scanData}
        demo={session.mode === 'demo'}
        busy={complete.isPending}
        error={complete.error ? <UploadErrorNotice error={complete.error} listHref={listHref} /> : null}
        onComplete={runComplete}
        onAbort={() => setConfirmAbort(true)}
        resume={renderResume ? renderResume({ zone, bucket, key, uploadId, onCompleted: leaveResumed }) : null}
      />

      <PartsSection
        limit={limit}
        after={after}
        parts={parts}
        loaded={page.data !== undefined}
        pending={page.isPending}
        isPlaceholder={page.isPlaceholderData}
        position={position}
        jumpedTo={jumpedTo}
        onLimit={(value) => navigate(pageHref(null, value))}
        onFirst={() => navigate(pageHref(null))}
        onPrevious={goPrevious}
        onNext={goNext}
        onJump={jumpTo}
      />

      <Dialog open={confirmAbort} onClose={() => setConfirmAbort(false)} title={t('multipart.abortTitle')}>
        <TypedConfirm
          consequence={<p dir="auto">{tp('multipart.abortWarning', scanData?.numbers.length ?? 0, { key, bytes: scanData ? formatBytes(scanData.totalBytes) : '?' })}</p>}
          phrase={t('multipart.abortPhrase')}
          confirmLabel={abort.isPending ? t('multipart.aborting') : t('multipart.abortConfirm')}
          busy={abort.isPending}
          onCancel={() => setConfirmAbort(false)}
          onConfirm={() =>
            abort.mutate(ref, {
              onSuccess: () => {
                setConfirmAbort(false);
                setOutcome('aborted');
              },
            })
          }
        >
          {abort.error ? <UploadErrorNotice error={abort.error} listHref={listHref} /> : null}
        </TypedConfirm>
      </Dialog>
    </section>
  );
}

/** The scan's running count, as words and as a bar whose end is not known yet. */
function ScanProgressText({ store }: { store: ScanProgressStore }) {
  const { t, tp } = useI18n();
  const progress = useSyncExternalStore(store.subscribe, store.get);
  const text = t('multipart.counting', { parts: tp('multipart.partCount', progress?.parts ?? 0), pages: tp('multipart.pagesPhrase', progress?.pages ?? 0), bytes: formatBytes(progress?.bytes ?? 0) });
  return (
    <div className="upload-detail__counting">
      <ProgressBar label={t('multipart.countingLabel')} />
      <output data-testid="scan-progress">{text}</output>
    </div>
  );
}
