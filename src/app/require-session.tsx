import type { ReactNode } from 'react';
import { Navigate, useLocation } from '../lib/router.tsx';
import { connectHref } from '../hooks/browse-location.ts';
import { useSession } from '../hooks/session.ts';

/**
 * Views below need a connection; without one (endpoint mode after a reload that forgot the secret) the
 * user connects first and then lands on the deep link they opened.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (!session) return <Navigate to={connectHref(location.pathname + location.search)} replace />;
  return children;
}
