import Upload from 'lucide-react/icons/upload';
import { useState } from 'react';
import { lazyView } from '../../../components/lazy-view.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { useActiveUploadCount, useOverallUploadPercent, useUploadDrawer, useUploadTotals } from './upload-hooks.ts';

// Loaded with the first transfer (the indicator is hidden before), so its messages stay out of the shell's chunk.
const IndicatorRate = lazyView(async () => (await import('./indicator-rate.tsx')).IndicatorRate, { fallback: 'none' });

/**
 * The header's global indicator: active transfers and overall progress; it opens the drawer. Hidden while
 * idle. When the transfers end with the drawer closed it stays as "finished, 100 %" (or how many failed)
 * until it is clicked, so the end of a batch is seen, not only its disappearance.
 *
 * It is part of the shell's code, not a chunk of its own: a drop's transfers start the moment the files are
 * queued, and in the demo a small file is stored within milliseconds. An indicator whose code was still
 * downloading first appeared with some of the batch already done ("43 uploads running" for 50 files dropped);
 * mounted with the shell, it renders the queue's first notification, the whole batch, before any transfer ends.
 */
export function UploadIndicator({ scope }: { scope: string }) {
  const { t, tp } = useI18n();
  const active = useActiveUploadCount(scope);
  const percent = useOverallUploadPercent(scope);
  const failed = useUploadTotals(scope)?.counts.failed ?? 0;
  const { open, target, set: setDrawer } = useUploadDrawer();
  const [phase, setPhase] = useState<'idle' | 'running' | 'finished'>('idle');
  // Follows the count during render (no effect): running while any is active, finished once none is.
  if (active > 0 && phase !== 'running') setPhase('running');
  if (active === 0 && phase === 'running') setPhase(open ? 'idle' : 'finished');
  if (!target || (active === 0 && phase !== 'finished')) return null;
  if (active === 0) {
    return (
      <span className="upload-indicator-group">
        <button
          type="button"
          className="button button--ghost upload-indicator"
          aria-expanded={open}
          onClick={() => {
            setPhase('idle');
            setDrawer({ open: true });
          }}
        >
          <Upload aria-hidden="true" size={16} />
          <progress max={100} value={100} aria-hidden="true" />
          <span>{failed > 0 ? tp('shell.uploadsFinished.failed', failed) : t('shell.uploadsFinished.done')}</span>
        </button>
      </span>
    );
  }
  return (
    <span className="upload-indicator-group">
      <button type="button" className="button button--ghost upload-indicator" aria-expanded={open} onClick={() => setDrawer({ open: !open })}>
        {/* Icon and bar first: the words after them change length, nothing before them moves. */}
        <Upload aria-hidden="true" size={16} />
        <progress max={100} value={percent} aria-hidden="true" />
        <span>{tp('shell.uploadsIndicator', active, { percent })}</span>
      </button>
      {/* Speed and time left while the drawer (which shows them itself) is closed. */}
      {open ? null : <IndicatorRate scope={scope} />}
    </span>
  );
}
