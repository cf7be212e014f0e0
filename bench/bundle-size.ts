/**
 * Initial JavaScript of the production build, gzip-compressed: the entry script plus every chunk that
 * index.html preloads. Lazily imported chunks (the demo backend among them) are listed separately, so the
 * figure is what a user connecting to a real endpoint downloads before first paint.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

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

export function benchBundleSize(options: { build?: boolean } = {}): Figure[] {
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
  return [
    { name: 'initial JS (gzip, mock excluded)', value: round(initialKiB), unit: 'KiB', note: 'budget 150 KiB' },
    { name: 'lazily loaded JS (gzip, all chunks)', value: round(lazyKiB), unit: 'KiB' },
    { name: 'of which demo backend chunks (gzip)', value: round(mockKiB), unit: 'KiB' },
  ];
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

if (import.meta.main) {
  for (const f of benchBundleSize()) console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
