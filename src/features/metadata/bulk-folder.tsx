import { Tags } from 'lucide-react';
import { useState } from 'react';
import { lazyView } from '../../components/lazy-view.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

// The bulk editor (react-hook-form, zod, the save guards) loads when the button is first pressed.
const BulkEditPrefixDialog = lazyView(async () => (await import('./bulk-edit.tsx')).BulkEditPrefixDialog);

/** "Bulk-edit this folder…": bulk edit of every object under `prefix`, for the toolbar inside a folder. */
export function BulkEditFolderButton({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* An icon beside Delete folder and Settings: the toolbar keeps to one row at 1280 px. */}
      <button type="button" className="icon-button icon-button--bordered" aria-label={t('metadata.bulkRun.openFolder')} title={t('metadata.bulkRun.openFolderHint')} onClick={() => setOpen(true)}>
        <Tags aria-hidden="true" size={16} />
      </button>
      {open ? <BulkEditPrefixDialog zone={zone} bucket={bucket} prefix={prefix} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
