import { ObjectBrowser } from '../../features/object-browser/object-browser.tsx';
import { RequireSession } from '../require-session.tsx';

export function BucketRoute() {
  return (
    <RequireSession>
      <ObjectBrowser />
    </RequireSession>
  );
}
