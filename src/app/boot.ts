import { z } from 'zod';
import { connectionSchema, DEMO_CONNECTION, DEMO_ZONE, endpointSchema, proxyBaseSchema } from '../api/connection.ts';
import type { Session } from '../hooks/session.ts';

/**
 * sessionStorage keys. `MODE_KEY` holds no secret: it only records the tab's choice ('endpoint' or
 * 'demo'), so a reload does not start (or skip) the mock worker against the user's wish. `SESSION_KEY` exists only after the user ticked
 * "remember in this tab" and then holds the connection including the secret (opt-in only).
 */
export const MODE_KEY = 'qsc.mode';
export const SESSION_KEY = 'qsc.session';

const storedSessionSchema = z.object({
  mode: z.enum(['endpoint', 'anonymous']),
  connection: connectionSchema,
  zones: z.array(z.string()).min(1),
  bucket: z.object({ zone: z.string(), name: z.string() }).optional(),
});

/**
 * `npm run serve` puts its config in the page it sends (src/serve/serve-meta.ts): the console is then behind
 * the same-origin proxy for `endpoint`, and the Connect form is prefilled with both.
 */
export const SERVE_META_NAME = 'qsc-serve';
export const serveConfigSchema = z.object({ proxyBase: proxyBaseSchema, endpoint: endpointSchema });
export type ServeConfig = z.infer<typeof serveConfigSchema>;

export type BootMode =
  | { kind: 'demo'; session: Session }
  | { kind: 'endpoint'; session: Session | null; serve?: ServeConfig };

export const DEMO_SESSION: Session = { mode: 'demo', connection: DEMO_CONNECTION, zones: [DEMO_ZONE] };

function readStorage(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * Decides before the first render whether the demo backend must start (see main.tsx). Order: a
 * remembered session, the tab's explicit choice or /connect, then a same-origin proxy (which exists to
 * reach a real endpoint), then the demo.
 */
export function decideBootMode(pathname: string, storage: Storage | undefined, serve?: ServeConfig): BootMode {
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
  const choice = readStorage(storage, MODE_KEY);
  const withServe = serve ? { serve } : {};
  if (choice === 'endpoint' || pathname === '/connect' || pathname.startsWith('/connect/')) {
    return { kind: 'endpoint', session: null, ...withServe };
  }
  if (choice !== 'demo' && serve) return { kind: 'endpoint', session: null, serve };
  return { kind: 'demo', session: DEMO_SESSION };
}

/** The serve proxy's config from the page (serve-meta.ts); undefined under any other server or when it does not validate. */
export function readServeMeta(doc: Pick<Document, 'querySelector'>): ServeConfig | undefined {
  const content = doc.querySelector(`meta[name="${SERVE_META_NAME}"]`)?.getAttribute('content');
  if (!content) return undefined;
  try {
    const parsed = serveConfigSchema.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
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
    storage.setItem(MODE_KEY, on ? 'endpoint' : 'demo');
    if (!on) storage.removeItem(SESSION_KEY);
  } catch {
    // Without storage the choice lasts until reload.
  }
}
