/**
 * What the editor shows for a save of an object above the copy limit (large-copy.ts): why it is done in
 * parts, the progress while it runs, a Cancel that aborts the upload, and the outcome of a cancel.
 */
import { useEffect, useRef, useState } from 'react';
import type { QsClient } from '../../api/client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { copyLimitOf, isCancelled, needsPartCopy, type LargeCopyOptions, type LargeCopyProgress } from '../../api/metadata/large-copy.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

export interface LargeCopyState {
  copyLimit: number;
  progress: LargeCopyProgress | null;
  cancelRequested: boolean;
  /** Starts a save: a fresh AbortSignal and the large-copy options to pass to saveMetadataEdits. */
  begin(): { signal: AbortSignal; largeCopy: LargeCopyOptions };
  cancel(): void;
}

export function useLargeCopy(client: QsClient): LargeCopyState {
  const copyLimit = copyLimitOf(client.connection);
  const [progress, setProgress] = useState<LargeCopyProgress | null>(null);
  const [cancelRequested, setCancelRequested] = useState(false);
  const controller = useRef<AbortController | null>(null);
  return {
    copyLimit,
    progress,
    cancelRequested,
    begin() {
      controller.current = new AbortController();
      setProgress(null);
      setCancelRequested(false);
      return { signal: controller.current.signal, largeCopy: { copyLimit, onProgress: setProgress } };
    },
    cancel() {
      setCancelRequested(true);
      controller.current?.abort();
    },
  };
}

function percent(done: number, total: number): number {
  return total <= 0 ? 100 : Math.floor((done / total) * 100);
}

/**
 * Review-step notice for an object above the copy limit. `pending`: the save runs; `error`: the save's
 * failure, if any (a cancel is reported here, other failures by the editor).
 */
export function LargeCopyStatus({ state, size, pending, error }: { state: LargeCopyState; size: number; pending: boolean; error: unknown }) {
  const { t } = useI18n();
  const large = needsPartCopy(size, state.copyLimit);
  // Leaving the page mid-copy would drop the requests and leave the unfinished upload on the server.
  useEffect(() => {
    if (!large || !pending) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [large, pending]);
  if (!large) return null;
  const progress = state.progress;
  return (
    <div className="notice large-copy" data-testid="large-copy">
      <p>{t('metadata.large.note', { size: formatBytes(size), limit: formatBytes(state.copyLimit) })}</p>
      {pending && progress ? (
        <div className="large-copy__progress">
          <progress
            max={Math.max(1, progress.bytesTotal)}
            value={progress.bytesDone}
            aria-label={t('metadata.large.progressLabel')}
            aria-valuetext={`${percent(progress.bytesDone, progress.bytesTotal)}%`}
          />
          <output className="status-line">
            {t(`metadata.large.phase.${progress.phase}`, {
              done: progress.partsDone,
              total: progress.partsTotal,
              bytes: formatBytes(progress.bytesDone),
              size: formatBytes(progress.bytesTotal),
            })}
          </output>
          <button type="button" className="button" onClick={state.cancel} disabled={!progress.cancellable || state.cancelRequested}>
            {state.cancelRequested ? t('metadata.large.cancelling') : t('metadata.large.cancel')}
          </button>
        </div>
      ) : null}
      {!pending && error !== null && error !== undefined && isCancelled(error) ? (
        <output className="status-line">{t('metadata.large.cancelled')}</output>
      ) : null}
    </div>
  );
}
