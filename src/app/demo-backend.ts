/**
 * The console's one door to the emulator (demo mode): the only module of src/ that imports mocks/
 * (.ci/boundaries.ts holds the rest of src/ to that). It imports mocks/browser.ts dynamically, so a build
 * used against a real endpoint never downloads the emulator. main.tsx starts the backend before the first
 * render of a demo tab; the shell hands `demoDataControls` to the demo badge's dialog, which says where the
 * data lives and resets it.
 */
const browserAdapter = () => import('../../mocks/browser.ts');

/** Seeds the demo data (or loads what this browser kept) and starts the service worker. */
export async function startDemoBackend(): Promise<void> {
  await (await browserAdapter()).startDemoBackend();
}

/** For the demo data dialog (src/components/demo-data-dialog.tsx); the module is loaded by then. */
export const demoDataControls = {
  storage: async (): Promise<'browser' | 'memory'> => (await browserAdapter()).demoStorage(),
  reset: async (): Promise<void> => (await browserAdapter()).resetDemoData(),
  /** Saved records this start left out because they were damaged (src/components/demo-damage-notice.tsx). */
  damaged: async (): Promise<readonly string[]> => (await (await browserAdapter()).demoDamage()).map((record) => record.name),
};
