import { MultipartInspector } from '../../features/multipart/multipart-inspector.tsx';
import { RequireSession } from '../require-session.tsx';

export function UploadsRoute() {
  return (
    <RequireSession>
      <MultipartInspector />
    </RequireSession>
  );
}
