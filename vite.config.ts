import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './src/serve/precompress.ts';

/**
 * A reload of a tab that is in demo mode (sessionStorage 'qsc.mode' = 'demo', no remembered connection:
 * see src/app/boot.ts) preloads the demo backend's chunks from index.html, in parallel with the entry
 * script instead of after it. A first visit or an endpoint tab preloads nothing, so endpoint mode still
 * never downloads the emulator. The decision runs in a small classic script of its own (emitted here,
 * loaded before the deferred entry module), never inline: the console's CSP allows only its own files.
 */
function preloadDemoOnReload(): Plugin {
  return {
    name: 'qsc-preload-demo-on-reload',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map<string, { imports: readonly string[] }>();
        let entry: string | undefined;
        for (const [fileName, output] of Object.entries(bundle)) {
          if (output.type !== 'chunk') continue;
          chunks.set(fileName, { imports: output.imports });
          if (output.facadeModuleId?.replaceAll('\\', '/').endsWith('/mocks/browser.ts')) entry = fileName;
        }
        const html = bundle['index.html'];
        if (entry === undefined || html === undefined || html.type !== 'asset') return;
        const files: string[] = [];
        const visit = (file: string) => {
          if (files.includes(file)) return;
          files.push(file);
          for (const child of chunks.get(file)?.imports ?? []) visit(child);
        };
        visit(entry);
        const hrefs = JSON.stringify(files.map((file) => `/${file}`));
        const code = `try{var s=sessionStorage;if(s.getItem('qsc.mode')==='demo'&&!s.getItem('qsc.session'))${hrefs}.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l)})}catch(e){}\n`;
        const ref = this.emitFile({ type: 'asset', name: 'demo-preload.js', source: code });
        const tag = `<script src="/${this.getFileName(ref)}"></script>`;
        const source = String(html.source);
        const at = source.indexOf('<script');
        html.source = at < 0 ? source.replace('</head>', `${tag}</head>`) : `${source.slice(0, at)}${tag}\n    ${source.slice(at)}`;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), preloadDemoOnReload()],
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
          groups: [{ name: 'core', test: /node_modules[\\/](react|react-dom|scheduler|zod|@tanstack[\\/](query-core|react-query))[\\/]|src[\\/]lib[\\/]zod-config\.ts$/ }],
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
