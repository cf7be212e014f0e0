import { Upload, X } from 'lucide-react';
import { useEffect } from 'react';
import { lazyView, usePreloadWhenIdle } from '../../../components/lazy-view.tsx';
import { connectionId } from '../../../api/connection.ts';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { setUploadDrawer, useActiveUploadCount, useOverallUploadPercent, useUploadDrawer } from './upload-registry.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './uploads.css';

// The panel (form, drop zone, settings) and the upload engine under it load when the panel first opens.
const UploadPanel = lazyView(async () => (await import('./upload-panel.tsx')).UploadPanel);
const LATER_VIEWS = [UploadPanel];

/**
 * The object browser's "Upload" control: a toggle for the non-modal drawer, so transfers keep running
 * (and stay visible) while the user browses. The button shows how many transfers are active.
 */
export function UploadToolbar({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const active = useActiveUploadCount(connectionId(client.connection));
  const { open } = useUploadDrawer();
  usePreloadWhenIdle(LATER_VIEWS);
  // The drawer uploads into the folder being shown.
  useEffect(() => setUploadDrawer({ target: { zone, bucket, prefix } }), [zone, bucket, prefix]);
  return (
    <button type="button" className="button" aria-expanded={open} onClick={() => setUploadDrawer({ open: !open, target: { zone, bucket, prefix } })}>
      <Upload aria-hidden="true" size={16} />
      {active > 0 ? tp('uploads.openActive', active) : t('uploads.open')}
    </button>
  );
}

/** The drawer itself, rendered once by the app shell so the header's indicator can open it from any view. */
export function UploadDrawer() {
  const { t } = useI18n();
  const { open, target } = useUploadDrawer();
  if (!open || !target) return null;
  return (
    <div className="uploads-drawer">
      <button type="button" className="button button--small uploads-drawer__close" onClick={() => setUploadDrawer({ open: false })}>
        <X aria-hidden="true" size={14} />
        {t('uploads.closePanel')}
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
  const { open, target } = useUploadDrawer();
  if (active === 0 || !target) return null;
  return (
    <button type="button" className="button button--ghost upload-indicator" aria-expanded={open} onClick={() => setUploadDrawer({ open: !open })}>
      <Upload aria-hidden="true" size={16} />
      <span>{tp('uploads.indicator', active, { percent })}</span>
      <progress max={100} value={percent} aria-hidden="true" />
    </button>
  );
}
