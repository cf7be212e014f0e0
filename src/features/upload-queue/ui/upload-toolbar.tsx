import Upload from 'lucide-react/icons/upload';
import { useEffect } from 'react';
import { lazyView, usePreloadWhenIdle } from '../../../components/lazy-view.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { useUploadDrawer } from './upload-hooks.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './uploads.css';

// The panel (form, drop zone, settings) and the upload engine under it load when the drawer first opens
// (upload-drawer.tsx, rendered by the app shell), or once the page is idle.
const LATER_VIEWS = [lazyView(async () => (await import('./upload-panel.tsx')).UploadPanel)];

/**
 * The object browser's "Upload" control: a toggle for the non-modal drawer, so transfers keep running
 * (and stay visible) while the user browses.
 */
export function UploadToolbar({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t } = useI18n();
  const { open, set: setDrawer } = useUploadDrawer();
  usePreloadWhenIdle(LATER_VIEWS);
  // The drawer uploads into the folder being shown.
  useEffect(() => setDrawer({ target: { zone, bucket, prefix } }), [setDrawer, zone, bucket, prefix]);
  return (
    <button type="button" className="button button--primary" aria-expanded={open} onClick={() => setDrawer({ open: !open, target: { zone, bucket, prefix } })}>
      <Upload aria-hidden="true" size={16} />
      {/* One label whatever runs (the top bar's indicator counts the transfers): the toolbar never changes width. */}
      {t('shell.uploadsOpen')}
    </button>
  );
}
