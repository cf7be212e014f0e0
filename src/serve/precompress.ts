/**
 * Build step: next to every compressible file of the build output, a `.br` (brotli, quality 11) and a `.gz`
 * (gzip, level 9) copy, so `npm run serve` (sirv, static.ts) sends compressed bytes without compressing
 * per request. A copy is written only when it is smaller than the file. Runs as a Vite plugin after the
 * bundle and the public/ files are written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.wasm', '.map']);
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

export interface PrecompressResult {
  file: string;
  bytes: number;
  br?: number;
  gz?: number;
}

export function precompressDir(dir: string): PrecompressResult[] {
  const results: PrecompressResult[] = [];
  for (const file of listFiles(resolve(dir))) {
    if (!COMPRESSIBLE.has(extname(file).toLowerCase())) continue;
    const data = readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const result: PrecompressResult = { file, bytes: data.length };
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: extname(file) === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      },
    });
    if (br.length < data.length) {
      writeFileSync(`${file}.br`, br);
      result.br = br.length;
    }
    const gz = gzipSync(data, { level: 9 });
    if (gz.length < data.length) {
      writeFileSync(`${file}.gz`, gz);
      result.gz = gz.length;
    }
    results.push(result);
  }
  return results;
}

/** Minimal shape of the Vite plugin hooks used here (avoids importing Vite's types into the serve code). */
export interface PrecompressPlugin {
  name: string;
  apply: 'build';
  configResolved(config: { root: string; build: { outDir: string } }): void;
  closeBundle: { order: 'post'; handler(): void };
}

export function precompress(): PrecompressPlugin {
  let outDir = 'dist';
  return {
    name: 'qsc-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      handler() {
        precompressDir(outDir);
      },
    },
  };
}
