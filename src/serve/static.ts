/**
 * Static file serving for the built console (`dist/`) through sirv: files are looked up in a list made when
 * the server starts (nothing outside dist/, no dotfiles such as dist/.vite, so no path can escape), the
 * brotli or gzip copy made at build time (precompress.ts) is sent when the browser accepts it, ETags
 * revalidate. Vite's content-hashed assets are cached for a year as immutable; everything else (index.html,
 * the service worker) is revalidated every time. Unknown paths of the app (deep links: zone, bucket and
 * prefix live in the URL) get index.html. Every answer carries the console's security headers (headers.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Vite names emitted assets `<name>-<hash>.<ext>` under assets/; their content never changes. */
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/** Our charset-qualified type for text files; undefined leaves sirv's own (mrmime) type. */
export function contentTypeFor(filePath: string): string | undefined {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()];
}

export function cacheControlFor(urlPath: string): string {
  return HASHED_ASSET.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function wantsHtml(req: IncomingMessage, urlPath: string): boolean {
  const last = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !last.includes('.') || (req.headers.accept ?? '').includes('text/html');
}

export interface StaticSite {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export interface StaticSiteOptions {
  /**
   * The page sent for `/`, `/index.html` and the app's deep links instead of dist/index.html as built
   * (serve.ts adds what the page must know before its first request).
   */
  indexHtml?: string;
}

export function createStaticSite(distDir: string, securityHeaders: Readonly<Record<string, string>>, options: StaticSiteOptions = {}): StaticSite {
  const root = path.resolve(distDir);
  // sirv lists the files once, now: a missing build would otherwise serve 404s forever.
  if (!existsSync(path.join(root, 'index.html'))) throw new Error(`${root}${path.sep}index.html not found: run npm run build first`);
  const serveFile = sirv(root, {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    dotfiles: false,
    // No `/x` → `/x.html` guessing; deep links are handled below.
    extensions: [],
    setHeaders(res, pathname) {
      const type = contentTypeFor(pathname);
      if (type) res.setHeader('content-type', type);
    },
  });

  function notFound(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : 'Not found\n');
  }

  function prepare(res: ServerResponse, urlPath: string): void {
    // Set before sirv answers: they stay on a 304 as well, and sirv keeps a Cache-Control set here.
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    res.setHeader('cache-control', cacheControlFor(urlPath));
  }

  const indexEtag = options.indexHtml === undefined ? '' : `"${createHash('sha256').update(options.indexHtml).digest('base64url').slice(0, 27)}"`;

  function sendIndex(req: IncomingMessage, res: ServerResponse, html: string): void {
    prepare(res, '/index.html');
    res.setHeader('etag', indexEtag);
    if ((req.headers['if-none-match'] ?? '').split(/\s*,\s*/).includes(indexEtag)) {
      res.writeHead(304);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(req.method === 'HEAD' ? undefined : html);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...securityHeaders, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const urlPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    prepare(res, urlPath);
    const { indexHtml } = options;
    if (indexHtml !== undefined && (urlPath === '/' || urlPath === '/index.html')) {
      sendIndex(req, res, indexHtml);
      return;
    }
    const fallback = (): void => {
      if (!wantsHtml(req, urlPath)) {
        notFound(req, res);
        return;
      }
      if (indexHtml !== undefined) {
        sendIndex(req, res, indexHtml);
        return;
      }
      prepare(res, '/index.html');
      req.url = '/index.html';
      serveFile(req, res, () => notFound(req, res));
    };
    // `/` and directories resolve to their index.html inside sirv; other misses fall back to the app.
    serveFile(req, res, fallback);
  }

  return { handle };
}
