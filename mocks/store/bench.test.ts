import { describe, it, expect } from 'vitest';
import { compareKeys } from './keys.ts';
import { benchKeys, buildBenchBucket, buildBenchUpload, listScenarios, timeListPage, timePartsPage, timeRandomInserts } from './bench.ts';

// Functional check of the bench helpers at a small size (timings are printed by bench/, not asserted).
describe('bench helpers', () => {
  it('generate sorted unique keys, build a bucket and time every listing scenario', async () => {
    const keys = [...benchKeys(5000, 10)];
    expect(keys[0]).toBe('d00/f000.bin');
    expect(new Set(keys).size).toBe(5000);
    expect([...keys].sort(compareKeys)).toEqual(keys);
    const { store, bucket } = await buildBenchBucket(20_000);
    expect(store.getBucketStatistics(bucket).count).toBe(20_000);
    const scenarios = listScenarios(20_000);
    for (const input of Object.values(scenarios)) {
      const stats = timeListPage(store, bucket, input, 3, 1);
      expect(stats.runs).toBe(3);
      expect(stats.items).toBeGreaterThan(0);
    }
    expect(timeListPage(store, bucket, scenarios["delimiter '/' at root (one common prefix per folder)"] ?? {}, 1, 0).items).toBe(1000);
    expect(timeRandomInserts(store, bucket, 100).perInsertUs).toBeGreaterThan(0);
    expect(store.getBucketStatistics(bucket).count).toBeGreaterThan(20_000);
  });

  it('build an upload with many parts and time a parts page', async () => {
    const { store, bucket, key, uploadId } = await buildBenchUpload(2000);
    expect(store.listParts(bucket, key, uploadId, {}).count).toBe(2000);
    expect(timePartsPage(store, bucket, key, uploadId, { partNumberMarker: 500, limit: 1000 }, 2, 0).items).toBe(1000);
  });
});
