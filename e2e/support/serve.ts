/**
 * The console as `npm run serve` runs it (src/serve/serve.ts: the production build and the same-origin API
 * proxy) in front of the worker's standalone emulator: the `serve` fixture of the journeys that need it.
 * dist/ is the build the Playwright webServer made (`npm run build`); QSC_DIST points elsewhere if needed.
 */
import { resolve } from 'node:path';
import { startServe, type RunningServe } from '../../src/serve/serve.ts';
import { test as base } from './emulator.ts';

export const SERVED_DIST = resolve(import.meta.dirname, '../..', process.env.QSC_DIST ?? 'dist');

export const test = base.extend<Record<never, never>, { serve: RunningServe }>({
  serve: [
    async ({ emulator }, use) => {
      const running = await startServe({ endpoint: emulator.url, port: 0, dist: SERVED_DIST });
      await use(running);
      await running.close();
    },
    { scope: 'worker' },
  ],
});
