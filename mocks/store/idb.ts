/**
 * IndexedDB persistence for the browser demo: the emulator's records and bodies kept in this browser, so
 * demo edits survive a reload. Loaded with the demo (mocks/browser.ts), never in the console's first chunk.
 *
 * Object stores of the database (DB_VERSION 2; version 1 had no blocks and kept bytes in the rows, which are
 * still read):
 *   buckets  {name, zone, ownerId, created, status, acl, cors, policy, lifecycle}     key name
 *   objects  {bucket, key, blocks: string[], size, etag, ..., metadata}               key [bucket, key]
 *            or a tombstone {bucket, key, deleted: true}: an object of a generated bucket that was deleted
 *   uploads  {bucket, uploadId, key, created, metadata, storageClass}                key [bucket, uploadId]
 *   parts    {bucket, uploadId, partNumber, blocks, size, etag, created}              key [bucket, uploadId, partNumber]
 *   blocks   {id, bytes}: the bytes of bodies, at most 16 MiB each (idb-records.ts)  key id
 *   lazy     {bucket, source}: a bucket whose objects are generated (LazyObjectSource.id), not stored
 *   meta     {name: 'seeded'}: written in the same transaction as the seed; without it the database is
 *            cleared and seeded again
 * Dates are epoch milliseconds, as in the on-disk records (record-schemas.ts validates both).
 *
 * Ordering and durability. The store calls the journal synchronously, before it changes its memory; IndexedDB
 * only writes asynchronously. The journal therefore queues each change (an `atomically` group as a whole,
 * and only once the group finished without throwing) and writes everything queued during one task in ONE
 * readwrite transaction over all stores. IndexedDB runs readwrite transactions with overlapping scopes in
 * the order they were created, so the changes reach the database in the order the store made them.
 * `durable()` writes what is queued and resolves when the last transaction has committed (`tx.done`); the
 * emulator's request handler awaits it before it answers (handlers option `durable`). So: a response the
 * console received describes a change that is in IndexedDB. If a transaction fails (quota, a value it
 * cannot store), memory and database differ from then on: that request and every later one answer
 * `internal_error` naming the cause, until a reload shows what was saved. Transactions use the browser's
 * default durability: a completed one survives a reload and a crash of the tab; whether it was flushed
 * to the disk before `complete` (an operating system crash) is the browser's choice.
 *
 * Option `holdWrites`: writing the seed clones thousands of records on the page's main thread (~150 ms), so
 * nothing is written until `release()` (after the first rows are painted, seed-durability.ts) or `durable()`
 * (a change); then the queue, seed and `seeded` mark first, goes in one transaction. A tab closed before
 * has no `seeded` mark, so its next start seeds again: never half a seed.
 *
 * The demo's generated bucket (100,000 objects) is not written: the journal records its source id and,
 * afterwards, only the objects written or deleted in it; a reload generates the rest again.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { EmulatorPersistence } from './persistence.ts';
import { BLOCK_MAX, restoreSnapshot, STORES, type DamagedRecord, type DemoDb, type Op, type Snapshot, type WriteTx } from './idb-records.ts';
import type { Store } from './store.ts';
import type { BodySegment, BucketInfo, LazyObjectSource, ObjectBody, PartInfo, StoredObject, StoreJournal, UploadInfo } from './types.ts';

export type { DamagedRecord } from './idb-records.ts';

export const DEMO_DB_NAME = 'qingstor-console-demo';
const DB_VERSION = 2;
/** Bodies up to this size stay in their row; larger ones are written as blocks. */
const INLINE_MAX = 1024 * 1024;

/** Everything below `prefix` in a store keyed by arrays starting with `prefix` (arrays sort after strings). */
function under(...prefix: string[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

export interface IdbPersistenceOptions {
  /** Database name; default DEMO_DB_NAME. The global `indexedDB` is used (tests install fake-indexeddb). */
  name?: string;
  /** The generated source a LazyObjectSource id names (seed.ts lazySourceById). */
  lazySource: (id: string) => LazyObjectSource | undefined;
  /** Write nothing until release() or durable() is called (see `holdWrites` in the header). */
  holdWrites?: boolean;
}

export class IdbPersistence implements StoreJournal, EmulatorPersistence {
  readonly journal: StoreJournal = this;
  private readonly db: IDBPDatabase<DemoDb>;
  private readonly snapshot: Snapshot;
  private readonly lazySource: (id: string) => LazyObjectSource | undefined;
  /** Changes not yet in a transaction. */
  private queued: Op[] = [];
  private flushScheduled = false;
  private held: boolean; // option `holdWrites`, until release() or durable()
  /** The current `atomically` group (undefined outside one). */
  private group: Op[] | undefined;
  /** Settles when the last transaction created so far has committed (rejects if it failed). */
  private last: Promise<void> = Promise.resolve();
  /** Buckets whose objects come from a generator: deleting one of them leaves a tombstone. */
  private readonly lazyBuckets = new Set<string>();
  /** Set while restoring (nothing is journaled) and after reset()/close() (nothing is written). */
  private muted = false;
  private closed = false;
  /** Set when this page can no longer save: every later answer reports it. */
  private lost: Error | undefined;
  /** The block ids each body chunk was written as (a Complete or a copy refers to them again). */
  private readonly blockIds = new WeakMap<Uint8Array, readonly string[]>();
  private nextBlock = 0;
  private readonly blockPrefix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-`;
  /** Records the last restore left out. */
  private damagedList: readonly DamagedRecord[] = [];

  private constructor(db: IDBPDatabase<DemoDb>, snapshot: Snapshot, options: IdbPersistenceOptions) {
    this.db = db;
    this.snapshot = snapshot;
    this.lazySource = options.lazySource;
    this.held = options.holdWrites === true;
  }

  /** Opens the database and reads everything in it (restore() then needs no further wait). */
  static async open(options: IdbPersistenceOptions): Promise<IdbPersistence> {
    const name = options.name ?? DEMO_DB_NAME;
    let persistence: IdbPersistence | undefined;
    const db = await openDB<DemoDb>(name, DB_VERSION, {
      // Version 2 added the blocks store; rows of version 1 (bytes inline) are still read as they are.
      upgrade(database, oldVersion) {
        if (oldVersion < 1) {
          database.createObjectStore('buckets', { keyPath: 'name' });
          database.createObjectStore('objects', { keyPath: ['bucket', 'key'] });
          database.createObjectStore('uploads', { keyPath: ['bucket', 'uploadId'] });
          database.createObjectStore('parts', { keyPath: ['bucket', 'uploadId', 'partNumber'] });
          database.createObjectStore('lazy', { keyPath: 'bucket' });
          database.createObjectStore('meta', { keyPath: 'name' });
        }
        if (oldVersion < 2) database.createObjectStore('blocks', { keyPath: 'id' });
      },
      // A newer version of the console (another tab) upgrades the database: let it, and stop here.
      blocking() {
        persistence?.lose(new Error('another tab opened the demo data with a newer version of the console; reload this page'));
      },
    });
    const tx = db.transaction(STORES, 'readonly');
    const [seeded, buckets, objects, uploads, parts, lazy, blocks] = await Promise.all([
      tx.objectStore('meta').get('seeded'),
      tx.objectStore('buckets').getAll(),
      tx.objectStore('objects').getAll(),
      tx.objectStore('uploads').getAll(),
      tx.objectStore('parts').getAll(),
      tx.objectStore('lazy').getAll(),
      tx.objectStore('blocks').getAll(),
    ]);
    await tx.done;
    persistence = new IdbPersistence(db, { seeded: seeded !== undefined, buckets, objects, uploads, parts, lazy, blocks }, options);
    return persistence;
  }

  // ----------------------------------------------------------------------------------------------
  // queue

  private add(op: Op): void {
    if (this.muted) return;
    if (this.group) this.group.push(op);
    else this.enqueue([op]);
  }

  private enqueue(ops: readonly Op[]): void {
    if (this.closed || ops.length === 0) return;
    this.queued.push(...ops);
    if (this.flushScheduled || this.held) return;
    this.flushScheduled = true;
    // Everything the store does in this task (a whole request, or the whole seed) goes into one transaction.
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queued.length === 0 || this.closed) return;
    const ops = this.queued;
    this.queued = [];
    let tx: WriteTx | undefined;
    let done: Promise<void>;
    try {
      tx = this.db.transaction(STORES, 'readwrite');
      for (const op of ops) op(tx);
      done = tx.done;
    } catch (error) {
      // e.g. a value IndexedDB cannot store: nothing of this transaction may land.
      try {
        tx?.abort();
      } catch {
        // already finished
      }
      tx?.done.catch(() => undefined);
      done = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Memory and database differ from here on: every later answer says so, until a reload.
    done.catch((error: unknown) => {
      const cause = error instanceof Error ? error.message : String(error);
      this.lost ??= new Error(`this browser's storage refused it: ${cause} (reload this page: it shows what was saved)`);
    });
    this.last = done;
  }

  /**
   * Writes what is queued and resolves once every change made so far has committed; rejects once any
   * transaction has failed (transactions complete in order, so an earlier failure is known by then).
   */
  durable = async (): Promise<void> => {
    this.held = false;
    if (this.queued.length > 0) this.flush();
    if (!this.lost) await this.last.catch(() => undefined);
    if (this.lost) throw this.lost;
  };

  /** Ends the hold of the option `holdWrites`: what is queued is written now, later changes as usual. */
  release(): void {
    if (this.held && this.queued.length > 0) this.flush();
    this.held = false;
  }

  // ----------------------------------------------------------------------------------------------
  // journal

  atomically(change: () => void): void {
    if (this.group) {
      change();
      return;
    }
    const group: Op[] = [];
    this.group = group;
    try {
      change();
    } finally {
      this.group = undefined;
    }
    // Reached only when `change` did not throw: a refused change leaves nothing queued.
    this.enqueue(group);
  }

  putBucket(info: BucketInfo): void {
    const row = { ...info, created: info.created.getTime() };
    this.add((tx) => void tx.objectStore('buckets').put(row));
  }

  deleteBucket(name: string): void {
    this.lazyBuckets.delete(name);
    this.add((tx) => {
      void tx.objectStore('buckets').delete(name);
      void tx.objectStore('lazy').delete(name);
      void tx.objectStore('objects').delete(under(name));
      void tx.objectStore('uploads').delete(under(name));
      void tx.objectStore('parts').delete(under(name));
    });
  }

  lazyObjects(bucket: string, source: LazyObjectSource): boolean {
    const id = source.id;
    if (id === undefined) return false;
    this.lazyBuckets.add(bucket);
    this.add((tx) => void tx.objectStore('lazy').put({ bucket, source: id }));
    return true;
  }

  /**
   * How a row keeps its body: up to INLINE_MAX bytes in the row itself (`chunks`, as version 1 did: the seed's
   * thousands of tiny bodies need no records of their own), larger ones as blocks (`blocks`).
   */
  private bodyFields(body: ObjectBody): { chunks: Uint8Array[] } | { blocks: string[] } {
    if (body.size > INLINE_MAX) return { blocks: this.blocksOf(body) };
    return {
      chunks: body.chunks.map((segment: BodySegment) => {
        if (!(segment instanceof Uint8Array)) throw new Error('the IndexedDB persistence keeps bodies in memory only');
        return segment.byteOffset === 0 && segment.byteLength === segment.buffer.byteLength ? segment : segment.slice();
      }),
    };
  }

  /**
   * The block ids of a body, writing (queued, before the row that refers to them) the chunks not written
   * yet. A chunk is written as standalone arrays of at most BLOCK_MAX bytes (a view would make IndexedDB
   * clone its whole buffer).
   */
  private blocksOf(body: ObjectBody): string[] {
    const ids: string[] = [];
    for (const segment of body.chunks) {
      if (!(segment instanceof Uint8Array)) throw new Error('the IndexedDB persistence keeps bodies in memory only');
      let known = this.blockIds.get(segment);
      if (known === undefined) {
        const written: string[] = [];
        for (let at = 0; at < segment.byteLength; at += BLOCK_MAX) {
          const piece = segment.subarray(at, Math.min(segment.byteLength, at + BLOCK_MAX));
          const bytes = piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece : piece.slice();
          const id = `${this.blockPrefix}${(this.nextBlock++).toString(36)}`;
          this.add((tx) => void tx.objectStore('blocks').put({ id, bytes }));
          written.push(id);
        }
        known = written;
        this.blockIds.set(segment, known);
      }
      ids.push(...known);
    }
    return ids;
  }

  putObject(bucket: string, o: StoredObject): void {
    const row = {
      bucket,
      key: o.key,
      ...this.bodyFields(o.body),
      size: o.size,
      etag: o.etag,
      created: o.created.getTime(),
      lastModified: o.lastModified.getTime(),
      metadata: o.metadata,
      storageClass: o.storageClass,
      appendable: o.appendable,
    };
    this.add((tx) => void tx.objectStore('objects').put(row));
  }

  deleteObject(bucket: string, key: string): void {
    // In a generated bucket the object would come back with the generator: remember that it is gone.
    const tombstone = this.lazyBuckets.has(bucket);
    this.add((tx) => {
      const objects = tx.objectStore('objects');
      void (tombstone ? objects.put({ bucket, key, deleted: true }) : objects.delete([bucket, key]));
    });
  }

  putUpload(info: UploadInfo): void {
    const row = {
      bucket: info.bucket,
      uploadId: info.uploadId,
      key: info.key,
      created: info.created.getTime(),
      metadata: info.metadata,
      storageClass: info.storageClass,
    };
    this.add((tx) => void tx.objectStore('uploads').put(row));
  }

  putPart(bucket: string, uploadId: string, part: PartInfo): void {
    const row = { bucket, uploadId, partNumber: part.partNumber, ...this.bodyFields(part.body), size: part.size, etag: part.etag, created: part.created.getTime() };
    this.add((tx) => void tx.objectStore('parts').put(row));
  }

  deleteUpload(bucket: string, uploadId: string): void {
    this.add((tx) => {
      void tx.objectStore('uploads').delete([bucket, uploadId]);
      void tx.objectStore('parts').delete(under(bucket, uploadId));
    });
  }

  // ----------------------------------------------------------------------------------------------
  // restore, reset

  /**
   * Loads the records read at open() into `store` (which must be empty). A record that does not validate
   * (an older format, a damaged database, an edit by hand) is left out, and removed from the database, and
   * only it: every other bucket, object and upload is loaded. What was left out is listed in `damaged`, for
   * the page to tell the user. False when the database was never seeded: then it is cleared, and the seed the
   * emulator applies next is written together with the `seeded` mark in one transaction.
   */
  restore(store: Store): boolean {
    if (!this.snapshot.seeded) {
      this.enqueue([
        (tx) => {
          for (const name of STORES) void tx.objectStore(name).clear();
          void tx.objectStore('meta').put({ name: 'seeded', at: Date.now() });
        },
      ]);
      return false;
    }
    this.muted = true;
    try {
      const restored = restoreSnapshot(store, this.snapshot, this.lazySource);
      this.damagedList = restored.damaged;
      for (const [id, bytes] of restored.blocks) this.blockIds.set(bytes, [id]);
      // The damaged records and the blocks nothing refers to go: the next load finds a clean database.
      this.muted = false;
      this.enqueue(restored.cleanup);
    } finally {
      this.muted = false;
    }
    return true;
  }

  /** Records the last restore left out because they did not validate (each is gone, nothing else is). */
  get damaged(): readonly DamagedRecord[] {
    return this.damagedList;
  }

  /** Closes the database; from now on every answer is an error naming `reason`. */
  private lose(reason: Error): void {
    this.lost = reason;
    this.close();
  }

  /** Stops writing (later changes stay in memory only) and closes the database. */
  close(): void {
    this.closed = true;
    this.queued = [];
    this.db.close();
  }

  /**
   * Forgets the demo data of this browser: stops writing, lets the writes under way finish and empties the
   * database in one transaction (no `seeded` mark left), so the next start seeds again. Reload after this.
   * Emptying rather than deleting the database: a delete waits for every other tab to close it.
   */
  async reset(): Promise<void> {
    this.closed = true;
    this.queued = [];
    await this.last.catch(() => undefined);
    const tx = this.db.transaction(STORES, 'readwrite');
    for (const name of STORES) void tx.objectStore(name).clear();
    await tx.done;
    this.db.close();
  }
}
