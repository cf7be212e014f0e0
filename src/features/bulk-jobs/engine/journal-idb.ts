import type { DBSchema, IDBPDatabase } from 'idb';
import { compareCodeUnits, passesFilter, type Journal, type ScanFilter } from './journal.ts';
import { parseItem, parseJob } from './schemas.ts';
import type { ItemRecord } from './types.ts';

/**
 * The jobs' journal in IndexedDB (through the idb library, loaded with the engine). Two object stores:
 *
 * - `jobs`, keyed by id, with an index on the connection;
 * - `items`, keyed by [job, key], with two sparse indexes: `problems` holds only skipped and failed
 *   records (the failures table and the retry pass read it without walking the whole job), `intents` only
 *   records whose write was about to be sent (what a resume must settle first). A record is in a sparse
 *   index only while it carries the index's field (`p`, `i`), which `toRow` sets from its state.
 *
 * `commit` writes items and the job record in one readwrite transaction and resolves when it has
 * committed, so what a resume reads is exactly what was acknowledged.
 */
const DB_VERSION = 1;

type ItemRow = ItemRecord & { p?: string; i?: string };

interface JobsDb extends DBSchema {
  // Values are checked when read (schemas.ts): another console version may have written them.
  jobs: { key: string; value: unknown; indexes: { connection: string } };
  items: { key: [string, string]; value: unknown; indexes: { problems: [string, string]; intents: [string, string] } };
}

function toRow(item: ItemRecord): ItemRow {
  const row: ItemRow = { ...item };
  if (item.state === 'skipped' || item.state === 'failed') row.p = item.key;
  if (item.state === 'intent') row.i = item.key;
  return row;
}

/** The index fields are not part of the record: the schema's object parse leaves them out. */
function fromRow(value: unknown): ItemRecord | undefined {
  return parseItem(value);
}

/** The [job, key] range of one job: arrays sort after strings, so [job, []] bounds every key from above. */
function jobRange(job: string, after: string | null): IDBKeyRange {
  return after === null ? IDBKeyRange.bound([job, ''], [job, []]) : IDBKeyRange.bound([job, after], [job, []], true);
}

export const JOBS_DB_NAME = 'qingstor-console-jobs';

/** The global `indexedDB` is used (tests install fake-indexeddb). */
export function createIndexedDbJournal(name = JOBS_DB_NAME): Journal & { close(): Promise<void> } {
  let db: Promise<IDBPDatabase<JobsDb>> | undefined;
  function open(): Promise<IDBPDatabase<JobsDb>> {
    if (db) return db;
    const opening = import('idb').then(({ openDB }) =>
      openDB<JobsDb>(name, DB_VERSION, {
        upgrade(database) {
          database.createObjectStore('jobs', { keyPath: 'id' }).createIndex('connection', 'connection');
          const items = database.createObjectStore('items', { keyPath: ['job', 'key'] });
          items.createIndex('problems', ['job', 'p']);
          items.createIndex('intents', ['job', 'i']);
        },
      }),
    );
    db = opening;
    opening.catch(() => {
      if (db === opening) db = undefined;
    });
    return opening;
  }

  return {
    async jobs(connection) {
      const rows = await (await open()).getAllFromIndex('jobs', 'connection', connection);
      return rows.flatMap((row) => {
        const job = parseJob(row);
        return job ? [job] : [];
      }).sort((a, b) => b.createdAt - a.createdAt);
    },
    async job(id) {
      return parseJob(await (await open()).get('jobs', id));
    },
    async items(job, keys) {
      const out = new Map<string, ItemRecord>();
      if (keys.length === 0) return out;
      // One range read over the page's keys (their lowest to their highest in IndexedDB's order), then
      // the keys asked for are picked out: cheaper than one get per key.
      let low = keys[0] ?? '';
      let high = low;
      for (const key of keys) {
        if (compareCodeUnits(key, low) < 0) low = key;
        if (compareCodeUnits(key, high) > 0) high = key;
      }
      const wanted = new Set(keys);
      const rows = await (await open()).getAll('items', IDBKeyRange.bound([job, low], [job, high]));
      for (const row of rows) {
        const item = fromRow(row);
        if (item && wanted.has(item.key)) out.set(item.key, item);
      }
      return out;
    },
    async intents(job) {
      const rows = await (await open()).getAllFromIndex('items', 'intents', IDBKeyRange.bound([job, ''], [job, []]));
      return rows.flatMap((row) => {
        const item = fromRow(row);
        return item && item.state === 'intent' ? [item] : [];
      });
    },
    async scan(job, { after, limit, filter }: { after: string | null; limit: number; filter: ScanFilter }) {
      const database = await open();
      const range = jobRange(job, after);
      const rows = filter === 'problems' || filter === 'failed' ? await database.getAllFromIndex('items', 'problems', range, limit) : await database.getAll('items', range, limit);
      const items: ItemRecord[] = [];
      let last: string | null = after;
      for (const row of rows) {
        const item = fromRow(row);
        if (item) last = item.key;
        if (item && passesFilter(item, filter)) items.push(item);
      }
      return { items, last, done: rows.length < limit };
    },
    async commit(items, job) {
      const tx = (await open()).transaction(['items', 'jobs'], 'readwrite');
      const writes: Promise<unknown>[] = items.map((item) => tx.objectStore('items').put(toRow(item)));
      if (job) writes.push(tx.objectStore('jobs').put(job));
      await Promise.all([...writes, tx.done]);
    },
    async remove(job) {
      const tx = (await open()).transaction(['items', 'jobs'], 'readwrite');
      await Promise.all([tx.objectStore('items').delete(jobRange(job, null)), tx.objectStore('jobs').delete(job), tx.done]);
    },
    async close() {
      if (db) (await db).close();
      db = undefined;
    },
  };
}
