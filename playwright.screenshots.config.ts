import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// `npx playwright test -c playwright.screenshots.config.ts` writes e2e/screenshots/*.png (the README shows them):
// every main screen of the demo at 1280 px and 390 px, light and dark.
export default defineConfig({
  ...base,
  testMatch: '**/*.shots.ts',
  workers: 1,
  webServer: base.webServer && !Array.isArray(base.webServer) ? { ...base.webServer, reuseExistingServer: true } : base.webServer,
});
