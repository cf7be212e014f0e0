import EllipsisVertical from 'lucide-react/icons/ellipsis-vertical';
import FolderPlus from 'lucide-react/icons/folder-plus';
import Layers from 'lucide-react/icons/layers';
import Settings from 'lucide-react/icons/settings';
import Tags from 'lucide-react/icons/tags';
import Trash2 from 'lucide-react/icons/trash';
import { useState } from 'react';
import { lazyView } from '../../components/lazy-view.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { Menu, type MenuItem } from '../../components/ui/menu.tsx';
import { DeleteFolderDialog } from '../../features/bucket-admin/delete-folder.tsx';
import { uploadsHref } from '../../features/in-progress-uploads/location.ts';
import { CreateFolderDialog } from '../../features/object-actions/create-folder.tsx';
import { UploadToolbar } from '../../features/upload-queue/ui/upload-toolbar.tsx';
import { bucketSettingsPath, type BrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';
import { useNavigate } from '../../lib/router.tsx';

// A bulk job's dialog (the engine, react-hook-form, zod, the save guards) loads when it is first chosen.
const BulkJobDialog = lazyView(async () => (await import('../jobs/job-dialog-entry.tsx')).BulkJobDialog);

// The object browser's toolbar controls from other features. None of them is needed for the listing's first
// rows, so this module loads beside the listing request (bucket-route.tsx renders it lazily). The toolbar has
// the view's one primary action (Upload) and one menu for the rest: a new folder, the folder's in-progress
// uploads, the bucket's settings, then what acts on the whole folder (bulk edit, and delete, set apart in
// red). So it keeps to one row at every width, and nothing destructive sits in the toolbar itself.

export function ToolbarExtra({ location }: { location: BrowseLocation }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  const navigate = useNavigate();
  const { zone, bucket, prefix } = location;
  const [open, setOpen] = useState<'folder' | 'bulk' | 'delete' | null>(null);
  const close = () => setOpen(null);
  const items: MenuItem[] = [
    { id: 'folder', label: t('actions.newFolder'), icon: <FolderPlus size={16} />, onSelect: () => setOpen('folder') },
    { id: 'uploads', label: t('shell.openInspector'), icon: <Layers size={16} />, onSelect: () => navigate(uploadsHref({ zone, bucket, prefix })) },
    // Bucket settings are owner-only calls (ACL, CORS, policy, statistics): nothing to show anonymously.
    ...(session.mode === 'anonymous' ? [] : [{ id: 'settings', label: t('browser.bucketSettings'), icon: <Settings size={16} />, onSelect: () => navigate(bucketSettingsPath(zone, bucket)) }]),
    // At the bucket's root: a job over the whole bucket (it asks for the bucket's name first); never anonymously.
    ...(prefix === ''
      ? session.mode === 'anonymous'
        ? []
        : [{ id: 'bulk', label: t('metadata.bulkRun.openBucket'), icon: <Layers size={16} />, onSelect: () => setOpen('bulk') }]
      : [
          { id: 'bulk', label: t('metadata.bulkRun.openFolder'), icon: <Tags size={16} />, onSelect: () => setOpen('bulk') },
          { id: 'delete', label: t('admin.folder.delete'), icon: <Trash2 size={16} />, danger: true, onSelect: () => setOpen('delete') },
        ]),
  ];
  return (
    <>
      <UploadToolbar zone={zone} bucket={bucket} prefix={prefix} />
      <Menu label={t('admin.folder.actions')} trigger={<IconButton label={t('admin.folder.actions')} icon={<EllipsisVertical aria-hidden="true" size={16} />} bordered tipSide="end" />} items={items} />
      {open === 'folder' ? <CreateFolderDialog zone={zone} bucket={bucket} prefix={prefix} onClose={close} /> : null}
      {open === 'bulk' ? <BulkJobDialog zone={zone} bucket={bucket} scope={prefix === '' ? { kind: 'bucket' } : { kind: 'prefix', prefix }} onClose={close} /> : null}
      {open === 'delete' ? <DeleteFolderDialog zone={zone} bucket={bucket} prefix={prefix} onClose={close} /> : null}
    </>
  );
}
