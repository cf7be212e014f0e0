import { z } from 'zod';
import { connectionSchema, DEMO_CONNECTION, DEMO_ZONE } from '../api/connection.ts';
import type { Session } from '../hooks/session.ts';

/**
 * sessionStorage keys. `MODE_KEY` holds no secret: it only says "this tab left demo mode", so a
 * reload does not start the mock worker. `SESSION_KEY` exists only after the user ticked
 * "remember in this tab" and then holds the connection including the secret (issue 4: opt-in).
 */
export const MODE_KEY = 'qsc.mode';
export const SESSION_KEY = 'qsc.session';

const storedSessionSchema = z.object({
  mode: z.enum(['endpoint', 'anonymous']),
  connection: connectionSchema,
  zones: z.array(z.string()).min(1),
  bucket: z.object({ zone: z.string(), name: z.string() }).optional(),
});

export type BootMode =
  | { kind: 'demo'; session: Session }
  | { kind: 'endpoint'; session: Session | null };

export const DEMO_SESSION: Session = { mode: 'demo', connection: DEMO_CONNECTION, zones: [DEMO_ZONE] };

function readStorage(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Decides before the first render whether the demo backend must start (see main.tsx). */
export function decideBootMode(pathname: string, storage: Storage | undefined): BootMode {
  const stored = readStorage(storage, SESSION_KEY);
  if (stored) {
    try {
      const parsed = storedSessionSchema.safeParse(JSON.parse(stored));
      if (parsed.success) {
        const { bucket, ...rest } = parsed.data;
        return { kind: 'endpoint', session: bucket ? { ...rest, bucket } : rest };
      }
    } catch {
      // Corrupt entry: fall through and treat the tab as not connected.
    }
  }
  if (readStorage(storage, MODE_KEY) === 'endpoint' || pathname === '/connect' || pathname.startsWith('/connect/')) {
    return { kind: 'endpoint', session: null };
  }
  return { kind: 'demo', session: DEMO_SESSION };
}

export function saveSession(storage: Storage, session: Session | null): void {
  try {
    if (session && session.mode !== 'demo') storage.setItem(SESSION_KEY, JSON.stringify(session));
    else storage.removeItem(SESSION_KEY);
  } catch {
    // Storage full or disabled: the session simply is not remembered.
  }
}

export function setEndpointMode(storage: Storage, on: boolean): void {
  try {
    if (on) storage.setItem(MODE_KEY, 'endpoint');
    else {
      storage.removeItem(MODE_KEY);
      storage.removeItem(SESSION_KEY);
    }
  } catch {
    // Without storage the choice lasts until reload.
  }
}
