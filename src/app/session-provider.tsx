import { useMemo, useState, type ReactNode } from 'react';
import { SessionContext, type ServeInfo, type Session, type SessionApi } from '../hooks/session.ts';
import { forgetSession } from '../features/connection/recent-connections.ts';
import { saveSession, setEndpointMode } from './boot.ts';

export function SessionProvider({ initial, demoAvailable, serve, children }: {
  initial: Session | null;
  demoAvailable: boolean;
  serve: ServeInfo | undefined;
  children: ReactNode;
}) {
  const [session, setSession] = useState<Session | null>(initial);
  const api = useMemo<SessionApi>(
    () => ({
      session,
      demoAvailable,
      serve,
      connect(next, { remember }) {
        saveSession(sessionStorage, remember ? next : null);
        setSession(next);
      },
      disconnect() {
        // "Disconnect" also forgets the connection on the Connect page's list (and its secret in this tab).
        if (session) forgetSession(session);
        saveSession(sessionStorage, null);
        setSession(null);
      },
      switchToDemo() {
        setEndpointMode(sessionStorage, false);
        window.location.assign('/');
      },
      switchToEndpoint() {
        setEndpointMode(sessionStorage, true);
        window.location.assign('/connect');
      },
    }),
    [session, demoAvailable, serve],
  );
  return <SessionContext value={api}>{children}</SessionContext>;
}
