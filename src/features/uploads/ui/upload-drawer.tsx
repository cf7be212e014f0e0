import { Upload, X } from 'lucide-react';
import { lazyView } from '../../../components/lazy-view.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { useActiveUploadCount, useOverallUploadPercent, useUploadDrawer } from './upload-hooks.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './uploads.css';

const UploadPanel = lazyView(async () => (await import('./upload-panel.tsx')).UploadPanel);
// Loaded with the first transfer (the indicator is hidden before), so its messages stay out of the shell's chunk.
const IndicatorRate = lazyView(async () => (await import('./indicator-rate.tsx')).IndicatorRate, { fallback: 'none' });

/** The drawer itself, rendered once by the app shell so the header's indicator can open it from any view. */
export function UploadDrawer() {
  const { t } = useI18n();
  const { open, target, set: setDrawer } = useUploadDrawer();
  if (!open || !target) return null;
  return (
    <div className="uploads-drawer">
      <button type="button" className="button button--small uploads-drawer__close" onClick={() => setDrawer({ open: false })}>
        <X aria-hidden="true" size={14} />
        {t('shell.uploadsClose')}
      </button>
      {/* Keyed by folder: a new folder starts with its own default prefix. */}
      <UploadPanel key={`${target.zone}/${target.bucket}/${target.prefix}`} zone={target.zone} bucket={target.bucket} prefix={target.prefix} />
    </div>
  );
}

/** The header's global indicator: active transfers and overall progress; it opens the drawer. Hidden while idle. */
export function UploadIndicator({ scope }: { scope: string }) {
  const { tp } = useI18n();
  const active = useActiveUploadCount(scope);
  const percent = useOverallUploadPercent(scope);
  const { open, target, set: setDrawer } = useUploadDrawer();
  if (active === 0 || !target) return null;
  return (
    <span className="upload-indicator-group">
      <button type="button" className="button button--ghost upload-indicator" aria-expanded={open} onClick={() => setDrawer({ open: !open })}>
        <Upload aria-hidden="true" size={16} />
        <span>{tp('shell.uploadsIndicator', active, { percent })}</span>
        <progress max={100} value={percent} aria-hidden="true" />
      </button>
      {/* Speed and time left while the drawer (which shows them itself) is closed. */}
      {open ? null : <IndicatorRate scope={scope} />}
    </span>
  );
}
