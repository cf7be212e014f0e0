import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: the chunk graph bench/bundle-size.ts walks to weigh what each first screen loads
    manifest: true,
  },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'mocks/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
