// oxlint-disable-next-line import/no-unassigned-import -- installs indexedDB and IDBKeyRange as globals, like a browser
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { createIndexedDbJournal } from './journal-idb.ts';
import { createMemoryJournal, JournalWriter, type Journal } from './journal.ts';
import { NO_COUNTS, type ItemRecord, type JobRecord } from './types.ts';

let dbCount = 0;
const JOURNALS: ReadonlyArray<[string, () => Journal]> = [
  ['memory', () => createMemoryJournal()],
  ['IndexedDB', () => createIndexedDbJournal(`jobs-test-${++dbCount}`)],
];

function job(id: string, patch: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    connection: 'QSKEY@https://q|fixed-host|path|pek3a',
    zone: 'pek3a',
    bucket: 'b',
    scope: { kind: 'prefix', prefix: 'p/' },
    operation: { kind: 'edit', edits: { standard: { 'cache-control': 'max-age=1' } } },
    createdAt: 1,
    updatedAt: 1,
    status: 'running',
    pass: 'main',
    cursor: null,
    total: null,
    retryTotal: null,
    counts: NO_COUNTS,
    fatal: null,
    ...patch,
  };
}

const item = (key: string, state: ItemRecord['state'], extra: Partial<ItemRecord> = {}): ItemRecord => ({ job: 'j', key, state, ...extra });

for (const [name, make] of JOURNALS) {
  describe(`${name} journal`, () => {
    it('keeps a job with its items, written together, and finds them by key, intent and problem', async () => {
      const journal = make();
      const before = { etag: '"e"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT', size: 3, metadata: { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } } };
      await journal.commit([item('p/1', 'changed', { before, after: { lastModified: 'x' }, requestId: 'r1' }), item('p/2', 'intent', { before }), item('p/3', 'failed', { code: 'not_found' }), item('p/4', 'skipped', { code: 'metadata_too_large' })], job('j', { cursor: 'p/4', counts: { changed: 1, unchanged: 0, skipped: 1, failed: 1 } }));
      expect((await journal.job('j'))?.cursor).toBe('p/4');
      expect(await journal.jobs('QSKEY@https://q|fixed-host|path|pek3a')).toHaveLength(1);
      expect(await journal.jobs('someone else')).toEqual([]);
      const found = await journal.items('j', ['p/3', 'p/1', 'p/9']);
      expect([...found.keys()].sort()).toEqual(['p/1', 'p/3']);
      expect(found.get('p/1')).toEqual(item('p/1', 'changed', { before, after: { lastModified: 'x' }, requestId: 'r1' }));
      expect((await journal.intents('j')).map((i) => i.key)).toEqual(['p/2']);
      const problems = await journal.scan('j', { after: null, limit: 10, filter: 'problems' });
      expect(problems.items.map((i) => i.key)).toEqual(['p/3', 'p/4']);
      expect((await journal.scan('j', { after: null, limit: 10, filter: 'failed' })).items.map((i) => i.key)).toEqual(['p/3']);
      // An intent that settles leaves the intent index; a failure retried into a change leaves the problems.
      await journal.commit([item('p/2', 'changed', { before }), item('p/3', 'changed')]);
      expect(await journal.intents('j')).toEqual([]);
      expect((await journal.scan('j', { after: null, limit: 10, filter: 'problems' })).items.map((i) => i.key)).toEqual(['p/4']);
    });

    it('pages through a job in key order, telling where to go on even when a page is all filtered out', async () => {
      const journal = make();
      const keys = Array.from({ length: 25 }, (_, i) => `k${String(i).padStart(2, '0')}`);
      await journal.commit(keys.map((key, i) => ({ job: 'j', key, state: i === 7 || i === 21 ? 'changed' : 'unchanged' })), job('j'));
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const page = await journal.scan('j', { after, limit: 5, filter: 'changed' });
        pages += 1;
        seen.push(...page.items.map((i) => i.key));
        if (page.done) break;
        after = page.last;
      }
      expect(seen).toEqual(['k07', 'k21']);
      expect(pages).toBe(6);
    });

    it('keeps custom keys such as __proto__ and constructor as entries', async () => {
      const journal = make();
      const custom: Record<string, string> = JSON.parse('{"__proto__":"p","constructor":"c","a":"1"}');
      await journal.commit([item('k', 'changed', { before: { size: 1, metadata: { standard: {}, custom } } })], job('j'));
      const back = (await journal.items('j', ['k'])).get('k')?.before?.metadata.custom ?? {};
      expect(Object.keys(back).sort()).toEqual(['__proto__', 'a', 'constructor']);
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    });

    it('forgets a job and its items', async () => {
      const journal = make();
      await journal.commit([item('k', 'changed')], job('j'));
      await journal.commit([{ job: 'other', key: 'k', state: 'changed' }], job('other'));
      await journal.remove('j');
      expect(await journal.job('j')).toBeUndefined();
      expect((await journal.items('j', ['k'])).size).toBe(0);
      expect((await journal.items('other', ['k'])).size).toBe(1);
    });
  });
}

describe('IndexedDB journal', () => {
  it('skips a job record another version wrote in a shape it does not know, and an item that does not parse', async () => {
    const name = `jobs-test-${++dbCount}`;
    const journal = createIndexedDbJournal(name);
    await journal.commit([item('k', 'changed')], job('j'));
    await journal.close();
    const raw = await openDB(name, 1);
    await raw.put('jobs', { id: 'broken', connection: job('j').connection, status: 'exploded' });
    await raw.put('items', { job: 'j', key: 'bad', state: 'sideways' });
    raw.close();
    const again = createIndexedDbJournal(name);
    expect((await again.jobs(job('j').connection)).map((j) => j.id)).toEqual(['j']);
    expect([...(await again.items('j', ['k', 'bad'])).keys()]).toEqual(['k']);
  });
});

describe('JournalWriter', () => {
  it('groups the records of many objects into few commits, in order, the last record of a key winning', async () => {
    const journal = createMemoryJournal();
    const writer = new JournalWriter(journal);
    const writes = Array.from({ length: 100 }, (_, i) => writer.put(item(`k${i}`, 'intent')));
    writes.push(writer.put(item('k0', 'changed')));
    void writer.setJob(job('j', { cursor: 'k99' }));
    await Promise.all(writes);
    await writer.flush();
    expect(journal.commits).toBeLessThanOrEqual(3);
    expect((await journal.items('j', ['k0'])).get('k0')?.state).toBe('changed');
    expect((await journal.intents('j')).length).toBe(99);
    expect((await journal.job('j'))?.cursor).toBe('k99');
  });

  it('rejects every waiting write when a commit fails, and the ones after it', async () => {
    const failing: Journal = { ...createMemoryJournal(), commit: async () => Promise.reject(new Error('QuotaExceededError')) };
    const writer = new JournalWriter(failing);
    await expect(writer.put(item('a', 'intent'))).rejects.toThrow('QuotaExceededError');
    await expect(writer.put(item('b', 'intent'))).rejects.toThrow('QuotaExceededError');
    expect(writer.failure).toBeInstanceOf(Error);
  });
});
