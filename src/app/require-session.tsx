import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../hooks/session.ts';

/** Views below need a connection; without one (endpoint mode, not yet connected) the user connects first. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useSession();
  if (!session) return <Navigate to="/connect" replace />;
  return children;
}
