/**
 * JavaScript of the production build, gzip-compressed.
 *
 * - "initial JS": the entry script plus every chunk that index.html preloads, i.e. what the browser fetches
 *   before any route is chosen. Budget: 130 KiB.
 * - "JS before the <route> screen": the initial JS plus the route's lazily imported chunk and everything it
 *   imports statically (walked in dist/.vite/manifest.json), i.e. what must arrive before that screen can
 *   render. Against a real endpoint the first screen is Connect; in the demo it is the bucket list. Budget:
 *   160 KiB for each; the note says when a figure is over its budget.
 * - Lazily imported chunks (the demo backend among them) are listed separately.
 * - "initial JS on the wire": the same files fetched from `npm run serve` (src/serve/serve.ts) by a client
 *   that accepts brotli, i.e. the bytes a browser really downloads (the build's precompressed .br copies),
 *   and by one that accepts nothing (what an uncompressing server would send).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { startServe } from '../src/serve/serve.ts';
import type { Figure } from './lib.ts';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

function gzipKiB(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length / 1024;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Body bytes and Content-Encoding of GET `path` from a local server, as sent (no decompression). */
function wireBytes(port: number, path: string, acceptEncoding: string | undefined): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolveBytes, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode}`));
        else resolveBytes({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The initial JS as `npm run serve` sends it: brotli to a browser that accepts it, and uncompressed. */
async function initialOnTheWire(files: readonly string[]): Promise<Figure[]> {
  const serve = await startServe({ endpoint: 'http://127.0.0.1:9', port: 0, dist });
  try {
    let br = 0;
    let identity = 0;
    const encodings = new Map<string, number>();
    for (const file of files) {
      const path = `/${file.slice(dist.length + 1).split(/[\\/]/).join('/')}`;
      const compressed = await wireBytes(serve.port, path, 'gzip, deflate, br, zstd');
      encodings.set(compressed.encoding, (encodings.get(compressed.encoding) ?? 0) + 1);
      br += compressed.bytes;
      identity += (await wireBytes(serve.port, path, undefined)).bytes;
    }
    return [
      { name: 'initial JS on the wire from npm run serve (Accept-Encoding: br)', value: round(br / 1024), unit: 'KiB', note: `files by Content-Encoding: ${[...encodings].map(([e, n]) => `${e} ${n}`).join(', ')} (files under 1 KiB are not precompressed)` },
      { name: 'initial JS on the wire uncompressed (no Accept-Encoding)', value: round(identity / 1024), unit: 'KiB' },
    ];
  } finally {
    await serve.close();
  }
}

export async function benchBundleSize(options: { build?: boolean } = {}): Promise<Figure[]> {
  if (options.build !== false) {
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  }
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initial = new Set<string>();
  for (const match of html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+\.js)"/g)) {
    const src = match[1];
    if (src) initial.add(join(dist, src.replace(/^\//, '')));
  }
  if (initial.size === 0) throw new Error('no script found in dist/index.html');
  const initialKiB = [...initial].reduce((sum, file) => sum + gzipKiB(file), 0);
  const lazy = listFiles(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !initial.has(f));
  const lazyKiB = lazy.reduce((sum, file) => sum + gzipKiB(file), 0);
  const mockKiB = lazy.filter((f) => /browser|msw|mock|seed|emulator/i.test(f)).reduce((sum, f) => sum + gzipKiB(f), 0);
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const screens = Object.entries(ROUTE_SCREENS).map(([source, screen]): Figure => {
    const files = new Set(initial);
    const walk = (id: string): void => {
      const chunk = manifest[id];
      if (!chunk) throw new Error(`${id} is not in dist/.vite/manifest.json`);
      const file = join(dist, chunk.file);
      if (files.has(file)) return;
      files.add(file);
      for (const next of chunk.imports ?? []) walk(next);
    };
    walk(source);
    const kib = [...files].reduce((sum, file) => sum + gzipKiB(file), 0);
    const over = kib > SCREEN_BUDGET_KIB ? `, OVER the ${SCREEN_BUDGET_KIB} KiB budget` : `, budget ${SCREEN_BUDGET_KIB} KiB`;
    return { name: `JS before the ${screen} screen (gzip, mock excluded)`, value: round(kib), unit: 'KiB', note: `initial JS + ${round(kib - initialKiB)} KiB of route chunks${over}` };
  });
  return [
    { name: 'initial JS (gzip, mock excluded)', value: round(initialKiB), unit: 'KiB', note: `entry + chunks index.html preloads${initialKiB > INITIAL_BUDGET_KIB ? ', OVER' : ';'} budget ${INITIAL_BUDGET_KIB} KiB` },
    ...(await initialOnTheWire([...initial])),
    ...screens,
    { name: 'lazily loaded JS (gzip, all chunks)', value: round(lazyKiB), unit: 'KiB' },
    { name: 'of which demo backend chunks (gzip)', value: round(mockKiB), unit: 'KiB' },
  ];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

const INITIAL_BUDGET_KIB = 130;
const SCREEN_BUDGET_KIB = 160;

/** Route modules (src/app/router.tsx) and the screen each one renders first. */
const ROUTE_SCREENS: Record<string, string> = {
  'src/app/routes/connect-route.tsx': 'Connect',
  'src/app/routes/home-route.tsx': 'bucket list',
  'src/app/routes/bucket-route.tsx': 'object browser',
  'src/app/routes/multipart-route.tsx': 'multipart uploads',
};

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

if (import.meta.main) {
  for (const f of await benchBundleSize()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
