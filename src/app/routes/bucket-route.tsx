import { InspectorLink } from '../../features/multipart/inspector-link.tsx';
import { ObjectBrowser } from '../../features/object-browser/object-browser.tsx';
import { RequireSession } from '../require-session.tsx';

export function BucketRoute() {
  return (
    <RequireSession>
      <ObjectBrowser toolbarExtra={(location) => <InspectorLink zone={location.zone} bucket={location.bucket} prefix={location.prefix} />} />
    </RequireSession>
  );
}
