// oxlint-disable-next-line import/no-unassigned-import -- must run before any schema is defined (no eval under the CSP)
import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { decideBootMode, readServeMeta, setEndpointMode } from './app/boot.ts';
import { prefetchFirstListing, preloadFirstListing } from './app/first-listing.ts';
import { startDemoBackend } from './app/demo-backend.ts';
import { createQueryClient } from './app/query-client.ts';
import { preloadRoute } from './app/router.tsx';
import { installWindowDropGuard } from './hooks/window-drop-guard.ts';
import { ensureLocale, initialLocale } from './i18n/i18n.tsx';
import { applyTheme, loadTheme } from './lib/theme.ts';

/** The longest boot waits for the first listing's request to be sent before rendering (see below). */
const FIRST_REQUEST_WAIT_MS = 150;

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
const root = createRoot(rootElement);

// The remembered theme applies before anything renders (no light flash on a dark choice).
applyTheme(loadTheme());
installWindowDropGuard(window);

try {
  const locale = ensureLocale(initialLocale()).catch(() => undefined);
  // The first view's code downloads alongside the boot steps below rather than after them; the code of its
  // first request (app/first-listing.ts) is asked for first.
  preloadFirstListing(window.location.pathname);
  preloadRoute(window.location.pathname, window.location.search);
  // The serve proxy's config is in the page (src/serve/serve-meta.ts): the mode is known without a request,
  // and a demo tab's backend (preloaded by boot-preload.js on a first visit too) is asked for at once.
  const mode = decideBootMode(window.location.pathname, window.sessionStorage, readServeMeta(document));
  // Remember the tab's mode, so a reload on a deep link stays out of (or in) the demo.
  setEndpointMode(window.sessionStorage, mode.kind === 'endpoint');
  if (mode.kind === 'demo') {
    // The emulator's chunk is imported here only: a build used against a real endpoint never downloads it.
    await startDemoBackend();
  }
  // A deep link into a bucket: its first page is requested now, while the view's code loads and renders.
  // Rendering waits until the request is on its way (not answered): the first render is one long task that
  // would otherwise hold it back. It waits FIRST_REQUEST_WAIT_MS at most, so a slow or stalled chunk never
  // keeps the page blank; a chunk that fails to load leaves the list to ask by itself.
  const queryClient = createQueryClient();
  await Promise.race([
    prefetchFirstListing(queryClient, mode.session, window.location).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, FIRST_REQUEST_WAIT_MS)),
  ]);
  await locale;
  root.render(
    <StrictMode>
      <App initialSession={mode.session} demoAvailable={mode.kind === 'demo'} serve={mode.kind === 'endpoint' ? mode.serve : undefined} queryClient={queryClient} />
    </StrictMode>,
  );
} catch (error) {
  // No i18n yet at this point in boot; a plain bilingual line is the most we can promise.
  const message = error instanceof Error ? error.message : String(error);
  console.error('Console boot failed', error);
  root.render(
    <p role="alert">
      The console could not start / 控制台无法启动: {message}
    </p>,
  );
}
