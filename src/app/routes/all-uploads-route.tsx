import { AllUploads } from '../../features/in-progress-uploads/all-uploads.tsx';
import { RequireSession } from '../require-session.tsx';

/** In-progress uploads across every bucket of the account. */
export function AllUploadsRoute() {
  return (
    <RequireSession>
      <AllUploads />
    </RequireSession>
  );
}
