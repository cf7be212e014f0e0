import { useState } from 'react';
import { lazyView, usePreloadWhenIdle } from '../../../components/lazy-view.tsx';
import { connectionId } from '../../../api/connection.ts';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { useActiveUploadCount } from './upload-registry.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './uploads.css';

// The panel (form, drop zone, settings) and the upload engine under it load when the panel first opens.
const UploadPanel = lazyView(async () => (await import('./upload-panel.tsx')).UploadPanel);
const LATER_VIEWS = [UploadPanel];

/**
 * The object browser's "Upload" control: a toggle plus a non-modal drawer, so transfers keep running
 * (and stay visible) while the user browses. The button shows how many transfers are active.
 */
export function UploadToolbar({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t } = useI18n();
  const client = useClient();
  const active = useActiveUploadCount(connectionId(client.connection));
  const [open, setOpen] = useState(false);
  usePreloadWhenIdle(LATER_VIEWS);
  return (
    <>
      <button type="button" className="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {active > 0 ? t('uploads.openActive', { count: active }) : t('uploads.open')}
      </button>
      {open ? (
        <div className="uploads-drawer">
          <button type="button" className="button button--small uploads-drawer__close" onClick={() => setOpen(false)}>
            {t('uploads.closePanel')}
          </button>
          {/* Keyed by folder: a new folder starts with its own default prefix. */}
          <UploadPanel key={`${zone}/${bucket}/${prefix}`} zone={zone} bucket={bucket} prefix={prefix} />
        </div>
      ) : null}
    </>
  );
}
