/**
 * The journal of bulk jobs: each job's record (scope, operation, where the pass stands, its counts) and one
 * record per object it settled or is about to write (its state, the version it read before writing, the
 * version it left, the error code and request id). It is what makes a job survive a reload and a browser
 * restart, what "undo" restores from and what the report is made of.
 *
 * Two implementations: in memory (tests) and IndexedDB (journal-idb.ts). Items and the job's record are
 * written together (`commit`), so the counts and the cursor never get ahead of the items they describe.
 * `JournalWriter` groups the writes of many objects into one commit: an object's "about to write" record
 * must be stored before its write is sent, and one transaction per object would cost more than the write.
 */
import type { ItemRecord, JobRecord } from './types.ts';
import { defer } from './defer.ts';

export type ScanFilter = 'all' | 'problems' | 'failed' | 'changed';

export interface ScanPage {
  items: ItemRecord[];
  last: string | null;
  done: boolean;
}

export interface Journal {
  /** Every job of a connection, newest first. */
  jobs(connection: string): Promise<JobRecord[]>;
  job(id: string): Promise<JobRecord | undefined>;
  /** The records of these keys (the keys without one are absent from the map). */
  items(job: string, keys: readonly string[]): Promise<Map<string, ItemRecord>>;
  /** Records left in state `intent`: writes sent (or about to be) whose outcome was never recorded. */
  intents(job: string): Promise<ItemRecord[]>;
  /**
   * Reads up to `limit` records after the key `after` (null: from the first), in the journal's key order
   * (UTF-16 code units), and returns those that pass `filter` (problems: skipped or failed), the key of
   * the last record read (to page on from) and whether the job has no records beyond it.
   */
  scan(job: string, options: { after: string | null; limit: number; filter: ScanFilter }): Promise<ScanPage>;
  /** Stores the items and, when given, the job's record, all or nothing. */
  commit(items: readonly ItemRecord[], job?: JobRecord): Promise<void>;
  /** Forgets a job and every record of it. */
  remove(job: string): Promise<void>;
}

export function passesFilter(item: ItemRecord, filter: ScanFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'problems':
      return item.state === 'skipped' || item.state === 'failed';
    case 'failed':
      return item.state === 'failed';
    case 'changed':
      return item.state === 'changed';
  }
}

/** UTF-16 code-unit order, the order IndexedDB sorts string keys in. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function createMemoryJournal(): Journal & { readonly commits: number } {
  const jobs = new Map<string, JobRecord>();
  const items = new Map<string, Map<string, ItemRecord>>();
  let commits = 0;
  const itemsOf = (job: string) => {
    let map = items.get(job);
    if (!map) {
      map = new Map();
      items.set(job, map);
    }
    return map;
  };
  return {
    get commits() {
      return commits;
    },
    jobs: async (connection) =>
      [...jobs.values()]
        .filter((j) => j.connection === connection)
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((j) => structuredClone(j)),
    job: async (id) => {
      const found = jobs.get(id);
      return found ? structuredClone(found) : undefined;
    },
    items: async (job, keys) => {
      const map = itemsOf(job);
      const out = new Map<string, ItemRecord>();
      for (const key of keys) {
        const found = map.get(key);
        if (found) out.set(key, structuredClone(found));
      }
      return out;
    },
    intents: async (job) => [...itemsOf(job).values()].filter((i) => i.state === 'intent').map((i) => structuredClone(i)),
    scan: async (job, { after, limit, filter }) => {
      // Problems come from their own index in IndexedDB: only those are read there too.
      const indexed = filter === 'problems' || filter === 'failed' ? (i: ItemRecord) => passesFilter(i, 'problems') : () => true;
      const read = [...itemsOf(job).values()]
        .filter((i) => (after === null || compareCodeUnits(i.key, after) > 0) && indexed(i))
        .sort((a, b) => compareCodeUnits(a.key, b.key))
        .slice(0, limit);
      return { items: read.filter((i) => passesFilter(i, filter)).map((i) => structuredClone(i)), last: read.at(-1)?.key ?? after, done: read.length < limit };
    },
    commit: async (list, job) => {
      commits += 1;
      const copies = list.map((i) => structuredClone(i));
      for (const item of copies) itemsOf(item.job).set(item.key, item);
      if (job) jobs.set(job.id, structuredClone(job));
    },
    remove: async (job) => {
      jobs.delete(job);
      items.delete(job);
    },
  };
}

/**
 * Group commit over a Journal: `put` queues an item and resolves once the commit holding it is done;
 * `setJob` replaces the job record the next commit carries. While one commit is in flight the next
 * collects everything that arrives, so at most one transaction runs at a time and items land in order.
 */
export class JournalWriter {
  readonly #journal: Journal;
  #queue: ItemRecord[] = [];
  #job: JobRecord | undefined;
  #waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  #running: Promise<void> | undefined;
  #failure: unknown;

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  /** The error of a failed commit, if any (later puts reject with it too). */
  get failure(): unknown {
    return this.#failure;
  }

  put(item: ItemRecord): Promise<void> {
    this.#queue.push(item);
    return this.#schedule();
  }

  setJob(job: JobRecord): Promise<void> {
    this.#job = job;
    return this.#schedule();
  }

  /** Resolves when everything queued so far is committed. */
  flush(): Promise<void> {
    return this.#queue.length === 0 && this.#job === undefined ? (this.#running ?? Promise.resolve()) : this.#schedule();
  }

  #schedule(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const { promise, resolve, reject } = defer();
    this.#waiters.push({ resolve, reject });
    this.#running ??= this.#drain();
    return promise;
  }

  async #drain(): Promise<void> {
    // Let the other objects of this turn queue their records first.
    await Promise.resolve();
    while (this.#waiters.length > 0) {
      const items = this.#queue;
      const job = this.#job;
      const waiters = this.#waiters;
      this.#queue = [];
      this.#job = undefined;
      this.#waiters = [];
      try {
        await this.#journal.commit(dedupe(items), job);
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        this.#failure = error;
        for (const waiter of [...waiters, ...this.#waiters]) waiter.reject(error);
        this.#waiters = [];
      }
    }
    this.#running = undefined;
  }
}

/** The last record of each key wins (an intent followed by its outcome in the same commit). */
function dedupe(items: readonly ItemRecord[]): ItemRecord[] {
  if (items.length < 2) return [...items];
  const last = new Map<string, ItemRecord>();
  for (const item of items) last.set(`${item.job}\u0000${item.key}`, item);
  return [...last.values()];
}
