import { z } from 'zod';
import type { Session } from '../../hooks/session.ts';

/**
 * Past connections offered on the Connect page. What is kept in localStorage is only what identifies a
 * connection (endpoint, zones, addressing, proxy, copy limit, access key id, bucket): never a secret.
 * A secret is kept only when the user ticked "remember in this tab", and then in sessionStorage, keyed
 * by the entry's id, so it ends with the tab like the remembered session itself.
 */
export const RECENT_KEY = 'qsc.recent-connections';
export const RECENT_SECRETS_KEY = 'qsc.recent-secrets';
export const RECENT_LIMIT = 5;

const recentSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['keys', 'anonymous']),
  endpoint: z.string().min(1),
  zones: z.array(z.string()).min(1),
  zoneInHost: z.boolean(),
  style: z.enum(['path', 'virtual-host']),
  proxy: z.string(),
  copyLimit: z.number().int().positive().optional(),
  accessKeyId: z.string(),
  bucket: z.string(),
  usedAt: z.number(),
});
export type RecentConnection = z.infer<typeof recentSchema>;

const secretsSchema = z.record(z.string(), z.string());

function read(storage: Storage | undefined, key: string): unknown {
  try {
    const raw = storage?.getItem(key);
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
}

function write(storage: Storage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the connection is simply not offered next time.
  }
}

/** The entry a session is remembered as (no secret in it). */
export function recentFromSession(session: Session, usedAt: number): RecentConnection {
  const { connection } = session;
  const kind = session.mode === 'anonymous' ? 'anonymous' : 'keys';
  const accessKeyId = connection.credentials?.accessKeyId ?? '';
  const proxy = connection.proxy ?? '';
  const bucket = session.bucket?.name ?? '';
  const id = [kind, accessKeyId, connection.endpoint, proxy, connection.style, connection.zoneInHost ? 'zone-host' : 'fixed-host', bucket].join('|');
  return {
    id,
    kind,
    endpoint: connection.endpoint,
    zones: session.zones,
    zoneInHost: connection.zoneInHost,
    style: connection.style,
    proxy,
    ...(connection.copyLimit !== undefined ? { copyLimit: connection.copyLimit } : {}),
    accessKeyId,
    bucket,
    usedAt,
  };
}

/** Most recent first; entries that do not parse (an older format, a hand edit) are dropped. */
export function loadRecent(storage: Storage | undefined = globalThis.localStorage): RecentConnection[] {
  const value = read(storage, RECENT_KEY);
  if (!Array.isArray(value)) return [];
  const entries: RecentConnection[] = [];
  for (const item of value) {
    const parsed = recentSchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries.sort((a, b) => b.usedAt - a.usedAt).slice(0, RECENT_LIMIT);
}

/** Puts the session's connection first; the secret is kept (in `tabStorage`) only when `remember` is set. */
export function rememberRecent(session: Session, options: { remember: boolean; now?: number; storage?: Storage | undefined; tabStorage?: Storage | undefined }): void {
  if (session.mode === 'demo') return;
  const storage = options.storage ?? globalThis.localStorage;
  const tabStorage = options.tabStorage ?? globalThis.sessionStorage;
  const entry = recentFromSession(session, options.now ?? Date.now());
  const rest = loadRecent(storage).filter((e) => e.id !== entry.id);
  write(storage, RECENT_KEY, [entry, ...rest].slice(0, RECENT_LIMIT));
  const secrets = loadSecrets(tabStorage);
  const secret = session.connection.credentials?.secretAccessKey;
  if (options.remember && secret) secrets[entry.id] = secret;
  else delete secrets[entry.id];
  write(tabStorage, RECENT_SECRETS_KEY, secrets);
}

/** Removes one entry and its secret ("Disconnect", or "Forget" on the Connect page). */
export function forgetRecent(id: string, storage: Storage | undefined = globalThis.localStorage, tabStorage: Storage | undefined = globalThis.sessionStorage): void {
  write(storage, RECENT_KEY, loadRecent(storage).filter((e) => e.id !== id));
  const secrets = loadSecrets(tabStorage);
  if (Object.hasOwn(secrets, id)) {
    delete secrets[id];
    write(tabStorage, RECENT_SECRETS_KEY, secrets);
  }
}

export function forgetSession(session: Session): void {
  if (session.mode === 'demo') return;
  forgetRecent(recentFromSession(session, 0).id);
}

function loadSecrets(tabStorage: Storage | undefined): Record<string, string> {
  const parsed = secretsSchema.safeParse(read(tabStorage, RECENT_SECRETS_KEY));
  // A null-prototype copy: an id such as "__proto__" stays an ordinary key.
  return Object.assign(Object.create(null) as Record<string, string>, parsed.success ? parsed.data : {});
}

/** The secret kept for `id` in this tab, '' when the user did not opt in. */
export function recentSecret(id: string, tabStorage: Storage | undefined = globalThis.sessionStorage): string {
  const secrets = loadSecrets(tabStorage);
  return Object.hasOwn(secrets, id) ? (secrets[id] ?? '') : '';
}
