import { useSyncExternalStore } from 'react';
import type { UploadTotals } from '../engine/index.ts';
import type { DrawerState, UploadHost } from './upload-host.ts';
import { useUploadHost } from './uploads-provider.tsx';

/**
 * What the toolbar's "Upload" button, the header's indicator and the drawer read from the app's upload host,
 * without the engine: before a session exists they show no transfers.
 */

/** Transfers running or queued in the session of `scope`; 0 while none was started. */
export function useActiveUploadCount(scope: string): number {
  const host = useUploadHost();
  return useSyncExternalStore(host.subscribe, () => {
    const counts = host.peek(scope)?.queue.getSnapshot().totals.counts;
    return counts ? counts.running + counts.queued : 0;
  });
}

/** Overall progress of the session's unfinished transfers, 0–100 (whole percent); 0 while none was started. */
export function useOverallUploadPercent(scope: string): number {
  const host = useUploadHost();
  return useSyncExternalStore(host.subscribe, () => {
    const totals = host.peek(scope)?.queue.getSnapshot().totals;
    if (!totals || totals.bytesTotal <= 0) return 0;
    return Math.min(100, Math.floor((totals.bytesSent / totals.bytesTotal) * 100));
  });
}

/** The session's totals (bytes, speed, ETA; the queue's immutable snapshot), or undefined while none was started. */
export function useUploadTotals(scope: string): UploadTotals | undefined {
  const host = useUploadHost();
  return useSyncExternalStore(host.subscribe, () => host.peek(scope)?.queue.getSnapshot().totals);
}

/**
 * The upload drawer's state, shared by the toolbar's "Upload" button, the header's upload indicator and the
 * drawer itself (rendered once, by the app shell), with the host's setter.
 */
export function useUploadDrawer(): DrawerState & { set: UploadHost['setDrawer'] } {
  const host = useUploadHost();
  const drawer = useSyncExternalStore(host.subscribeDrawer, host.drawer);
  return { ...drawer, set: host.setDrawer };
}
