/**
 * Store benchmarks, exported for bench/ scripts (they print figures; nothing here asserts timing).
 * Targets (2-core machine, 1,000,000 keys): one ListObjects page (limit 1000) <= 5 ms, one
 * ListMultipart page (limit 1000 of 10,000 parts) <= 2 ms.
 */
import { Store } from './store.ts';
import type { ListObjectsInput, StoreOptions } from './types.ts';

export interface TimingStats {
  runs: number;
  minMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  /** items (keys + prefixes, or parts) returned by the last run */
  items: number;
}

export const BENCH_BUCKET = 'bench-bucket';

function summarize(samples: number[], items: number): TimingStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { runs: sorted.length, minMs: at(0), medianMs: at(0.5), p95Ms: at(0.95), maxMs: sorted[sorted.length - 1] ?? 0, items };
}

/**
 * Key layout used by the bench: `d0000/f0000.bin`… — `folders` top-level folders of equal size,
 * generated already in byte order so the bulk path skips sorting.
 */
export function benchKeyAt(count: number, index: number, folders = 1000): string {
  const perFolder = Math.ceil(count / folders);
  const folder = Math.floor(index / perFolder);
  const file = index % perFolder;
  return `d${String(folder).padStart(String(folders).length, '0')}/f${String(file).padStart(String(perFolder).length, '0')}.bin`;
}

export function* benchKeys(count: number, folders = 1000): Generator<string> {
  for (let i = 0; i < count; i++) yield benchKeyAt(count, i, folders);
}

/** Builds a bucket with `count` zero-byte objects through the bulk path; returns the store and build time. */
export async function buildBenchBucket(
  count: number,
  options: StoreOptions = {},
): Promise<{ store: Store; bucket: string; buildMs: number }> {
  const store = await Store.create({ maxListLimit: 1000, ...options });
  store.createBucket({ name: BENCH_BUCKET, zone: 'pek3a', ownerId: 'usr-bench' });
  const body = new Uint8Array(0);
  const started = performance.now();
  function* entries() {
    for (const key of benchKeys(count)) yield { key, body };
  }
  store.bulkLoad(BENCH_BUCKET, entries());
  return { store, bucket: BENCH_BUCKET, buildMs: performance.now() - started };
}

/** Times `runs` ListObjects calls (after `warmup` untimed ones). */
export function timeListPage(store: Store, bucket: string, input: ListObjectsInput, runs = 50, warmup = 5): TimingStats {
  const samples: number[] = [];
  let items = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const started = performance.now();
    const page = store.listObjects(bucket, input);
    const elapsed = performance.now() - started;
    items = page.keys.length + page.commonPrefixes.length;
    if (i >= warmup) samples.push(elapsed);
  }
  return summarize(samples, items);
}

/** The four listing shapes the console uses, for a bucket built by buildBenchBucket. */
export function listScenarios(count: number): Record<string, ListObjectsInput> {
  const middle = benchKeyAt(count, Math.floor(count / 2));
  const folder = middle.slice(0, middle.indexOf('/') + 1);
  return {
    'flat, marker mid-bucket': { marker: middle, limit: 1000 },
    'prefix (one folder)': { prefix: folder, limit: 1000 },
    "delimiter '/' at root (one common prefix per folder)": { delimiter: '/', limit: 1000 },
    "prefix + delimiter '/'": { prefix: folder, delimiter: '/', limit: 1000 },
  };
}

/** Builds one upload with `parts` parts numbered 1..parts (each a shared 1-byte body). */
export async function buildBenchUpload(
  parts = 10_000,
  options: StoreOptions = {},
): Promise<{ store: Store; bucket: string; key: string; uploadId: string; buildMs: number }> {
  const store = await Store.create({ minPartSize: 1, ...options });
  store.createBucket({ name: BENCH_BUCKET, zone: 'pek3a', ownerId: 'usr-bench' });
  const key = 'big/object.bin';
  const started = performance.now();
  const { uploadId } = store.initiateMultipartUpload(BENCH_BUCKET, key, {});
  const body = new Uint8Array([1]);
  for (let n = 1; n <= parts; n++) store.uploadPart(BENCH_BUCKET, key, uploadId, n, { body });
  return { store, bucket: BENCH_BUCKET, key, uploadId, buildMs: performance.now() - started };
}

/** Times ListMultipart pages of `limit` parts starting after `partNumberMarker`. */
export function timePartsPage(
  store: Store,
  bucket: string,
  key: string,
  uploadId: string,
  input: { partNumberMarker?: number; limit?: number } = { partNumberMarker: 5000, limit: 1000 },
  runs = 200,
  warmup = 10,
): TimingStats {
  const samples: number[] = [];
  let items = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const started = performance.now();
    const page = store.listParts(bucket, key, uploadId, input);
    const elapsed = performance.now() - started;
    items = page.parts.length;
    if (i >= warmup) samples.push(elapsed);
  }
  return summarize(samples, items);
}

/** Times `count` random single-key inserts into a built bucket (cheap-insert check for the index). */
export function timeRandomInserts(store: Store, bucket: string, count = 10_000): { totalMs: number; perInsertUs: number } {
  const body = new Uint8Array(0);
  let seed = 42;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    store.putObject(bucket, `d${String(seed % 1000).padStart(4, '0')}/inserted-${seed}`, { body });
  }
  const totalMs = performance.now() - started;
  return { totalMs, perInsertUs: (totalMs * 1000) / count };
}
