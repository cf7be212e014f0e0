import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// `npx playwright test -c playwright.screenshots.config.ts` writes e2e/screenshots/*.png (the README shows them):
// every main screen of the demo at 1280 px and 390 px, light and dark, English and Chinese. The screens come
// from the production build; the component catalogue (development builds only) from the dev server beside it,
// on the next port (CATALOGUE_PORT in e2e/support/shots.ts).
const port = Number(process.env.E2E_PORT ?? 4317);
const previewServer = base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, reuseExistingServer: true } : undefined;

export default defineConfig({
  ...base,
  testMatch: '**/*.shots.ts',
  workers: 1,
  webServer: [
    ...(previewServer ? [previewServer] : []),
    { command: `npx vite --host 127.0.0.1 --port ${port + 1} --strictPort`, url: `http://127.0.0.1:${port + 1}/_catalogue`, reuseExistingServer: true, timeout: 120_000 },
  ],
});
