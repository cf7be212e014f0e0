import { BucketSettingsPage } from '../../features/bucket-admin/bucket-settings-page.tsx';
import { RequireSession } from '../require-session.tsx';

export function SettingsRoute() {
  return (
    <RequireSession>
      <BucketSettingsPage />
    </RequireSession>
  );
}
