import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { ROUTE_VIEWS } from './src/app/route-views.ts';
import { bootPreload } from './src/serve/boot-preload.ts';
import { entryGroup, screensGroup } from './src/serve/entry-group.ts';
import { precompress } from './src/serve/precompress.ts';

// The entry's own modules as one chunk, and what the screens' views share beyond it one chunk per set of
// screens sharing it (src/serve/entry-group.ts).
const entry = entryGroup('src/main.tsx');
const screens = screensGroup(
  // A screen's label is its path's literal segments: /buckets/:zone/:bucket/uploads is buckets.uploads.
  // The demo backend counts as a screen: it loads only what it uses of the views' code, none of another screen's.
  [
    // A view below a route's path (?upload=…, one upload's parts) is a screen of its own, `view` (short: chunk names
    // are in every import of them): what only it and other screens use (the parts table's virtualiser) must not join
    // a chunk the route's first screen loads.
    ...ROUTE_VIEWS.map((route) => ({ label: route.search ? 'view' : route.path.split('/').filter((s) => s && !s.startsWith(':')).join('.') || 'home', modules: route.modules })),
    { label: 'demo', modules: ['mocks/browser.ts'] },
  ],
  'src/main.tsx',
  ['demo'],
);

export default defineConfig({
  // boot-preload: a deep link's view (and a demo tab's backend) downloads with the entry, not after it.
  plugins: [react(), precompress(), bootPreload({ routes: ROUTE_VIEWS, demo: 'mocks/browser.ts' }), entry.plugin, screens.plugin],
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: the chunk graph bench/bundle-size.ts walks to weigh what each first screen loads
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every screen needs travel as one chunk: split by importer they became a dozen
          // small chunks, each compressed alone, which cost the first screen more than they saved.
          // zod's configuration travels with zod, so it applies before any chunk defines a schema (no eval under
          // the CSP: src/lib/zod-config.ts).
          groups: [
            { name: 'core', priority: 2, test: /node_modules[\\/](react|react-dom|scheduler|zod|@tanstack[\\/](query-core|react-query))[\\/]|src[\\/]lib[\\/]zod-config\.ts$/ },
            { name: 'app', priority: 1, test: entry.test },
            { name: screens.name, debugName: 'screens', test: screens.test, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts', '.ci/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
