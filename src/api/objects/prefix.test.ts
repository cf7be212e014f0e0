import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient } from '../client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../connection.ts';
import { putBucket } from '../buckets/operations.ts';
import { countPrefix } from './count-queries.ts';
import { scanPrefix } from './prefix.ts';
import { deleteObjectsMutation, type DeleteObjectsInput, type DeleteObjectsOutcome } from './queries.ts';

const { server, emulator } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const ref = { zone: 'pek3a', bucket: 'prefix-scan-test' };
const keys = Array.from({ length: 2_500 }, (_, i) => `dir/${String(i).padStart(5, '0')}`);

async function seed() {
  for (const key of [...keys, 'dir-not-below/x', 'other/y']) emulator.store.putObject(ref.bucket, key, { body: new TextEncoder().encode('ab') });
}

function runDelete(input: DeleteObjectsInput): Promise<DeleteObjectsOutcome> {
  const options = deleteObjectsMutation(client, new QueryClient());
  if (!options.mutationFn) throw new Error('no mutationFn');
  return options.mutationFn(input, { client: new QueryClient(), meta: undefined });
}

describe('folder scan and batched delete', () => {
  it('scans every key under a prefix across pages, with a running count, and refuses an empty prefix', async () => {
    await putBucket(client, ref);
    await seed();
    const counts: number[] = [];
    const scan = await scanPrefix(client, { ...ref, prefix: 'dir/' }, { onPage: (s) => counts.push(s.keys.length) });
    expect(scan.keys).toEqual(keys);
    expect(scan.size).toBe(5_000);
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.at(-1)).toBe(2_500);
    await expect(scanPrefix(client, { ...ref, prefix: '' })).rejects.toThrow(RangeError);
  });

  it('counts and sizes every key under a prefix (or the whole bucket) page by page, and stops on abort', async () => {
    const pages: number[] = [];
    const counted = await countPrefix(client, { ...ref, prefix: 'dir/' }, { concurrency: 1, onPage: (c) => pages.push(c.count) });
    // The service clamps a page to 100 keys (ref §9.5): 25 pages, each reported.
    expect(counted).toEqual({ count: 2_500, size: 5_000, pages: 25 });
    expect(pages).toEqual(Array.from({ length: 25 }, (_, i) => (i + 1) * 100));
    expect(await countPrefix(client, { ...ref, prefix: '' }, { concurrency: 1 })).toEqual({ count: 2_502, size: 5_004, pages: 26 });
    // Several listings at once: these keys have no folders to split at, so the count is the same one chain
    // plus the delimiter pages that looked for a boundary.
    const parallel = await countPrefix(client, { ...ref, prefix: '' });
    expect(parallel).toMatchObject({ count: 2_502, size: 5_004 });
    expect(parallel.pages).toBeLessThan(40);
    const stop = new AbortController();
    let seen = 0;
    const stopped = countPrefix(client, { ...ref, prefix: '' }, { signal: stop.signal, onPage: () => {
      seen += 1;
      stop.abort();
    } });
    await expect(stopped).rejects.toThrow(/abort/i);
    expect(seen).toBe(1);
  });

  it('counts a folder tree with several listings at once, against the emulator\'s own listing (common prefixes, markers, the 100-key clamp)', async () => {
    const tree = { zone: 'pek3a', bucket: 'count-tree-test' };
    await putBucket(client, tree);
    const treeKeys: string[] = [];
    for (let year = 2020; year < 2024; year++) {
      for (let month = 1; month <= 12; month++) {
        for (let n = 0; n < 60 + month; n++) treeKeys.push(`logs/${year}/${String(month).padStart(2, '0')}/e-${n}.json`);
      }
      treeKeys.push(`logs/${year}/index.json`, `logs/${year}.json`, `logs/${year}/`);
    }
    treeKeys.push('README', 'logs/', 'z/\u{1F600}/a', 'z/\uFF21/a');
    for (const key of treeKeys) emulator.store.putObject(tree.bucket, key, { body: new TextEncoder().encode('abc') });
    const counted = await countPrefix(client, { ...tree, prefix: '' }, { concurrency: 4 });
    expect(counted).toMatchObject({ count: treeKeys.length, size: 3 * treeKeys.length });
    // One chain reads ceil(n / 100) pages; the ranges add an overlapping page each and their splits.
    expect(counted.pages).toBeLessThan(Math.ceil(treeKeys.length / 100) * 1.5);
    expect(await countPrefix(client, { ...tree, prefix: 'logs/2021/' }, { concurrency: 6 })).toMatchObject({ count: 12 * 60 + 78 + 2 });
  });

  it('deletes in batches of 1000 with progress, and a stop lands between batches', async () => {
    const stop = new AbortController();
    const progress: number[] = [];
    const first = await runDelete({ ...ref, keys, signal: stop.signal, onProgress: (done) => {
      progress.push(done);
      stop.abort();
    } });
    expect(progress).toEqual([1_000]);
    expect(first).toMatchObject({ cancelled: true, errors: [] });
    expect(first.deleted).toEqual(keys.slice(0, 1_000));

    const rest = keys.slice(1_000);
    const progress2: Array<[number, number]> = [];
    const second = await runDelete({ ...ref, keys: rest, onProgress: (done, total) => progress2.push([done, total]) });
    expect(progress2).toEqual([[1_000, 1_500], [1_500, 1_500]]);
    expect(second).toEqual({ deleted: rest, errors: [], cancelled: false });
    expect((await scanPrefix(client, { ...ref, prefix: 'dir' })).keys).toEqual(['dir-not-below/x']);
  });
});
