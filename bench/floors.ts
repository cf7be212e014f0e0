/**
 * Floors: the simplest programs that do the job a console figure measures, built and served in the same
 * run so each console figure is printed beside its floor. The pages are in bench/floors/:
 *
 *   - list.html   a plain page: signs the console's own first request in the query string, fetches it from
 *                 the emulator, renders 50 rows (#kind=parts: page 1 of an upload's parts, then every
 *                 further page one after another, and a totals line);
 *   - demo.html   the demo's floor: the emulator's code started in the page with the demo seed, in memory,
 *                 asked for the same first page through its handlers, 50 rows rendered;
 *   - react.html  a minimal React app (the repository's react and react-dom) doing what list.html does:
 *                 the floor of "JS fetched before the first row".
 *
 * They are built with Vite into a temporary folder (precompressed like the console's build) and served by
 * the same static handler as the console, from bench/servers-process.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { precompress } from '../src/serve/precompress.ts';

const here = join(import.meta.dirname, 'floors');

/** Builds the floor pages into a new temporary folder and answers its path. */
export async function buildFloors(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'qsc-floors-'));
  await build({
    root: here,
    configFile: false,
    logLevel: 'error',
    plugins: [precompress()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: { input: { list: join(here, 'list.html'), demo: join(here, 'demo.html'), react: join(here, 'react.html') } },
    },
  });
  // The static handler serves a folder with an index (unknown paths get it).
  writeFileSync(join(outDir, 'index.html'), '<!doctype html><title>floors</title><p>list.html, demo.html, react.html</p>\n');
  return outDir;
}

export type FloorPage = 'list' | 'demo' | 'react';

/** The address of a floor page doing `request` (unsigned) with these credentials. */
export function floorUrl(site: string, page: FloorPage, args: { request: string; accessKeyId: string; secretAccessKey: string; kind?: 'objects' | 'parts'; rows?: number }): string {
  const hash = new URLSearchParams({ url: args.request, ak: args.accessKeyId, sk: args.secretAccessKey, kind: args.kind ?? 'objects', rows: String(args.rows ?? 50) });
  return `${site}/${page}.html#${hash.toString()}`;
}

/** Selectors of what the floors paint: the first cell of the first row, and the totals line. */
export const FLOOR_FIRST_ROW = '#rows td';
export const FLOOR_TOTALS = '#totals';

/** In the page: the paths of the scripts the browser started fetching before `time` (ms since navigation start). */
export function scriptsFetchedBefore(time: number): string[] {
  return performance
    .getEntriesByType('resource')
    .filter((e) => e.startTime < time)
    .map((e) => new URL(e.name).pathname)
    .filter((path) => /\.m?js$/.test(path));
}

export interface JsWeight {
  files: number;
  kib: number;
  /** Each file and its gzip KiB, largest first. */
  list: Array<{ path: string; kib: number }>;
}

/** Files served from `dir` at `paths` (URL paths), weighed gzip -9 as bench/bundle-size.ts weighs them. */
export function jsWeight(dir: string, paths: readonly string[]): JsWeight {
  const list = [...new Set(paths)].map((path) => ({ path, kib: gzipSync(readFileSync(join(dir, path.replace(/^\//, ''))), { level: 9 }).length / 1024 }));
  list.sort((a, b) => b.kib - a.kib);
  return { files: list.length, kib: Math.round(list.reduce((sum, f) => sum + f.kib, 0) * 10) / 10, list };
}

/** A request URL without its query-string signature (the floor signs it again). */
export function unsignedRequest(url: string): string {
  const u = new URL(url);
  for (const name of ['access_key_id', 'expires', 'signature']) u.searchParams.delete(name);
  return u.href;
}
