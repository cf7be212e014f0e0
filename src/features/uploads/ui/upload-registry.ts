import { useSyncExternalStore } from 'react';
import type { UploadSession } from './upload-store.ts';

/**
 * Where the page's upload session is kept, without the engine: the object browser's "Upload" button shows
 * how many transfers are active from here, so the engine (queue, hasher worker, IndexedDB) loads and
 * starts only when the upload panel or the inspector's "resume from a local file" first needs it.
 */

let current: { scope: string; session: UploadSession } | undefined;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The session of `scope` (a connection id), if one was started in this page. */
export function peekUploadSession(scope: string): UploadSession | undefined {
  return current?.scope === scope ? current.session : undefined;
}

/** Makes `session` the page's session; returns the one it replaced. Its queue's changes reach subscribers here. */
export function registerUploadSession(scope: string, session: UploadSession): UploadSession | undefined {
  const previous = current?.session;
  current = { scope, session };
  session.queue.subscribe(() => {
    if (current?.session === session) notify();
  });
  notify();
  return previous;
}

/** Transfers running or queued in the session of `scope`; 0 while none was started. */
export function useActiveUploadCount(scope: string): number {
  return useSyncExternalStore(subscribe, () => {
    const counts = peekUploadSession(scope)?.queue.getSnapshot().totals.counts;
    return counts ? counts.running + counts.queued : 0;
  });
}
