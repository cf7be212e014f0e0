/**
 * Build step: a small classic script that index.html loads (async, ahead of the entry module). From the page's first
 * bytes it starts downloading the code the page is about to run but that the entry's static imports do not
 * name, so the browser does not learn of it only once the entry has run (a second round of requests):
 *
 *   - the view of the route in the address bar (a deep link or a reload: `/buckets/<zone>/<bucket>`, the
 *     uploads of a bucket and one upload's parts, …), which the router loads lazily (app/router.tsx);
 *   - in a demo tab, the demo backend: a reload of one (sessionStorage 'qsc.mode' = 'demo' and no remembered
 *     connection, see app/boot.ts) or a first visit to a page that is not behind `npm run serve` (no
 *     serve-meta.ts tag in the page: boot starts the demo there). An endpoint tab, /connect and a first visit
 *     behind the proxy get nothing of it, so endpoint mode still never downloads the emulator.
 *
 * It is a file, never inline: the console's CSP allows scripts from its own origin only. It only adds
 * `<link rel="modulepreload">` (and `rel="preload" as="style"` for a view's CSS) for files of this build;
 * what the address bar holds only picks among them.
 */

import { SERVE_META_NAME } from './serve-meta.ts';

/** One route: its path pattern (app/router.tsx syntax, `:name` for a segment) and the modules its view loads. */
export interface BootPreloadRoute {
  path: string;
  /** Only when the query matches, e.g. `[?&]upload=` (a regular expression's source). */
  search?: string;
  /** Module ids relative to the project root, e.g. `src/app/routes/bucket-route.tsx`. */
  modules: readonly string[];
}

export interface BootPreloadOptions {
  routes: readonly BootPreloadRoute[];
  /** The demo backend's module (mocks/browser.ts). */
  demo: string;
}

/** What a route (or the demo) preloads, once the build's chunks are known. */
export interface BootPreloadTable {
  routes: ReadonlyArray<{ segments: readonly string[]; search?: string; scripts: readonly string[]; styles: readonly string[] }>;
  demo: readonly string[];
}

/**
 * The script's source. Segments compare as app/router.tsx `matchPath` does: same count, `:name` matches
 * any one segment, others case-insensitively after percent-decoding. Every matching rule adds its files.
 */
export function bootPreloadSource(table: BootPreloadTable): string {
  // Routes share most of their files: each file is named once, and rules refer to it by index.
  const files: string[] = [];
  const index = (file: string): number => {
    const at = files.indexOf(file);
    return at >= 0 ? at : files.push(file) - 1;
  };
  const routes = table.routes.map((r) => [
    r.segments.map((s) => (s.startsWith(':') ? ':' : s.toLowerCase())),
    r.search ?? '',
    r.scripts.map(index),
    r.styles.map(index),
  ]);
  const demo = table.demo.map(index);
  return [
    '(function(){',
    `var files=${JSON.stringify(files)},seen={};`,
    "function add(i,style){var href=files[i];if(seen[href])return;seen[href]=1;var l=document.createElement('link');",
    // crossorigin on both: Vite loads a view's CSS as `<link rel=stylesheet crossorigin>`, and a preload whose
    // credentials mode differs is not used (the file downloads twice).
    "if(style){l.rel='preload';l.as='style'}else{l.rel='modulepreload'}l.crossOrigin='';l.href=href;document.head.appendChild(l)}",
    'try{',
    "var have=location.pathname.split('/').filter(Boolean).map(function(s){try{s=decodeURIComponent(s)}catch(e){}return s.toLowerCase()});",
    `var routes=${JSON.stringify(routes)};`,
    'for(var i=0;i<routes.length;i++){var r=routes[i],want=r[0];if(want.length!==have.length)continue;',
    "var ok=true;for(var j=0;j<want.length;j++){if(want[j]!==':'&&want[j]!==have[j]){ok=false;break}}",
    'if(!ok||(r[1]&&!new RegExp(r[1]).test(location.search)))continue;',
    'r[2].forEach(function(f){add(f,false)});r[3].forEach(function(f){add(f,true)})}',
    '}catch(e){}',
    'try{',
    // As app/boot.ts decideBootMode: /connect boots an endpoint tab even when the tab chose the demo; a first
    // visit (no choice yet) is a demo unless the page is behind the serve proxy.
    "var p=location.pathname,s=sessionStorage,m=s.getItem('qsc.mode');",
    `if(p!=='/connect'&&p.indexOf('/connect/')!==0&&!s.getItem('qsc.session')&&(m==='demo'||(m===null&&!document.querySelector('meta[name=${SERVE_META_NAME}]'))))`,
    `${JSON.stringify(demo)}.forEach(function(f){add(f,false)})`,
    '}catch(e){}',
    '})();',
    '',
  ].join('');
}

/** The parts of Rolldown's output chunks this step reads (avoids importing Vite's types into the serve code). */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: readonly string[];
  viteMetadata?: { importedCss: ReadonlySet<string> };
}

const normalize = (id: string): string => id.replaceAll('\\', '/');

/**
 * Resolves each route's modules to the files of the build: the module's chunk and everything it imports
 * statically, minus what the entry already loads (index.html preloads those itself). A module that is not
 * the facade of any chunk is an error: a renamed view must not silently lose its preload.
 */
export function bootPreloadTable(chunks: readonly BuiltChunk[], options: BootPreloadOptions, base = '/'): BootPreloadTable {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: string): string[] => {
    const files: string[] = [];
    const visit = (file: string) => {
      if (files.includes(file)) return;
      files.push(file);
      for (const child of byFile.get(file)?.imports ?? []) visit(child);
    };
    visit(start);
    return files;
  };
  const entryFiles = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => closure(c.fileName)));
  const chunkOf = (module: string): string => {
    const chunk = chunks.find((c) => c.facadeModuleId !== null && normalize(c.facadeModuleId).endsWith(`/${module}`));
    if (!chunk) throw new Error(`boot preload: no chunk is built for ${module}`);
    return chunk.fileName;
  };
  const filesOf = (modules: readonly string[]) => {
    const files = [...new Set(modules.flatMap((m) => closure(chunkOf(m))))].filter((f) => !entryFiles.has(f));
    const styles = [...new Set(files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]))];
    return { scripts: files.map((f) => `${base}${f}`), styles: styles.map((f) => `${base}${f}`) };
  };
  return {
    routes: options.routes.map((route) => ({
      segments: route.path.split('/').filter(Boolean),
      ...(route.search ? { search: route.search } : {}),
      ...filesOf(route.modules),
    })),
    demo: filesOf([options.demo]).scripts,
  };
}

/** Minimal shape of the Vite plugin this returns. */
export interface BootPreloadPlugin {
  name: string;
  apply: 'build';
  generateBundle: {
    order: 'post';
    handler(
      this: { emitFile(file: { type: 'asset'; name: string; source: string }): string; getFileName(ref: string): string },
      options: unknown,
      bundle: Record<string, BuiltChunk | { type: 'asset'; fileName: string; source: string | Uint8Array }>,
    ): void;
  };
}

export function bootPreload(options: BootPreloadOptions): BootPreloadPlugin {
  return {
    name: 'qsc-boot-preload',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html === undefined || html.type !== 'asset') return;
        const chunks = Object.values(bundle).filter((output): output is BuiltChunk => output.type === 'chunk');
        const ref = this.emitFile({ type: 'asset', name: 'boot-preload.js', source: bootPreloadSource(bootPreloadTable(chunks, options)) });
        // async: a slow or stalled answer for this file never holds the page back (it only adds hints).
        const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
        const source = String(html.source);
        const at = source.indexOf('<script');
        html.source = at < 0 ? source.replace('</head>', `${tag}</head>`) : `${source.slice(0, at)}${tag}\n    ${source.slice(at)}`;
      },
    },
  };
}
