import { describe, expect, it } from 'vitest';
import { decideBootMode, MODE_KEY, SERVE_META_NAME as BOOT_SERVE_META_NAME } from '../app/boot.ts';
import { ROUTE_VIEWS } from '../app/route-views.ts';
import { SERVE_META_NAME, withServeMeta } from './serve-meta.ts';
import { bootPreload, bootPreloadSource, bootPreloadTable, type BootPreloadTable, type BuiltChunk } from './boot-preload.ts';
import { MemoryStorage } from '../test-support/memory-storage.ts';

interface FakeLink {
  rel: string;
  as?: string;
  href: string;
  crossOrigin?: string;
}

/** Runs the script against a fake page: what links it adds to the head for this address and tab. */
function run(table: BootPreloadTable, url: string, storage: Record<string, string> = {}, behindServe = false): FakeLink[] {
  const added: FakeLink[] = [];
  const { pathname, search } = new URL(url, 'https://console.test');
  const document = {
    createElement: () => ({ rel: '', href: '' }),
    head: { appendChild: (link: FakeLink) => added.push(link) },
    querySelector: (selector: string) => (behindServe && selector === `meta[name=${SERVE_META_NAME}]` ? {} : null),
  };
  const sessionStorage = { getItem: (key: string) => storage[key] ?? null };
  new Function('location', 'document', 'sessionStorage', bootPreloadSource(table))({ pathname, search }, document, sessionStorage);
  return added;
}

const table: BootPreloadTable = {
  routes: [
    { segments: [], scripts: ['/assets/home.js'], styles: [] },
    { segments: ['buckets', ':zone', ':bucket'], scripts: ['/assets/bucket.js', '/assets/client.js'], styles: ['/assets/bucket.css'] },
    { segments: ['buckets', ':zone', ':bucket', 'uploads'], scripts: ['/assets/uploads.js', '/assets/client.js'], styles: [] },
    { segments: ['buckets', ':zone', ':bucket', 'uploads'], search: '[?&]upload=', scripts: ['/assets/detail.js', '/assets/client.js'], styles: [] },
  ],
  demo: ['/assets/browser.js'],
};

/** A tab that chose a real endpoint: only the route's view, no demo backend. */
const ENDPOINT_TAB = { 'qsc.mode': 'endpoint' };

describe('boot preload script', () => {
  it("preloads the view of the address bar's route, scripts as module preloads and CSS as style preloads", () => {
    expect(run(table, '/buckets/pek3a/photos?prefix=a/', ENDPOINT_TAB)).toEqual([
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/bucket.js' },
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/client.js' },
      // crossorigin as Vite's own stylesheet link has it, or the browser downloads the file a second time.
      { rel: 'preload', as: 'style', crossOrigin: '', href: '/assets/bucket.css' },
    ]);
    expect(run(table, '/', ENDPOINT_TAB).map((l) => l.href)).toEqual(['/assets/home.js']);
  });

  it('matches segments as the router does: any value for a parameter, literals ignoring case and percent-encoding', () => {
    const bucketView = ['/assets/bucket.js', '/assets/client.js', '/assets/bucket.css'];
    expect(run(table, '/Buckets/pek3a/my%20bucket', ENDPOINT_TAB).map((l) => l.href)).toEqual(bucketView);
    expect(run(table, '/buckets/pek3a/photos/', ENDPOINT_TAB).map((l) => l.href)).toEqual(bucketView);
    expect(run(table, '/buckets/pek3a', ENDPOINT_TAB)).toEqual([]);
    expect(run(table, '/buckets/pek3a/photos/settings/x', ENDPOINT_TAB)).toEqual([]);
    // A malformed escape does not stop the script.
    expect(run(table, '/buckets/%E0%A4%A/photos', ENDPOINT_TAB).map((l) => l.href)).toEqual(bucketView);
  });

  it('adds the query-bound rule only when the query matches, and a file shared by two rules once', () => {
    expect(run(table, '/buckets/pek3a/photos/uploads', ENDPOINT_TAB).map((l) => l.href)).toEqual(['/assets/uploads.js', '/assets/client.js']);
    expect(run(table, '/buckets/pek3a/photos/uploads?key=a&upload=u1', ENDPOINT_TAB).map((l) => l.href)).toEqual(['/assets/uploads.js', '/assets/client.js', '/assets/detail.js']);
  });

  it("preloads the demo backend in a demo tab's reload and a first visit outside the serve proxy, never in an endpoint tab", () => {
    expect(run(table, '/', { 'qsc.mode': 'demo' }).map((l) => l.href)).toEqual(['/assets/home.js', '/assets/browser.js']);
    expect(run(table, '/buckets/pek3a/photos', { 'qsc.mode': 'demo' }).map((l) => l.href)).toContain('/assets/browser.js');
    // /connect boots an endpoint tab even after the demo (app/boot.ts decideBootMode): no emulator.
    expect(run(table, '/connect', { 'qsc.mode': 'demo' })).toEqual([]);
    expect(run(table, '/connect/', { 'qsc.mode': 'demo' })).toEqual([]);
    expect(run(table, '/connect', { 'qsc.mode': 'endpoint' })).toEqual([]);
    expect(run(table, '/connect', { 'qsc.mode': 'demo', 'qsc.session': '{}' })).toEqual([]);
    expect(run(table, '/connect')).toEqual([]);
    // A first visit: the demo unless the page carries the serve proxy's tag.
    expect(run(table, '/').map((l) => l.href)).toEqual(['/assets/home.js', '/assets/browser.js']);
    expect(run(table, '/buckets/pek3a/photos').map((l) => l.href)).toContain('/assets/browser.js');
    expect(run(table, '/', {}, true).map((l) => l.href)).toEqual(['/assets/home.js']);
    expect(run(table, '/', { 'qsc.mode': 'demo' }, true).map((l) => l.href)).toContain('/assets/browser.js');
    expect(run(table, '/', { 'qsc.mode': 'endpoint' })).toEqual([{ rel: 'modulepreload', crossOrigin: '', href: '/assets/home.js' }]);
  });

  it('preloads the demo backend exactly when boot starts it (app/boot.ts decideBootMode), behind the serve proxy or not', () => {
    const serve = { proxyBase: '/_qs', endpoint: 'https://qingstor.com' };
    for (const behindServe of [false, true]) {
      for (const mode of ['demo', 'endpoint', undefined]) {
        for (const path of ['/', '/connect', '/connect/', '/connect/x', '/Connect', '/buckets/pek3a/photos', '/uploads']) {
          const storage = new MemoryStorage();
          if (mode) storage.setItem(MODE_KEY, mode);
          const preloads = run(table, path, mode ? { [MODE_KEY]: mode } : {}, behindServe).some((l) => l.href === '/assets/browser.js');
          const boots = decideBootMode(path, storage, behindServe ? serve : undefined).kind === 'demo';
          expect([behindServe, mode, path, preloads]).toEqual([behindServe, mode, path, boots]);
        }
      }
    }
  });

  it("reads the serve proxy's tag under the name serve.ts writes it", () => {
    expect(BOOT_SERVE_META_NAME).toBe(SERVE_META_NAME);
    expect(withServeMeta('<!doctype html><html><head><title>x</title></head></html>', { proxyBase: '/_qs', endpoint: 'https://qingstor.com' })).toContain(
      `<head>\n    <meta name="${SERVE_META_NAME}" content="{&quot;proxyBase&quot;:&quot;/_qs&quot;,&quot;endpoint&quot;:&quot;https://qingstor.com&quot;}" />`,
    );
  });
});

const chunk = (fileName: string, facade: string | null, imports: string[], isEntry = false, css: string[] = []): BuiltChunk => ({
  type: 'chunk',
  fileName,
  isEntry,
  facadeModuleId: facade,
  imports,
  viteMetadata: { importedCss: new Set(css) },
});

describe('boot preload table', () => {
  const chunks = [
    chunk('assets/index.js', '/repo/index.html', ['assets/core.js'], true),
    chunk('assets/core.js', null, []),
    chunk('assets/bucket-route.js', '/repo/src/app/routes/bucket-route.tsx', ['assets/core.js', 'assets/client.js', 'assets/list.js'], false, ['assets/bucket.css']),
    chunk('assets/client.js', '/repo/src/api/client.ts', ['assets/core.js']),
    chunk('assets/list.js', null, ['assets/client.js'], false, ['assets/list.css']),
    chunk('assets/browser.js', '/repo/mocks/browser.ts', ['assets/client.js']),
  ];

  it("lists a route's chunk and its static imports, less what the entry loads, with their CSS", () => {
    const built = bootPreloadTable(chunks, { routes: [{ path: '/buckets/:zone/:bucket', modules: ['src/app/routes/bucket-route.tsx', 'src/api/client.ts'] }], demo: 'mocks/browser.ts' });
    expect(built).toEqual({
      routes: [
        {
          segments: ['buckets', ':zone', ':bucket'],
          scripts: ['/assets/bucket-route.js', '/assets/client.js', '/assets/list.js'],
          styles: ['/assets/bucket.css', '/assets/list.css'],
        },
      ],
      demo: ['/assets/browser.js', '/assets/client.js'],
    });
  });

  it('fails the build when a module has no chunk (a renamed view must not lose its preload silently)', () => {
    expect(() => bootPreloadTable(chunks, { routes: [{ path: '/', modules: ['src/app/routes/gone.tsx'] }], demo: 'mocks/browser.ts' })).toThrow(/no chunk is built for src\/app\/routes\/gone\.tsx/);
  });
});

describe('route views', () => {
  it('name a view for every route of the router, and only files that exist', async () => {
    const { routes } = await import('../app/router.tsx');
    const { existsSync } = await import('node:fs');
    // The component catalogue is a development-only route (absent from every production build): nothing to preload.
    const paths = routes.map((r) => r.path).filter((p) => p !== '*' && p !== '/_catalogue');
    expect(new Set(ROUTE_VIEWS.map((v) => v.path))).toEqual(new Set(paths));
    for (const view of ROUTE_VIEWS) for (const module of view.modules) expect([module, existsSync(module)]).toEqual([module, true]);
  });
});

describe('boot preload plugin', () => {
  it('puts an async script (never holding the page back) ahead of the entry module in index.html', () => {
    const bundle: Parameters<ReturnType<typeof bootPreload>['generateBundle']['handler']>[1] = {
      'index.html': { type: 'asset', fileName: 'index.html', source: '<html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>' },
      'assets/index.js': chunk('assets/index.js', '/repo/index.html', [], true),
      'assets/home.js': chunk('assets/home.js', '/repo/src/app/routes/home-route.tsx', []),
      'assets/browser.js': chunk('assets/browser.js', '/repo/mocks/browser.ts', []),
    };
    const emitted: Array<{ name: string; source: string }> = [];
    const context = {
      emitFile: (file: { type: 'asset'; name: string; source: string }) => String(emitted.push(file) - 1),
      getFileName: (ref: string) => `assets/${emitted[Number(ref)]?.name ?? ''}`,
    };
    bootPreload({ routes: [{ path: '/', modules: ['src/app/routes/home-route.tsx'] }], demo: 'mocks/browser.ts' }).generateBundle.handler.call(context, {}, bundle);
    const html = bundle['index.html'];
    expect(html?.type === 'asset' ? String(html.source) : '').toContain('<script async src="/assets/boot-preload.js"></script>\n    <script type="module" src="/assets/index.js">');
    expect(emitted[0]?.source).toContain('"/assets/home.js"');
  });
});
