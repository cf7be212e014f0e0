import { createContext, use } from 'react';
import type { Connection } from '../api/connection.ts';

/**
 * Who the console talks to. Lives in memory (React state in the app's provider); it reaches
 * sessionStorage only when the user opts in ("remember in this tab"). Features read it through
 * `useSession`; only the app composes it.
 */
export type SessionMode = 'demo' | 'endpoint' | 'anonymous';

export interface Session {
  mode: SessionMode;
  connection: Connection;
  /** Zones the user named (first = default); the bucket list adds the zones it reports. */
  zones: string[];
  /** Anonymous mode: the public bucket the session was opened for. */
  bucket?: { zone: string; name: string };
}

/** The console is served by `npm run serve`: a same-origin proxy to `endpoint` at `proxyBase`. */
export interface ServeInfo {
  proxyBase: string;
  endpoint: string;
}

export interface SessionApi {
  /** `null` in endpoint mode before the user connected. */
  session: Session | null;
  /** Whether the console booted with the demo backend (the msw worker runs). */
  demoAvailable: boolean;
  /** Set when the page came from the serve proxy (prefills the Connect form). */
  serve: ServeInfo | undefined;
  connect(session: Session, options: { remember: boolean }): void;
  disconnect(): void;
  /** Leaves endpoint mode for the demo backend (full reload: the worker must start before any request). */
  switchToDemo(): void;
  /** Leaves demo mode for the Connect screen (full reload: a real endpoint never sees the worker). */
  switchToEndpoint(): void;
}

export const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside the app’s SessionProvider');
  return value;
}

/** For views that are only routed to with a session (the router redirects to /connect otherwise). */
export function useConnectedSession(): Session {
  const { session } = useSession();
  if (!session) throw new Error('No connection: this view needs a session');
  return session;
}
