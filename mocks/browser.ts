/**
 * Browser adapter: the emulator in msw's service worker, started lazily by the console in demo mode
 * (src/main.tsx imports this module dynamically). Requests to https://qingstor.invalid and its zone/bucket
 * subdomains are answered in the page; `.invalid` never resolves, so nothing can leak to a real service.
 * So are the console's same-origin demo object links (`/demo-object/…`, see demo-link.ts). Everything else (the
 * app's own assets, real endpoints) bypasses the worker.
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import { interceptDemoXhr } from './browser-xhr.ts';
import { demoLinkHandler } from './demo-link.ts';
import { createEmulator, type Emulator } from './emulator.ts';

export const DEMO_DOMAIN = 'qingstor.invalid';

export interface DemoBackend {
  worker: SetupWorker;
  emulator: Emulator;
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
    let emulator: Emulator;
    try {
      emulator = await createEmulator({
        seed: 'demo',
        domains: [DEMO_DOMAIN],
        defaultZone: 'pek3a',
        ...(options.copyLimit !== undefined ? { copyLimit: options.copyLimit } : {}),
      });
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
    return { worker, emulator };
  })();
  starting.catch(() => {
    starting = undefined;
  });
  return starting;
}
