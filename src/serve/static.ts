/**
 * Static file serving for the built console (`dist/`): correct content types, long-lived caching for
 * Vite's content-hashed assets, revalidation for everything else, SPA fallback to index.html so every
 * deep link (zone/bucket/prefix in the URL) loads the app.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Vite names emitted assets `<name>-<hash>.<ext>` under assets/; their content never changes. */
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export function cacheControlFor(urlPath: string): string {
  return HASHED_ASSET.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

interface FileHit {
  filePath: string;
  size: number;
  mtimeMs: number;
}

async function findFile(root: string, urlPath: string): Promise<FileHit | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const filePath = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  // Never serve anything outside dist/ (path traversal via `..` or encoded separators).
  if (filePath !== root && !filePath.startsWith(root + path.sep)) return null;
  try {
    const info = await stat(filePath);
    return info.isFile() ? { filePath, size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

function wantsHtml(req: IncomingMessage, urlPath: string): boolean {
  const last = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !last.includes('.') || (req.headers.accept ?? '').includes('text/html');
}

export interface StaticSite {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createStaticSite(distDir: string): StaticSite {
  const root = path.resolve(distDir);

  async function send(req: IncomingMessage, res: ServerResponse, hit: FileHit, urlPath: string): Promise<void> {
    const etag = `W/"${hit.size.toString(16)}-${Math.floor(hit.mtimeMs).toString(16)}"`;
    const headers: Record<string, string | number> = {
      'content-type': contentTypeFor(hit.filePath),
      'cache-control': cacheControlFor(urlPath),
      etag,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers['content-length'] = hit.size;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await new Promise<void>((resolve) => {
      const stream = createReadStream(hit.filePath);
      stream.on('error', () => {
        res.destroy();
        resolve();
      });
      stream.on('end', resolve);
      stream.pipe(res);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const urlPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const direct = urlPath.endsWith('/') ? null : await findFile(root, urlPath);
    if (direct) {
      await send(req, res, direct, urlPath);
      return;
    }
    if (wantsHtml(req, urlPath)) {
      const index = await findFile(root, '/index.html');
      if (index) {
        await send(req, res, index, '/index.html');
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : 'Not found\n');
  }

  return { handle };
}
