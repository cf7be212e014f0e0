import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as threads from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { streamingMd5 } from './md5-worker.ts';

function chunksOf(total: number, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let x = seed;
  let left = total;
  while (left > 0) {
    x = (x * 1103515245 + 12345) >>> 0;
    const size = Math.min(left, 1 + (x % (300 * 1024)));
    const chunk = new Uint8Array(size);
    for (let i = 0; i < size; i += 4096) chunk[i] = (x >>> (i % 24)) & 0xff;
    out.push(chunk);
    left -= size;
  }
  return out;
}

function expected(chunks: readonly Uint8Array[]): string {
  const hash = crypto.createHash('md5');
  for (const c of chunks) hash.update(c);
  return hash.digest('hex');
}

describe('streaming MD5 (inline for small bodies, on a worker thread for large ones)', () => {
  it('gives the same digest as node:crypto below, at and above the hand-off size, for two bodies at once', async () => {
    for (const total of [0, 1, 4 * 1024 * 1024, 4 * 1024 * 1024 + 1, 19 * 1024 * 1024 + 7]) {
      const a = chunksOf(total, total + 1);
      const b = chunksOf(total, total + 2);
      const ma = streamingMd5(crypto, threads);
      const mb = streamingMd5(crypto, threads);
      // Interleaved, as two uploads arriving together would be.
      for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
        const ca = a[i];
        const cb = b[i];
        if (ca) ma.update(ca);
        if (cb) mb.update(cb);
      }
      expect(await Promise.all([ma.digest(), mb.digest()])).toEqual([expected(a), expected(b)]);
    }
  });

  it('a cancelled body does not disturb the next one, and works without worker_threads', async () => {
    const cancelled = streamingMd5(crypto, threads);
    for (const c of chunksOf(8 * 1024 * 1024, 5)) cancelled.update(c);
    cancelled.cancel();
    const next = chunksOf(6 * 1024 * 1024, 6);
    const m = streamingMd5(crypto, threads);
    for (const c of next) m.update(c);
    expect(await m.digest()).toBe(expected(next));
    const inline = streamingMd5(crypto, undefined);
    for (const c of next) inline.update(c);
    expect(await inline.digest()).toBe(expected(next));
  });

  it('never keeps a process alive: one that used the worker exits on its own', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = `
      import * as crypto from 'node:crypto';
      import * as threads from 'node:worker_threads';
      import { startMd5Worker, streamingMd5 } from ${JSON.stringify(path.join(here, 'md5-worker.ts'))};
      startMd5Worker(threads);
      const m = streamingMd5(crypto, threads);
      m.update(new Uint8Array(6 * 1024 * 1024));
      console.log(await m.digest());
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(crypto.createHash('md5').update(new Uint8Array(6 * 1024 * 1024)).digest('hex'));
  });
});
