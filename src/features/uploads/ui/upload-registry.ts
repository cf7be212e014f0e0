import { useSyncExternalStore } from 'react';
import type { UploadTotals } from '../engine/queue.ts';
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

/** Overall progress of the session's unfinished transfers, 0–100 (whole percent); 0 while none was started. */
export function useOverallUploadPercent(scope: string): number {
  return useSyncExternalStore(subscribe, () => {
    const totals = peekUploadSession(scope)?.queue.getSnapshot().totals;
    if (!totals || totals.bytesTotal <= 0) return 0;
    return Math.min(100, Math.floor((totals.bytesSent / totals.bytesTotal) * 100));
  });
}

/** The session's totals (bytes, speed, ETA; the queue's immutable snapshot), or undefined while none was started. */
export function useUploadTotals(scope: string): UploadTotals | undefined {
  return useSyncExternalStore(subscribe, () => peekUploadSession(scope)?.queue.getSnapshot().totals);
}

/**
 * The upload drawer's state, shared by the toolbar's "Upload" button, the header's upload indicator and the
 * drawer itself (rendered once, by the app shell): `target` is the folder the drawer uploads to, set by the
 * object browser the user last opened it from.
 */
export interface UploadTarget {
  zone: string;
  bucket: string;
  prefix: string;
}
let drawer: { open: boolean; target: UploadTarget | undefined } = { open: false, target: undefined };
const drawerListeners = new Set<() => void>();

function subscribeDrawer(listener: () => void): () => void {
  drawerListeners.add(listener);
  return () => drawerListeners.delete(listener);
}

export function setUploadDrawer(next: { open?: boolean; target?: UploadTarget }): void {
  const target = next.target ?? drawer.target;
  const open = (next.open ?? drawer.open) && target !== undefined;
  const same = drawer.open === open && drawer.target?.zone === target?.zone && drawer.target?.bucket === target?.bucket && drawer.target?.prefix === target?.prefix;
  if (same) return;
  drawer = { open, target };
  for (const listener of [...drawerListeners]) listener();
}

export function useUploadDrawer(): { open: boolean; target: UploadTarget | undefined } {
  return useSyncExternalStore(subscribeDrawer, () => drawer);
}
