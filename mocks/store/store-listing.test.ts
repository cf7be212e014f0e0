import { describe, it, expect } from 'vitest';
import { array, assert, constantFrom, integer, option, property, record, uniqueArray } from 'fast-check';
import { compareKeys } from './keys.ts';
import type { Store } from './store.ts';
import type { ListObjectsInput } from './types.ts';
import { BUCKET, codeOf, storeWithBucket } from './test-helpers.ts';

async function bucketWith(keys: readonly string[], options: Parameters<typeof storeWithBucket>[0] = {}): Promise<Store> {
  const store = await storeWithBucket(options);
  for (const key of keys) store.putObject(BUCKET, key, { body: new Uint8Array(0) });
  return store;
}

function page(store: Store, input: ListObjectsInput): { keys: string[]; prefixes: string[]; hasMore: boolean; next: string } {
  const r = store.listObjects(BUCKET, input);
  return { keys: r.keys.map((k) => k.key), prefixes: [...r.commonPrefixes], hasMore: r.hasMore, next: r.nextMarker };
}

/**
 * Independent, deliberately naive model of ref §9.5: walk every key in byte order, map it to its
 * common prefix if grouped, drop repeats and anything not after the marker, cut at the limit.
 */
function model(keys: readonly string[], input: Required<Omit<ListObjectsInput, 'limit'>> & { limit: number }) {
  const entries: { kind: 'key' | 'prefix'; value: string }[] = [];
  for (const key of [...keys].sort(compareKeys)) {
    if (!key.startsWith(input.prefix)) continue;
    const cut = input.delimiter === '' ? -1 : key.indexOf(input.delimiter, input.prefix.length);
    const entry = cut >= 0 ? { kind: 'prefix' as const, value: key.slice(0, cut + input.delimiter.length) } : { kind: 'key' as const, value: key };
    const previous = entries[entries.length - 1];
    if (previous !== undefined && previous.kind === 'prefix' && entry.kind === 'prefix' && previous.value === entry.value) continue;
    entries.push(entry);
  }
  const after = entries.filter((e) => input.marker === '' || compareKeys(e.value, input.marker) > 0);
  const taken = after.slice(0, input.limit);
  return {
    keys: taken.filter((e) => e.kind === 'key').map((e) => e.value),
    prefixes: taken.filter((e) => e.kind === 'prefix').map((e) => e.value),
    hasMore: after.length > input.limit,
    next: taken[taken.length - 1]?.value ?? '',
  };
}

const TREE = ['a.txt', 'dir/', 'dir/a', 'dir/b/c', 'dir/b/d', 'dir/e', 'dir0', 'photos/2024/x.jpg', 'photos/2024/y.jpg', 'z'];

describe('listObjects basics (ref §9.5)', () => {
  it('lists everything in byte order without a delimiter', async () => {
    const store = await bucketWith([...TREE].reverse());
    expect(page(store, {})).toEqual({ keys: TREE, prefixes: [], hasMore: false, next: 'z' });
  });

  it('groups into common prefixes with a delimiter, each prefix once', async () => {
    const store = await bucketWith(TREE);
    expect(page(store, { delimiter: '/' })).toEqual({ keys: ['a.txt', 'dir0', 'z'], prefixes: ['dir/', 'photos/'], hasMore: false, next: 'z' });
  });

  it('lists a `dir/` key equal to the prefix in keys, and sub-folders as prefixes', async () => {
    const store = await bucketWith(TREE);
    expect(page(store, { prefix: 'dir/', delimiter: '/' })).toEqual({
      keys: ['dir/', 'dir/a', 'dir/e'],
      prefixes: ['dir/b/'],
      hasMore: false,
      next: 'dir/e',
    });
  });

  it('prefix without delimiter, and a prefix that matches nothing', async () => {
    const store = await bucketWith(TREE);
    expect(page(store, { prefix: 'dir' }).keys).toEqual(['dir/', 'dir/a', 'dir/b/c', 'dir/b/d', 'dir/e', 'dir0']);
    expect(page(store, { prefix: 'nope/' })).toEqual({ keys: [], prefixes: [], hasMore: false, next: '' });
  });

  it('keys and prefixes share the limit; next_marker is the last item, a key or a prefix', async () => {
    const store = await bucketWith(TREE);
    const first = page(store, { delimiter: '/', limit: 2 });
    expect(first).toEqual({ keys: ['a.txt'], prefixes: ['dir/'], hasMore: true, next: 'dir/' });
    const second = page(store, { delimiter: '/', limit: 2, marker: first.next });
    expect(second).toEqual({ keys: ['dir0'], prefixes: ['photos/'], hasMore: true, next: 'photos/' });
    const third = page(store, { delimiter: '/', limit: 2, marker: second.next });
    expect(third).toEqual({ keys: ['z'], prefixes: [], hasMore: false, next: 'z' });
  });

  it('a marker inside a common prefix does not return that prefix again', async () => {
    const store = await bucketWith(TREE);
    expect(page(store, { delimiter: '/', marker: 'dir/b/c' })).toEqual({ keys: ['dir0', 'z'], prefixes: ['photos/'], hasMore: false, next: 'z' });
    expect(page(store, { prefix: 'dir/', delimiter: '/', marker: 'dir/b/c' })).toEqual({ keys: ['dir/e'], prefixes: [], hasMore: false, next: 'dir/e' });
    // a marker before the folder but sharing its first letters still yields it
    expect(page(store, { delimiter: '/', marker: 'dir' }).prefixes).toEqual(['dir/', 'photos/']);
  });

  it('a marker before the prefix starts at the prefix; a marker after it yields nothing', async () => {
    const store = await bucketWith(TREE);
    expect(page(store, { prefix: 'photos/', marker: 'a' }).keys).toEqual(['photos/2024/x.jpg', 'photos/2024/y.jpg']);
    expect(page(store, { prefix: 'dir/', marker: 'e' })).toEqual({ keys: [], prefixes: [], hasMore: false, next: '' });
  });

  it('has_more is false when the page ends exactly at the last item', async () => {
    const store = await bucketWith(['a', 'b', 'c']);
    expect(page(store, { limit: 3 })).toEqual({ keys: ['a', 'b', 'c'], prefixes: [], hasMore: false, next: 'c' });
    expect(page(store, { limit: 2 })).toMatchObject({ hasMore: true, next: 'b' });
    expect(page(store, { limit: 1, marker: 'b' })).toMatchObject({ keys: ['c'], hasMore: false });
  });

  it('has_more accounts for a following prefix, not only following keys', async () => {
    const store = await bucketWith(['a', 'b/1', 'b/2']);
    expect(page(store, { delimiter: '/', limit: 1 })).toEqual({ keys: ['a'], prefixes: [], hasMore: true, next: 'a' });
    expect(page(store, { delimiter: '/', limit: 2 })).toEqual({ keys: ['a'], prefixes: ['b/'], hasMore: false, next: 'b/' });
  });

  it('defaults and clamps the limit; rejects negative or fractional limits', async () => {
    const keys = Array.from({ length: 250 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const store = await bucketWith(keys, { maxListLimit: 200 });
    const dflt = store.listObjects(BUCKET, {});
    expect(dflt.keys).toHaveLength(100);
    expect(dflt.limit).toBe(100);
    expect(store.listObjects(BUCKET, { limit: 0 }).keys).toHaveLength(100);
    const clamped = store.listObjects(BUCKET, { limit: 5000 });
    expect(clamped.keys).toHaveLength(200);
    expect(clamped.limit).toBe(200);
    expect(codeOf(() => store.listObjects(BUCKET, { limit: -1 }))).toBe('invalid_argument');
    expect(codeOf(() => store.listObjects(BUCKET, { limit: 1.5 }))).toBe('invalid_argument');
    expect(codeOf(() => store.listObjects('nothere', {}))).toBe('bucket_not_exists');
  });

  it('orders by UTF-8 bytes: U+E000..U+FFFF before astral characters', async () => {
    const keys = ['\u{1F600}', '\uFF01', '\uE000', 'é', 'z', '中'];
    const store = await bucketWith(keys);
    expect(page(store, {}).keys).toEqual(['z', 'é', '中', '\uE000', '\uFF01', '\u{1F600}']);
    expect(page(store, { marker: '\uFF01' }).keys).toEqual(['\u{1F600}']);
  });

  it('supports a multi-character delimiter', async () => {
    const store = await bucketWith(['a--b', 'a--c', 'a-b', 'b']);
    expect(page(store, { delimiter: '--' })).toMatchObject({ keys: ['a-b', 'b'], prefixes: ['a--'] });
  });

  it('lists a huge common prefix once, between its neighbours', async () => {
    const store = await storeWithBucket();
    const keys = Array.from({ length: 20000 }, (_, i) => ({ key: `big/${String(i).padStart(6, '0')}` }));
    store.bulkLoad(BUCKET, [...keys, { key: 'after' }, { key: 'before' }]);
    expect(page(store, { delimiter: '/', limit: 10 })).toEqual({ keys: ['after', 'before'], prefixes: ['big/'], hasMore: false, next: 'big/' });
  });
});

const CHARS = ['a', 'b', '/', '-', 'é', '\uE000', '\u{1F600}', 'z'];
const keyArb = array(constantFrom(...CHARS), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''));
const shortArb = array(constantFrom(...CHARS), { maxLength: 3 }).map((cs) => cs.join(''));

describe('listObjects against a naive model', () => {
  it('every page equals the model for random keys, prefixes, delimiters, markers and limits', async () => {
    const store = await storeWithBucket();
    assert(
      property(
        uniqueArray(keyArb, { maxLength: 40 }),
        record({ prefix: shortArb, delimiter: constantFrom('', '/', '-', 'é', '\u{1F600}'), marker: shortArb, limit: integer({ min: 1, max: 8 }) }),
        (keys, input) => {
          for (const existing of store.listObjects(BUCKET, { limit: 1000 }).keys) store.deleteObject(BUCKET, existing.key);
          for (const key of keys) store.putObject(BUCKET, key, { body: new Uint8Array(0) });
          expect(page(store, input)).toEqual(model(keys, input));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('paging with next_marker visits every key (or its prefix) exactly once', async () => {
    const store = await storeWithBucket();
    assert(
      property(uniqueArray(keyArb, { maxLength: 60 }), option(constantFrom('/', '-'), { nil: '' }), integer({ min: 1, max: 7 }), (keys, delimiter, limit) => {
        for (const existing of store.listObjects(BUCKET, { limit: 1000 }).keys) store.deleteObject(BUCKET, existing.key);
        store.bulkLoad(BUCKET, keys.map((key) => ({ key })));
        const seen: string[] = [];
        let marker = '';
        for (let guard = 0; guard < 100; guard++) {
          const r = store.listObjects(BUCKET, { delimiter, marker, limit });
          seen.push(...r.keys.map((k) => k.key), ...r.commonPrefixes);
          if (!r.hasMore) break;
          marker = r.nextMarker;
        }
        const expected = model(keys, { prefix: '', delimiter, marker: '', limit: 1000 });
        expect([...seen].sort(compareKeys)).toEqual([...expected.keys, ...expected.prefixes].sort(compareKeys));
        expect(new Set(seen).size).toBe(seen.length);
      }),
      { numRuns: 200 },
    );
  });

  it('paging through 5000 bulk-loaded keys returns each key once and in order', async () => {
    const store = await storeWithBucket();
    const keys = Array.from({ length: 5000 }, (_, i) => `k/${(i * 7919) % 5000}`);
    store.bulkLoad(BUCKET, keys.map((key) => ({ key })));
    const seen: string[] = [];
    let marker = '';
    for (;;) {
      const r = store.listObjects(BUCKET, { marker, limit: 1000 });
      seen.push(...r.keys.map((k) => k.key));
      if (!r.hasMore) break;
      marker = r.nextMarker;
    }
    expect(seen).toEqual([...keys].sort(compareKeys));
  });

  it('listing stays correct under random inserts and deletes at scale (chunk splits/removals)', async () => {
    const store = await storeWithBucket();
    const live = new Set<string>();
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 6000; i++) {
      const key = `f${Math.floor(rand() * 3000)}/${Math.floor(rand() * 10)}`;
      if (rand() < 0.3) {
        store.deleteObject(BUCKET, key);
        live.delete(key);
      } else {
        store.putObject(BUCKET, key, { body: new Uint8Array(0) });
        live.add(key);
      }
    }
    const all: string[] = [];
    let marker = '';
    for (;;) {
      const r = store.listObjects(BUCKET, { marker, limit: 1000 });
      all.push(...r.keys.map((k) => k.key));
      if (!r.hasMore) break;
      marker = r.nextMarker;
    }
    expect(all).toEqual([...live].sort(compareKeys));
    expect(store.getBucketStatistics(BUCKET).count).toBe(live.size);
    expect(store.listObjects(BUCKET, { delimiter: '/', limit: 1000 }).commonPrefixes).toEqual(
      [...new Set([...live].map((k) => k.slice(0, k.indexOf('/') + 1)))].sort(compareKeys).slice(0, 1000),
    );
  });
});

describe('bulkLoad', () => {
  it('sorts unsorted input, lets the last duplicate win, hashes shared bodies once and keeps stats', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'existing', { body: new Uint8Array([1]) });
    const shared = new TextEncoder().encode('abc');
    const when = new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 678));
    const count = store.bulkLoad(BUCKET, [
      { key: 'b', body: shared, contentType: 'text/plain', lastModified: when },
      { key: 'a', body: shared, storageClass: 'STANDARD_IA' },
      { key: 'b', etag: 'ffffffffffffffffffffffffffffffff' },
      { key: 'c', custom: { Owner: 'x' } },
    ]);
    expect(count).toBe(4);
    expect(page(store, {}).keys).toEqual(['a', 'b', 'c', 'existing']);
    const a = store.getObject(BUCKET, 'a');
    expect(a.etag).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(a.body.chunks[0]).toBe(shared);
    expect(store.getObject(BUCKET, 'b')).toMatchObject({ etag: 'ffffffffffffffffffffffffffffffff', size: 0 });
    expect(store.getObject(BUCKET, 'c').metadata.custom).toEqual({ owner: 'x' });
    expect(store.getBucketStatistics(BUCKET)).toMatchObject({ count: 4, size: 4, storageClasses: { STANDARD_IA: { count: 1, size: 3 } } });
    store.bulkLoad(BUCKET, [{ key: 'd', body: shared, lastModified: when }]);
    expect(store.getObject(BUCKET, 'd').lastModified.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(codeOf(() => store.bulkLoad(BUCKET, [{ key: '' }]))).toBe('invalid_object_name');
    // inserts after a bulk load go into the same index
    store.putObject(BUCKET, 'bb', { body: new Uint8Array(0) });
    expect(page(store, {}).keys).toEqual(['a', 'b', 'bb', 'c', 'd', 'existing']);
  });
});

