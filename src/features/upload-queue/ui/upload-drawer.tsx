import X from 'lucide-react/icons/x';
import { lazyView } from '../../../components/lazy-view.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { useUploadDrawer } from './upload-hooks.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './uploads.css';

const UploadPanel = lazyView(async () => (await import('./upload-panel.tsx')).UploadPanel);

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
