import { Settings } from 'lucide-react';
import { DeleteFolderButton } from '../../features/bucket-admin/delete-folder.tsx';
import { BulkEditFolderButton } from '../../features/metadata/bulk-folder.tsx';
import { InspectorLink } from '../../features/multipart/inspector-link.tsx';
import { CreateFolderButton } from '../../features/object-actions/create-folder.tsx';
import { UploadToolbar } from '../../features/uploads/ui/upload-toolbar.tsx';
import { bucketSettingsPath, type BrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { Link } from '../../lib/router.tsx';

// The object browser's toolbar controls from other features (upload, multipart inspector, new folder,
// delete folder, bulk metadata edit of the folder, bucket settings). None of them is needed for the
// listing's first rows, so this module loads beside the listing request (bucket-route.tsx renders it
// lazily) instead of before the screen. They arrive together (Delete folder is not a lazy view of its
// own; the bulk editor behind its button loads on first press), so the toolbar shows no spinner and
// fills at once.

export function ToolbarExtra({ location }: { location: BrowseLocation }) {
  return (
    <>
      <UploadToolbar zone={location.zone} bucket={location.bucket} prefix={location.prefix} />
      <InspectorLink zone={location.zone} bucket={location.bucket} prefix={location.prefix} />
      <CreateFolderButton zone={location.zone} bucket={location.bucket} prefix={location.prefix} />
      {location.prefix !== '' ? <DeleteFolderButton zone={location.zone} bucket={location.bucket} prefix={location.prefix} /> : null}
      {location.prefix !== '' ? <BulkEditFolderButton zone={location.zone} bucket={location.bucket} prefix={location.prefix} /> : null}
      <SettingsLink zone={location.zone} bucket={location.bucket} />
    </>
  );
}

function SettingsLink({ zone, bucket }: { zone: string; bucket: string }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  // Bucket settings are owner-only calls (ACL, CORS, policy, statistics): nothing to show anonymously.
  if (session.mode === 'anonymous') return null;
  return (
    <Link className="icon-button icon-button--bordered" to={bucketSettingsPath(zone, bucket)} aria-label={t('browser.bucketSettings')} title={t('browser.bucketSettings')}>
      <Settings aria-hidden="true" size={16} />
    </Link>
  );
}
