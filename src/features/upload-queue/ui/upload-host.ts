import type { QueryClient } from '@tanstack/react-query';
import type { QsClient } from '../../../api/client.ts';
import { connectionId } from '../../../api/connection.ts';
import type { Md5Hasher, UploadQueue } from '../engine/index.ts';
import type { PendingBatchStore } from './pending-batch.ts';
import type { UploadSettings } from './settings.ts';

/**
 * The app's upload state, without the engine: one host per app, created by UploadsProvider
 * (uploads-provider.tsx) and read through upload-hooks.ts and useUploadSession (upload-session.ts). It holds
 * - the upload session of the current connection, created on first need by `open` and disposed when
 *   another connection opens one;
 * - the upload drawer's state (open or closed, and the folder it uploads to).
 * It is framework-free so non-React code (a drop on the object list) can use it too.
 */

/**
 * The upload session of one connection: the queue of its transfers, the hasher and the panel's settings.
 * createUploadSession (upload-session.ts) makes it; it lives as long as the app, not a component, so
 * transfers survive navigation between the object browser and the multipart inspector.
 */
export interface UploadSession {
  queue: UploadQueue;
  hasher: Md5Hasher;
  scope: string;
  /** Applies panel settings to transfers started from now on. */
  applySettings(settings: UploadSettings): void;
  settings(): UploadSettings;
  /** A dropped batch waiting for the drawer's question about keys that exist. */
  pendingBatch: PendingBatchStore;
}

/** The folder the upload drawer uploads to, set by the object browser the user last opened it from. */
export interface UploadTarget {
  zone: string;
  bucket: string;
  prefix: string;
}

export interface DrawerState {
  readonly open: boolean;
  readonly target: UploadTarget | undefined;
}

export interface UploadHost {
  /** Told when the session is replaced or its queue changes. */
  subscribe(listener: () => void): () => void;
  /** The session of `scope` (a connection id), if one was opened in this app. */
  peek(scope: string): UploadSession | undefined;
  /**
   * The session of the client's connection, made by `create` on the first call for it. `create` comes from
   * the caller (createUploadSession, in upload-session.ts), so the engine loads with the code that needs it
   * (the upload panel, the inspector's resume, a drop) and never with the app's first screen.
   */
  open(client: QsClient, create: (client: QsClient, queryClient: QueryClient) => UploadSession): UploadSession;
  subscribeDrawer(listener: () => void): () => void;
  drawer(): DrawerState;
  /** Opens or closes the drawer and/or changes its target; the drawer cannot be open without a target. */
  setDrawer(next: { open?: boolean; target?: UploadTarget }): void;
}

export function createUploadHost(queryClient: QueryClient): UploadHost {
  const state: {
    session: { scope: string; value: UploadSession; unsubscribe: () => void } | undefined;
    drawer: DrawerState;
  } = { session: undefined, drawer: { open: false, target: undefined } };
  const listeners = new Set<() => void>();
  const drawerListeners = new Set<() => void>();

  const notify = (set: Set<() => void>) => {
    for (const listener of [...set]) listener();
  };

  function install(scope: string, value: UploadSession): void {
    const previous = state.session;
    state.session = { scope, value, unsubscribe: value.queue.subscribe(() => notify(listeners)) };
    // A new connection: the transfers of the previous one stop with it.
    if (previous) {
      previous.unsubscribe();
      previous.value.queue.dispose();
    }
    notify(listeners);
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    peek: (scope) => (state.session?.scope === scope ? state.session.value : undefined),
    open(client, create) {
      const scope = connectionId(client.connection);
      if (state.session?.scope === scope) return state.session.value;
      const value = create(client, queryClient);
      install(scope, value);
      return value;
    },
    subscribeDrawer(listener) {
      drawerListeners.add(listener);
      return () => drawerListeners.delete(listener);
    },
    drawer: () => state.drawer,
    setDrawer(next) {
      const { drawer } = state;
      const target = next.target ?? drawer.target;
      const open = (next.open ?? drawer.open) && target !== undefined;
      const same = drawer.open === open && drawer.target?.zone === target?.zone && drawer.target?.bucket === target?.bucket && drawer.target?.prefix === target?.prefix;
      if (same) return;
      state.drawer = { open, target };
      notify(drawerListeners);
    },
  };
}
