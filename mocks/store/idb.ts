/**
 * IndexedDB persistence for the browser demo: the emulator's records and bodies kept in this browser, so
 * demo edits survive a reload. Loaded with the demo (mocks/browser.ts), never in the console's first chunk.
 *
 * Object stores of the database (one version, DB_VERSION):
 *   buckets  {name, zone, ownerId, created, status, acl, cors, policy, lifecycle}     key name
 *   objects  {bucket, key, chunks: Uint8Array[], size, etag, ..., metadata}           key [bucket, key]
 *            or a tombstone {bucket, key, deleted: true}: an object of a generated bucket that was deleted
 *   uploads  {bucket, uploadId, key, created, metadata, storageClass}                key [bucket, uploadId]
 *   parts    {bucket, uploadId, partNumber, chunks, size, etag, created}              key [bucket, uploadId, partNumber]
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
 * The demo's generated bucket (100,000 objects) is not written: the journal records its source id and,
 * afterwards, only the objects written or deleted in it; a reload generates the rest again.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { z } from 'zod';
import { makeBody } from './body.ts';
import type { EmulatorPersistence } from './persistence.ts';
import { bucketInfoOf, metadataOf, objectRecordSchema, partRecordSchema, storedObjectOf, uploadRecordSchema } from './record-schemas.ts';
import type { Store } from './store.ts';
import type { BodySegment, BucketInfo, LazyObjectSource, ObjectBody, PartInfo, StoredObject, StoreJournal, UploadInfo } from './types.ts';

export const DEMO_DB_NAME = 'qingstor-console-demo';
const DB_VERSION = 1;

interface DemoDb extends DBSchema {
  buckets: { key: string; value: unknown };
  objects: { key: [string, string]; value: unknown };
  uploads: { key: [string, string]; value: unknown };
  parts: { key: [string, string, number]; value: unknown };
  lazy: { key: string; value: unknown };
  meta: { key: string; value: unknown };
}

const STORES = ['buckets', 'objects', 'uploads', 'parts', 'lazy', 'meta'] as const satisfies readonly StoreNames<DemoDb>[];
type WriteTx = IDBPTransaction<DemoDb, typeof STORES, 'readwrite'>;

/** One queued change: applied to a readwrite transaction over every store. */
type Op = (tx: WriteTx) => void;

const chunksSchema = z.array(z.instanceof(Uint8Array));
const storedObjectRowSchema = objectRecordSchema.omit({ segments: true }).extend({ bucket: z.string(), chunks: chunksSchema });
const tombstoneSchema = z.object({ bucket: z.string(), key: z.string(), deleted: z.literal(true) });
const uploadRowSchema = uploadRecordSchema.extend({ bucket: z.string() });
const partRowSchema = partRecordSchema.omit({ segments: true }).extend({ bucket: z.string(), uploadId: z.string(), chunks: chunksSchema });
const lazyRowSchema = z.object({ bucket: z.string(), source: z.string() });

/** A record the restore left out because it did not validate (kind, bucket/key as far as readable, why). */
export interface DamagedRecord {
  kind: 'bucket' | 'object' | 'upload' | 'part' | 'lazy';
  name: string;
  reason: string;
}

function sizeOf(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  return n;
}

/** Everything below `prefix` in a store keyed by arrays starting with `prefix` (arrays sort after strings). */
function under(...prefix: string[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

/** The bytes of a body as standalone arrays: a view would make IndexedDB clone its whole buffer. */
function bytesOf(body: ObjectBody): Uint8Array[] {
  return body.chunks.map((segment: BodySegment) => {
    if (!(segment instanceof Uint8Array)) throw new Error('the IndexedDB persistence keeps bodies in memory only');
    return segment.byteOffset === 0 && segment.byteLength === segment.buffer.byteLength ? segment : segment.slice();
  });
}

interface Snapshot {
  seeded: boolean;
  buckets: unknown[];
  objects: unknown[];
  uploads: unknown[];
  parts: unknown[];
  lazy: unknown[];
}

export interface IdbPersistenceOptions {
  /** Database name; default DEMO_DB_NAME. The global `indexedDB` is used (tests install fake-indexeddb). */
  name?: string;
  /** The generated source a LazyObjectSource id names (seed.ts lazySourceById). */
  lazySource: (id: string) => LazyObjectSource | undefined;
}

export class IdbPersistence implements StoreJournal, EmulatorPersistence {
  readonly journal: StoreJournal = this;
  private readonly db: IDBPDatabase<DemoDb>;
  private readonly snapshot: Snapshot;
  private readonly lazySource: (id: string) => LazyObjectSource | undefined;
  /** Changes not yet in a transaction. */
  private queued: Op[] = [];
  private flushScheduled = false;
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

  private constructor(db: IDBPDatabase<DemoDb>, snapshot: Snapshot, options: IdbPersistenceOptions) {
    this.db = db;
    this.snapshot = snapshot;
    this.lazySource = options.lazySource;
  }

  /** Opens the database and reads everything in it (restore() then needs no further wait). */
  static async open(options: IdbPersistenceOptions): Promise<IdbPersistence> {
    const name = options.name ?? DEMO_DB_NAME;
    let persistence: IdbPersistence | undefined;
    const db = await openDB<DemoDb>(name, DB_VERSION, {
      // A new DB_VERSION means a new record format: drop what an older console kept and seed again.
      upgrade(database) {
        for (const existing of [...database.objectStoreNames]) database.deleteObjectStore(existing);
        database.createObjectStore('buckets', { keyPath: 'name' });
        database.createObjectStore('objects', { keyPath: ['bucket', 'key'] });
        database.createObjectStore('uploads', { keyPath: ['bucket', 'uploadId'] });
        database.createObjectStore('parts', { keyPath: ['bucket', 'uploadId', 'partNumber'] });
        database.createObjectStore('lazy', { keyPath: 'bucket' });
        database.createObjectStore('meta', { keyPath: 'name' });
      },
      // A newer version of the console (another tab) upgrades the database: let it, and stop here.
      blocking() {
        persistence?.lose(new Error('another tab opened the demo data with a newer version of the console; reload this page'));
      },
    });
    const tx = db.transaction(STORES, 'readonly');
    const [seeded, buckets, objects, uploads, parts, lazy] = await Promise.all([
      tx.objectStore('meta').get('seeded'),
      tx.objectStore('buckets').getAll(),
      tx.objectStore('objects').getAll(),
      tx.objectStore('uploads').getAll(),
      tx.objectStore('parts').getAll(),
      tx.objectStore('lazy').getAll(),
    ]);
    await tx.done;
    persistence = new IdbPersistence(db, { seeded: seeded !== undefined, buckets, objects, uploads, parts, lazy }, options);
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
    if (this.flushScheduled) return;
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
    if (this.queued.length > 0) this.flush();
    if (!this.lost) await this.last.catch(() => undefined);
    if (this.lost) throw this.lost;
  };

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

  putObject(bucket: string, o: StoredObject): void {
    const row = {
      bucket,
      key: o.key,
      chunks: bytesOf(o.body),
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
    const row = { bucket, uploadId, partNumber: part.partNumber, chunks: bytesOf(part.body), size: part.size, etag: part.etag, created: part.created.getTime() };
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
      this.restoreInto(store);
    } finally {
      this.muted = false;
    }
    // The damaged records go: the next load finds a consistent database and nothing to report.
    this.enqueue(this.damagedRows);
    return true;
  }

  /** Records the last restore left out because they did not validate. */
  get damaged(): readonly DamagedRecord[] {
    return this.damagedList;
  }

  private damagedList: DamagedRecord[] = [];
  /** Deletes the records left out, written once the restore is done. */
  private damagedRows: Op[] = [];

  /** Notes a record left out: its kind, what it was (as far as it can be read) and why. */
  private leaveOut(kind: DamagedRecord['kind'], raw: unknown, reason: string): void {
    const field = (name: string): string => (typeof raw === 'object' && raw !== null && name in raw ? String((raw as Record<string, unknown>)[name]) : '');
    const bucket = field(kind === 'bucket' ? 'name' : 'bucket');
    const name = kind === 'bucket' || kind === 'lazy' ? bucket : `${bucket}/${field('key') || field('uploadId')}${kind === 'part' ? ` #${field('partNumber')}` : ''}`;
    this.damagedList.push({ kind, name, reason });
    if (bucket === '') return;
    const id = kind === 'upload' || kind === 'part' ? field('uploadId') : field('key');
    const remove: Op =
      kind === 'bucket' ? (tx) => void tx.objectStore('buckets').delete(bucket)
      : kind === 'lazy' ? (tx) => void tx.objectStore('lazy').delete(bucket)
      : kind === 'object' ? (tx) => void tx.objectStore('objects').delete([bucket, id])
      : kind === 'upload' ? (tx) => void tx.objectStore('uploads').delete([bucket, id])
      : (tx) => void tx.objectStore('parts').delete([bucket, id, Number(field('partNumber'))]);
    // A key that is itself damaged cannot be deleted by key: it is left, and left out again next time.
    this.damagedRows.push((tx) => {
      try {
        remove(tx);
      } catch {
        // DataError: not a valid key
      }
    });
  }

  private restoreInto(store: Store): void {
    const { buckets, objects, uploads, parts, lazy } = this.snapshot;
    const reason = (error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string =>
      error.issues.map((i) => `${i.path.map(String).join('.') || 'record'}: ${i.message}`).join('; ');
    const objectsOf = new Map<string, StoredObject[]>();
    const removedOf = new Map<string, string[]>();
    for (const raw of objects) {
      const gone = tombstoneSchema.safeParse(raw);
      if (gone.success) {
        removedOf.set(gone.data.bucket, [...(removedOf.get(gone.data.bucket) ?? []), gone.data.key]);
        continue;
      }
      const parsed = storedObjectRowSchema.safeParse(raw);
      if (!parsed.success) {
        this.leaveOut('object', raw, reason(parsed.error));
        continue;
      }
      const o = parsed.data;
      if (sizeOf(o.chunks) !== o.size) {
        this.leaveOut('object', raw, `size ${o.size} but ${sizeOf(o.chunks)} bytes`);
        continue;
      }
      const list = objectsOf.get(o.bucket) ?? [];
      list.push(storedObjectOf(o, makeBody(o.chunks)));
      objectsOf.set(o.bucket, list);
    }
    const partsOf = new Map<string, PartInfo[]>();
    for (const raw of parts) {
      const parsed = partRowSchema.safeParse(raw);
      if (!parsed.success || sizeOf(parsed.data.chunks) !== parsed.data.size) {
        this.leaveOut('part', raw, parsed.success ? 'size does not match its bytes' : reason(parsed.error));
        continue;
      }
      const p = parsed.data;
      const id = `${p.bucket}/${p.uploadId}`;
      const list = partsOf.get(id) ?? [];
      list.push({ partNumber: p.partNumber, size: p.size, etag: p.etag, created: new Date(p.created), body: makeBody(p.chunks) });
      partsOf.set(id, list);
    }
    const sourceOf = new Map<string, string>();
    for (const raw of lazy) {
      const parsed = lazyRowSchema.safeParse(raw);
      if (parsed.success) sourceOf.set(parsed.data.bucket, parsed.data.source);
      else this.leaveOut('lazy', raw, reason(parsed.error));
    }
    for (const raw of buckets) {
      let b: BucketInfo;
      try {
        b = bucketInfoOf(raw);
      } catch (error) {
        this.leaveOut('bucket', raw, error instanceof z.ZodError ? reason(error) : String(error));
        continue;
      }
      store.restoreBucket(b);
      const sourceId = sourceOf.get(b.name);
      const source = sourceId === undefined ? undefined : this.lazySource(sourceId);
      if (source) {
        // journal muted: lazyObjects() only notes the bucket, the generator builds pages on demand again
        store.bulkLoadLazy(b.name, source);
        store.restoreObjectChanges(b.name, objectsOf.get(b.name) ?? [], removedOf.get(b.name) ?? []);
      } else {
        store.restoreObjects(b.name, objectsOf.get(b.name) ?? []);
      }
    }
    for (const raw of uploads) {
      const parsed = uploadRowSchema.safeParse(raw);
      if (!parsed.success) {
        this.leaveOut('upload', raw, reason(parsed.error));
        continue;
      }
      const u = parsed.data;
      // Only a second tab writing over this one's deletes can leave this behind: nothing to attach it to.
      if (!store.findBucket(u.bucket)) continue;
      store.restoreUpload(
        { bucket: u.bucket, key: u.key, uploadId: u.uploadId, created: new Date(u.created), metadata: metadataOf(u.metadata), storageClass: u.storageClass },
        partsOf.get(`${u.bucket}/${u.uploadId}`) ?? [],
      );
    }
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
