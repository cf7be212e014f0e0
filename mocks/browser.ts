/**
 * Browser adapter: the emulator in msw's service worker, started lazily by the console in demo mode
 * (src/app/demo-backend.ts imports this module dynamically). Requests to https://qingstor.invalid and its
 * zone/bucket subdomains are answered in the page: the console's fetches and XHRs directly (browser-fetch.ts,
 * browser-xhr.ts), whatever the browser loads by itself through the worker; `.invalid` never resolves, so
 * nothing can leak to a real service.
 * So are the console's same-origin demo object links (`/demo-object/…`, see demo-link.ts). Everything else (the
 * app's own assets, real endpoints) bypasses the worker.
 *
 * The demo's data is kept in this browser's IndexedDB (store/idb.ts): edits survive a reload, and
 * resetDemoData() brings the seed back. Without IndexedDB (blocked by the browser) it runs in memory.
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import { interceptDemoFetch } from './browser-fetch.ts';
import { interceptDemoXhr } from './browser-xhr.ts';
import { demoLinkHandler } from './demo-link.ts';
import { createEmulator, type Emulator } from './emulator.ts';
import { answerBeforeSeedCommits, writeSeedAfterFirstPaint } from './seed-durability.ts';
import { lazySourceById } from './seed.ts';
import { IdbPersistence, type DamagedRecord } from './store/idb.ts';
import { Md5 } from './store/md5.ts';

export const DEMO_DOMAIN = 'qingstor.invalid';

export interface DemoBackend {
  worker: SetupWorker;
  emulator: Emulator;
  /** Undefined when this browser offers no IndexedDB: the demo then keeps its data in memory only. */
  persistence: IdbPersistence | undefined;
}

let starting: Promise<DemoBackend> | undefined;

export interface DemoBackendOptions {
  /** The emulator's copy limit (CreateEmulatorOptions.copyLimit); default the emulator's. */
  copyLimit?: number;
}

/** Seeds the demo data and starts the worker; calling it again returns the same backend (first options win). */
export function startDemoBackend(options: DemoBackendOptions = {}): Promise<DemoBackend> {
  starting ??= (async () => {
    // The worker's registration and handshake (messages to the service worker) proceed while the store
    // seeds; its handlers are set before this resolves, i.e. before the console sends any request.
    const worker = setupWorker();
    const started = worker.start({ onUnhandledFrame: 'bypass', quiet: true });
    // The store's MD5 (hash-wasm, a chunk of its own) loads while IndexedDB opens, not after it.
    Md5.preload();
    let emulator: Emulator;
    let persistence: IdbPersistence | undefined;
    const start = async (kept: IdbPersistence | undefined) => {
      // The first answers do not wait for the seed's transaction (seed-durability.ts).
      const durability = kept ? answerBeforeSeedCommits(kept) : undefined;
      const created = await createEmulator({
        seed: 'demo',
        domains: [DEMO_DOMAIN],
        defaultZone: 'pek3a',
        ...(options.copyLimit !== undefined ? { copyLimit: options.copyLimit } : {}),
        ...(durability ? { persistence: durability.persistence } : {}),
      });
      durability?.started();
      // Nor is the seed written before the first rows are painted (seed-durability.ts).
      if (kept && durability) void writeSeedAfterFirstPaint(durability, kept);
      return created;
    };
    try {
      persistence = await openPersistence();
      try {
        emulator = await start(persistence);
      } catch (error) {
        if (!persistence) throw error;
        // What this browser kept cannot be loaded at all (not one damaged record: those are left out one by
        // one, see IdbPersistence.restore): start over from the seed.
        console.warn('[qingstor-demo] the saved demo data could not be loaded; starting again from the original demo data', error);
        await persistence.reset();
        persistence = await openPersistence();
        emulator = await start(persistence);
      }
    } catch (error) {
      await started.catch(() => undefined);
      throw error;
    }
    // Object links the browser follows by itself (downloads, previews) come to the console's own origin
    // (mocks/demo-link.ts), so they never leave the console for the unresolvable demo host.
    worker.resetHandlers(demoLinkHandler(emulator.handlers, location.origin), ...emulator.handlers);
    await started;
    // Upload progress: XHRs to the demo domain are answered in the page, see browser-xhr.ts.
    interceptDemoXhr(emulator.handlers, DEMO_DOMAIN);
    // The console's fetches too, without a round trip through the worker, see browser-fetch.ts.
    interceptDemoFetch(emulator.respond, DEMO_DOMAIN);
    return { worker, emulator, persistence };
  })();
  starting.catch(() => {
    starting = undefined;
  });
  return starting;
}

async function openPersistence(): Promise<IdbPersistence | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  try {
    return await IdbPersistence.open({ lazySource: lazySourceById, holdWrites: true });
  } catch (error) {
    console.warn('[qingstor-demo] IndexedDB is not available: the demo data is kept in memory only', error);
    return undefined;
  }
}

export type { DamagedRecord } from './store/idb.ts';

/**
 * The saved records this start had to leave out because they were damaged (each is gone; everything else was
 * loaded); empty when nothing was. The console shows them in a notice (src/components/demo-damage-notice.tsx).
 */
export async function demoDamage(): Promise<readonly DamagedRecord[]> {
  const backend = await starting?.catch(() => undefined);
  const damaged = backend?.persistence?.damaged ?? [];
  if (damaged.length > 0) console.warn('[qingstor-demo] saved demo records left out because they were damaged:', damaged);
  return damaged;
}

/** Where the running demo keeps its data: in this browser (IndexedDB), or in this page's memory only. */
export async function demoStorage(): Promise<'browser' | 'memory'> {
  const backend = await starting?.catch(() => undefined);
  return backend?.persistence ? 'browser' : 'memory';
}

/**
 * Forgets the demo data kept in this browser (every edit since the seed). The running emulator stops
 * saving; reload the page afterwards to start again from the seed.
 */
export async function resetDemoData(): Promise<void> {
  const backend = await starting;
  await backend?.persistence?.reset();
}
