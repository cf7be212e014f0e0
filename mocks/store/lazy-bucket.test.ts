import { describe, expect, it } from 'vitest';
import { assert, asyncProperty, constantFrom, integer, option, record, string as fcString } from 'fast-check';
import { createEmulator } from '../emulator.ts';
import { archiveSource, DEMO_ARCHIVE_OBJECTS, DEMO_BUCKETS } from '../seed.ts';
import type { Store } from './store.ts';
import type { ListObjectsInput, LazyObjectSource } from './types.ts';
import { BUCKET, storeWithBucket, testClock } from './test-helpers.ts';

/** The same generated objects loaded eagerly (bulkLoad) and lazily (bulkLoadLazy), each in its own store. */
async function pair(source: LazyObjectSource): Promise<{ eager: Store; lazy: Store }> {
  const clock = testClock();
  const eager = await storeWithBucket({ now: clock.now, maxListLimit: 1000 });
  const lazy = await storeWithBucket({ now: clock.now, maxListLimit: 1000 });
  eager.bulkLoad(BUCKET, Array.from({ length: source.count }, (_, i) => source.entryAt(i)));
  lazy.bulkLoadLazy(BUCKET, source);
  return { eager, lazy };
}

/** Everything a ListObjects client receives, records included (key, size, etag, times, type, class). */
function listing(store: Store, input: ListObjectsInput) {
  const r = store.listObjects(BUCKET, input);
  return { keys: r.keys.map((o) => ({ ...o, body: o.body.size })), prefixes: r.commonPrefixes, hasMore: r.hasMore, next: r.nextMarker, limit: r.limit };
}

const SMALL = 5_000; // ten chunks of 512 and a half; 12.5 days of 400

describe('lazily loaded bucket', () => {
  it('lists exactly like the eager load for any prefix, delimiter, marker and limit', async () => {
    const source = archiveSource(SMALL);
    const { eager, lazy } = await pair(source);
    const prefixes = ['', 'logs/', 'logs/2024/', 'logs/2024/01/', 'logs/2024/01/0', 'logs/2024/01/05/', 'logs/2024/01/05/event-03', 'logs/2023/', 'm'];
    await assert(
      asyncProperty(
        record({
          prefix: constantFrom(...prefixes),
          delimiter: constantFrom('', '/', '-', '0'),
          marker: option(constantFrom<string | number>(...prefixes, 'logs/2024/01/13/', 0, 1, 511, 512, 513, 2047, 4999), { nil: undefined }),
          limit: integer({ min: 1, max: 1000 }),
        }),
        async ({ prefix, delimiter, marker, limit }) => {
          const input: ListObjectsInput = { prefix, delimiter, limit, ...(marker === undefined ? {} : { marker: typeof marker === 'number' ? source.keyAt(marker) : marker }) };
          expect(listing(lazy, input)).toEqual(listing(eager, input));
        },
      ),
      { numRuns: 300 },
    );
    // Random markers between and around real keys, too.
    await assert(
      asyncProperty(fcString({ maxLength: 40 }), integer({ min: 1, max: 300 }), async (marker, limit) => {
        expect(listing(lazy, { marker, limit })).toEqual(listing(eager, { marker, limit }));
      }),
      { numRuns: 200 },
    );
  });

  it('pages the whole bucket with markers the same way and keeps statistics identical', async () => {
    const { eager, lazy } = await pair(archiveSource(SMALL));
    for (const delimiter of ['', '/']) {
      let marker = '';
      for (;;) {
        const a = listing(lazy, { marker, delimiter, prefix: 'logs/2024/01/', limit: 700 });
        expect(a).toEqual(listing(eager, { marker, delimiter, prefix: 'logs/2024/01/', limit: 700 }));
        if (!a.hasMore) break;
        marker = a.next;
      }
    }
    expect(lazy.getBucketStatistics(BUCKET)).toEqual(eager.getBucketStatistics(BUCKET));
    expect(lazy.findObject(BUCKET, 'logs/2024/01/07/event-0123.json')).toEqual(eager.findObject(BUCKET, 'logs/2024/01/07/event-0123.json'));
    expect(lazy.findObject(BUCKET, 'logs/2024/01/07/event-9999.json')).toBeUndefined();
  });

  it('builds only the chunks a listing reaches, and writes after a lazy load behave like writes after an eager one', async () => {
    const { eager, lazy } = await pair(archiveSource(SMALL));
    expect(lazy.pendingObjectChunks(BUCKET)).toBe(10);
    listing(lazy, { limit: 100 });
    expect(lazy.pendingObjectChunks(BUCKET)).toBe(9);
    listing(lazy, { prefix: 'logs/', delimiter: '/' });
    expect(lazy.pendingObjectChunks(BUCKET)).toBe(9);
    for (const store of [eager, lazy]) {
      store.putObject(BUCKET, 'logs/2024/01/03/added.json', { body: new Uint8Array(5) });
      store.deleteObject(BUCKET, 'logs/2024/01/09/event-0007.json');
      store.putObject(BUCKET, 'a-first', { body: new Uint8Array(1), storageClass: 'STANDARD_IA' });
    }
    expect(lazy.pendingObjectChunks(BUCKET)).toBe(0);
    expect(lazy.getBucketStatistics(BUCKET)).toEqual(eager.getBucketStatistics(BUCKET));
    for (const input of [{ limit: 1000 }, { prefix: 'logs/2024/01/03/', marker: 'logs/2024/01/03/event-0399.json' }, { prefix: 'logs/2024/01/09/event-000' }]) {
      expect(listing(lazy, input)).toEqual(listing(eager, input));
    }
  });

  it('refuses a source whose keys are not ascending instead of listing wrongly', async () => {
    const store = await storeWithBucket({});
    const keys = ['b', 'a', 'c'];
    store.bulkLoadLazy(BUCKET, { count: 3, keyAt: (i) => keys[i] ?? '', entryAt: (i) => ({ key: keys[i] ?? '' }) });
    expect(() => store.listObjects(BUCKET, {})).toThrow(/not strictly ascending/);
  });
});

describe('the demo seed', () => {
  it('seeds the 100,000-object archive without building it, and lists and counts it as before', async () => {
    const { store } = await createEmulator({ seed: 'demo', domains: ['qingstor.invalid'] });
    expect(store.pendingObjectChunks(DEMO_BUCKETS.archive)).toBe(Math.ceil(DEMO_ARCHIVE_OBJECTS / 512));
    const first = store.listObjects(DEMO_BUCKETS.archive, { limit: 3 });
    expect(first.keys.map((o) => o.key)).toEqual(['logs/2024/01/01/event-0000.json', 'logs/2024/01/01/event-0001.json', 'logs/2024/01/01/event-0002.json']);
    const days = store.listObjects(DEMO_BUCKETS.archive, { prefix: 'logs/2024/', delimiter: '/' });
    expect(days.commonPrefixes).toEqual(['logs/2024/01/', 'logs/2024/02/', 'logs/2024/03/', 'logs/2024/04/', 'logs/2024/05/', 'logs/2024/06/', 'logs/2024/07/', 'logs/2024/08/', 'logs/2024/09/']);
    const last = store.listObjects(DEMO_BUCKETS.archive, { marker: 'logs/2024/09/06/event-0398.json' });
    expect(last.keys.map((o) => o.key)).toEqual(['logs/2024/09/06/event-0399.json']);
    // The month listing seeks over the days: it builds one chunk per month, not the 196 of the bucket.
    expect(store.pendingObjectChunks(DEMO_BUCKETS.archive)).toBeGreaterThan(180);
    const stats = store.getBucketStatistics(DEMO_BUCKETS.archive);
    expect(stats.count).toBe(DEMO_ARCHIVE_OBJECTS);
    // 250 days, every seventh (36 of them) infrequent access; 28-byte bodies.
    expect(stats.storageClasses.STANDARD_IA.count).toBe(36 * 400);
    expect(stats.size).toBe(DEMO_ARCHIVE_OBJECTS * 28);
  });
});
