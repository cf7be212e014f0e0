/**
 * On-disk persistence for the standalone emulator (`--data-dir DIR`), Node only.
 *
 *   DIR/records.sqlite   buckets (with ACL, CORS, policy, lifecycle), objects (with metadata), uploads and parts, in
 *                        node:sqlite, WAL mode, synchronous=FULL: a committed change survives a crash.
 *   DIR/bodies/<id>      body files, written once and never changed. A body arrives in DIR/tmp, is fsynced,
 *                        renamed into bodies/ and the directory fsynced; only then is the record that
 *                        points at it committed, and only after that does the client get its 2xx.
 *   DIR/tmp/             bodies still arriving. Emptied at start: an interrupted write leaves nothing.
 *
 * Records hold byte ranges of body files, so Complete, copies and part copies share files instead of
 * copying bytes. The files each record points at are counted: a body file no committed record points at
 * any more (a deleted or replaced object, an aborted upload, a refused write) is removed `releaseDelayMs`
 * after that (default 60 s, so a download that has just started can still open it), and whatever is left
 * over by a crash is removed at the next start.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { isFileSegment, makeBody } from './body.ts';
import { bucketInfoOf, metadataOf, objectRecordSchema, partRecordSchema, storedObjectOf, uploadRecordSchema } from './record-schemas.ts';
import type { Store } from './store.ts';
import type {
  BodySegment,
  BodySink,
  BucketInfo,
  FileSegment,
  ObjectBody,
  PartInfo,
  StoredObject,
  StoreJournal,
  UploadInfo,
} from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS buckets (name TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (bucket TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, key));
CREATE TABLE IF NOT EXISTS uploads (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, upload_id));
CREATE TABLE IF NOT EXISTS inline_bodies (name TEXT PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS parts (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, part_number INTEGER NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (bucket, upload_id, part_number));
`;

/** Writes are batched into pieces of about this size before they go to the file. */
const WRITE_BATCH = 1024 * 1024;

interface Row {
  record: string;
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && 'record' in value && typeof value.record === 'string';
}

function rows(statement: StatementSync, ...params: Array<string | number>): Row[] {
  const out: Row[] = [];
  for (const row of statement.all(...params)) if (isRow(row)) out.push(row);
  return out;
}

const LOCK_FILE = 'emulator.pid';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * One emulator per data directory: each keeps the records in memory too, so two would silently diverge.
 * The lock is a file holding the owner's pid; one left by a process that no longer runs (killed) is taken over.
 */
function lockDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const owner = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
        throw new Error(`the data directory ${dir} is in use by another emulator (pid ${owner})`, { cause: error });
      }
      if (owner === process.pid) throw new Error(`the data directory ${dir} is already open in this process`, { cause: error });
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the data directory ${dir}`);
}

function unlockDirectory(dir: string): void {
  const file = path.join(dir, LOCK_FILE);
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

export class DiskPersistence implements StoreJournal {
  readonly dir: string;
  private readonly bodiesDir: string;
  private readonly tmpDir: string;
  private readonly db: DatabaseSync;
  private readonly statements: Record<
    'objectNames' | 'partNames' | 'uploadPartNames' | 'bucketNames' | 'deleteInline' | 'putInline' | 'getInline' | 'putBucket' | 'deleteBucket' | 'deleteBucketObjects' | 'deleteBucketUploads' | 'deleteBucketParts' | 'putObject' | 'deleteObject' | 'putUpload' | 'deleteUpload' | 'deleteUploadParts' | 'putPart',
    StatementSync
  >;
  private depth = 0;
  /** How many committed records point at each body name. */
  private readonly refs = new Map<string, number>();
  /** Reference changes of the transaction in progress, applied when it commits. */
  private deltas: Array<readonly [string, number]> = [];
  private readonly releaseDelayMs: number;
  /** Memory chunks already stored inline (seed bodies shared by many objects are stored once). */
  private readonly inlined = new WeakMap<Uint8Array, string>();
  /** Inline bodies loaded back, by name. */
  private readonly inlineCache = new Map<string, Uint8Array>();

  private constructor(dir: string, releaseDelayMs: number) {
    this.releaseDelayMs = releaseDelayMs;
    this.dir = path.resolve(dir);
    this.bodiesDir = path.join(this.dir, 'bodies');
    this.tmpDir = path.join(this.dir, 'tmp');
    fs.mkdirSync(this.bodiesDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.db = new DatabaseSync(path.join(this.dir, 'records.sqlite'));
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF;');
    this.db.exec(SCHEMA);
    const p = (sql: string) => this.db.prepare(sql);
    this.statements = {
      putInline: p('INSERT OR REPLACE INTO inline_bodies (name, bytes) VALUES (?, ?)'),
      deleteInline: p('DELETE FROM inline_bodies WHERE name = ?'),
      objectNames: p(`SELECT json_extract(seg.value, '$[0]') AS name FROM objects, json_each(objects.record, '$.segments') AS seg WHERE objects.bucket = ? AND objects.key = ?`),
      partNames: p(
        `SELECT json_extract(seg.value, '$[0]') AS name FROM parts, json_each(parts.record, '$.segments') AS seg WHERE parts.bucket = ? AND parts.upload_id = ? AND parts.part_number = ?`,
      ),
      uploadPartNames: p(`SELECT json_extract(seg.value, '$[0]') AS name FROM parts, json_each(parts.record, '$.segments') AS seg WHERE parts.bucket = ? AND parts.upload_id = ?`),
      bucketNames: p(
        `SELECT json_extract(seg.value, '$[0]') AS name FROM objects, json_each(objects.record, '$.segments') AS seg WHERE objects.bucket = ?1 UNION ALL ` +
          `SELECT json_extract(seg.value, '$[0]') AS name FROM parts, json_each(parts.record, '$.segments') AS seg WHERE parts.bucket = ?1`,
      ),
      getInline: p('SELECT bytes FROM inline_bodies WHERE name = ?'),
      putBucket: p('INSERT OR REPLACE INTO buckets (name, record) VALUES (?, ?)'),
      deleteBucket: p('DELETE FROM buckets WHERE name = ?'),
      deleteBucketObjects: p('DELETE FROM objects WHERE bucket = ?'),
      deleteBucketUploads: p('DELETE FROM uploads WHERE bucket = ?'),
      deleteBucketParts: p('DELETE FROM parts WHERE bucket = ?'),
      putObject: p('INSERT OR REPLACE INTO objects (bucket, key, record) VALUES (?, ?, ?)'),
      deleteObject: p('DELETE FROM objects WHERE bucket = ? AND key = ?'),
      putUpload: p('INSERT OR REPLACE INTO uploads (bucket, upload_id, record) VALUES (?, ?, ?)'),
      deleteUpload: p('DELETE FROM uploads WHERE bucket = ? AND upload_id = ?'),
      deleteUploadParts: p('DELETE FROM parts WHERE bucket = ? AND upload_id = ?'),
      putPart: p('INSERT OR REPLACE INTO parts (bucket, upload_id, part_number, record) VALUES (?, ?, ?, ?)'),
    };
  }

  /** Opens (or creates) a data directory and removes what no committed record points at. */
  static open(dir: string, options: { releaseDelayMs?: number } = {}): DiskPersistence {
    lockDirectory(path.resolve(dir));
    const disk = new DiskPersistence(dir, options.releaseDelayMs ?? 60_000);
    disk.sweep();
    return disk;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
    unlockDirectory(this.dir);
  }

  // ----------------------------------------------------------------------------------------------
  // body files

  private newName(): string {
    return randomBytes(16).toString('hex');
  }

  private fileName(segment: FileSegment): string {
    const name = path.basename(segment.file);
    if (path.join(this.bodiesDir, name) !== segment.file) throw new Error(`body file outside the data directory: ${segment.file}`);
    return name;
  }

  /** fsync a directory so that a rename into it survives a crash. */
  private syncDir(dir: string): void {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** A sink that streams a body into a temp file and, on finish, makes it a durable body file. */
  newSink(): BodySink {
    const name = this.newName();
    const temp = path.join(this.tmpDir, name);
    const final = path.join(this.bodiesDir, name);
    const opening = fs.promises.open(temp, 'wx');
    // An unobserved rejection must not crash the process; every method awaits `opening` again.
    opening.catch(() => undefined);
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let size = 0;
    // One batch is written while the next one fills: the disk write overlaps reading and hashing.
    let inFlight: Promise<void> = Promise.resolve();
    const flush = async (): Promise<void> => {
      await inFlight;
      if (pendingBytes === 0) return;
      const batch = pending;
      pending = [];
      pendingBytes = 0;
      const handle = await opening;
      inFlight = handle.writev(batch).then(() => undefined);
      // Seen by the next flush or by finish; never left unobserved.
      inFlight.catch(() => undefined);
    };
    let done = false;
    return {
      write: async (chunk) => {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        size += chunk.byteLength;
        if (pendingBytes >= WRITE_BATCH) await flush();
      },
      finish: async () => {
        done = true;
        await flush();
        await inFlight;
        const handle = await opening;
        await handle.sync();
        await handle.close();
        if (size === 0) {
          await fs.promises.rm(temp, { force: true });
          return [];
        }
        await fs.promises.rename(temp, final);
        this.syncDir(this.bodiesDir);
        const segment: FileSegment = { file: final, offset: 0, byteLength: size };
        // Refused after all (bad digest, bucket gone): no record will count it, so it goes after the delay.
        this.releaseLater(name);
        return [segment];
      },
      abort: async () => {
        if (done) return;
        done = true;
        pending = [];
        try {
          await inFlight.catch(() => undefined);
          await (await opening).close();
        } catch {
          // already closed or never opened
        }
        await fs.promises.rm(temp, { force: true });
      },
    };
  }

  /**
   * Body segments as stored. Memory chunks (seed data) go into the database itself, committed with the
   * record: no file and no fsync per chunk (seeding the demo writes thousands of them).
   */
  private persistSegments(body: ObjectBody): Array<[string, number, number]> {
    const out: Array<[string, number, number]> = [];
    for (const segment of body.chunks) {
      if (isFileSegment(segment)) {
        out.push([this.fileName(segment), segment.offset, segment.byteLength]);
        continue;
      }
      let name = this.inlined.get(segment);
      if (name === undefined) {
        name = `m${this.newName()}`;
        this.statements.putInline.run(name, segment);
        this.inlined.set(segment, name);
      }
      out.push([name, 0, segment.byteLength]);
    }
    return out;
  }

  private inlineBytes(name: string): Uint8Array {
    let bytes = this.inlineCache.get(name);
    if (bytes === undefined) {
      const row = this.statements.getInline.get(name);
      const value = row?.bytes;
      if (!(value instanceof Uint8Array)) throw new Error(`inline body ${name} is missing`);
      bytes = value;
      this.inlineCache.set(name, bytes);
    }
    return bytes;
  }

  private segmentsOf(stored: ReadonlyArray<readonly [string, number, number]>): BodySegment[] {
    return stored.map(([name, offset, byteLength]) =>
      name.startsWith('m')
        ? this.inlineBytes(name).subarray(offset, offset + byteLength)
        : { file: path.join(this.bodiesDir, name), offset, byteLength },
    );
  }

  /** Empties tmp/ and removes body files no committed record points at. */
  sweep(): { removed: number } {
    for (const name of fs.readdirSync(this.tmpDir)) fs.rmSync(path.join(this.tmpDir, name), { force: true, recursive: true });
    // Every segment name any record holds (SQLite's JSON functions: no record is parsed in JavaScript).
    this.refs.clear();
    for (const table of ['objects', 'parts']) {
      const names = this.db.prepare(`SELECT json_extract(seg.value, '$[0]') AS name FROM ${table}, json_each(${table}.record, '$.segments') AS seg`);
      for (const row of names.all()) if (typeof row.name === 'string') this.refs.set(row.name, (this.refs.get(row.name) ?? 0) + 1);
    }
    const referenced = new Set(this.refs.keys());
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS live (name TEXT PRIMARY KEY)');
    this.db.exec('DELETE FROM live');
    const live = this.db.prepare('INSERT OR IGNORE INTO live (name) VALUES (?)');
    this.atomically(() => {
      for (const name of referenced) if (name.startsWith('m')) live.run(name);
      this.db.exec('DELETE FROM inline_bodies WHERE name NOT IN (SELECT name FROM live)');
    });
    let removed = 0;
    for (const name of fs.readdirSync(this.bodiesDir)) {
      if (referenced.has(name)) continue;
      fs.rmSync(path.join(this.bodiesDir, name), { force: true });
      removed += 1;
    }
    return { removed };
  }

  // ----------------------------------------------------------------------------------------------
  // journal

  atomically(change: () => void): void {
    if (this.depth > 0) {
      change();
      return;
    }
    this.db.exec('BEGIN IMMEDIATE');
    this.depth += 1;
    try {
      change();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      this.deltas = [];
      throw error;
    } finally {
      this.depth -= 1;
    }
    this.applyDeltas();
  }

  /** Names (body files or inline bodies) a statement's rows hold. */
  private namesOf(statement: StatementSync, ...params: Array<string | number>): string[] {
    const out: string[] = [];
    for (const row of statement.all(...params)) if (typeof row.name === 'string') out.push(row.name);
    return out;
  }

  /** Records that `names` gained (+1) or lost (-1) a reference; applied once committed. */
  private count(names: readonly string[], delta: 1 | -1): void {
    for (const name of names) this.deltas.push([name, delta]);
    if (this.depth === 0) this.applyDeltas();
  }

  private applyDeltas(): void {
    const deltas = this.deltas;
    this.deltas = [];
    for (const [name, delta] of deltas) {
      const n = (this.refs.get(name) ?? 0) + delta;
      if (n > 0) this.refs.set(name, n);
      else {
        this.refs.delete(name);
        this.releaseLater(name);
      }
    }
  }

  /** Removes a body `releaseDelayMs` from now unless a record points at it by then. */
  private releaseLater(name: string): void {
    setTimeout(() => {
      if (this.refs.has(name) || !this.db.isOpen) return;
      if (name.startsWith('m')) this.statements.deleteInline.run(name);
      else fs.rm(path.join(this.bodiesDir, name), { force: true }, () => undefined);
    }, this.releaseDelayMs).unref();
  }

  putBucket(info: BucketInfo): void {
    const record = { ...info, created: info.created.getTime() };
    this.statements.putBucket.run(info.name, JSON.stringify(record));
  }

  deleteBucket(name: string): void {
    this.atomically(() => {
      this.count(this.namesOf(this.statements.bucketNames, name), -1);
      this.statements.deleteBucket.run(name);
      this.statements.deleteBucketObjects.run(name);
      this.statements.deleteBucketUploads.run(name);
      this.statements.deleteBucketParts.run(name);
    });
  }

  putObject(bucket: string, o: StoredObject): void {
    const record = {
      key: o.key,
      segments: this.persistSegments(o.body),
      size: o.size,
      etag: o.etag,
      created: o.created.getTime(),
      lastModified: o.lastModified.getTime(),
      metadata: o.metadata,
      storageClass: o.storageClass,
      appendable: o.appendable,
    };
    const previous = this.namesOf(this.statements.objectNames, bucket, o.key);
    this.statements.putObject.run(bucket, o.key, JSON.stringify(record));
    this.count(record.segments.map(([name]) => name), 1);
    this.count(previous, -1);
  }

  deleteObject(bucket: string, key: string): void {
    const previous = this.namesOf(this.statements.objectNames, bucket, key);
    this.statements.deleteObject.run(bucket, key);
    this.count(previous, -1);
  }

  putUpload(info: UploadInfo): void {
    const record = { key: info.key, uploadId: info.uploadId, created: info.created.getTime(), metadata: info.metadata, storageClass: info.storageClass };
    this.statements.putUpload.run(info.bucket, info.uploadId, JSON.stringify(record));
  }

  putPart(bucket: string, uploadId: string, part: PartInfo): void {
    const record = { partNumber: part.partNumber, segments: this.persistSegments(part.body), size: part.size, etag: part.etag, created: part.created.getTime() };
    const previous = this.namesOf(this.statements.partNames, bucket, uploadId, part.partNumber);
    this.statements.putPart.run(bucket, uploadId, part.partNumber, JSON.stringify(record));
    this.count(record.segments.map(([name]) => name), 1);
    this.count(previous, -1);
  }

  deleteUpload(bucket: string, uploadId: string): void {
    this.atomically(() => {
      this.count(this.namesOf(this.statements.uploadPartNames, bucket, uploadId), -1);
      this.statements.deleteUpload.run(bucket, uploadId);
      this.statements.deleteUploadParts.run(bucket, uploadId);
    });
  }

  // ----------------------------------------------------------------------------------------------
  // restore

  /** True when the directory holds no bucket yet (a new data directory: seed it). */
  isEmpty(): boolean {
    return this.db.prepare('SELECT 1 AS one FROM buckets LIMIT 1').get() === undefined;
  }

  /** Loads every committed record into `store` (which must be empty). */
  restoreInto(store: Store): void {
    for (const row of rows(this.db.prepare('SELECT record FROM buckets ORDER BY name'))) {
      const b = bucketInfoOf(JSON.parse(row.record));
      store.restoreBucket(b);
      const objects: StoredObject[] = [];
      for (const objectRow of rows(this.db.prepare('SELECT record FROM objects WHERE bucket = ?'), b.name)) {
        const o = objectRecordSchema.parse(JSON.parse(objectRow.record));
        objects.push(storedObjectOf(o, makeBody(this.segmentsOf(o.segments))));
      }
      store.restoreObjects(b.name, objects);
      const partsOf = this.db.prepare('SELECT record FROM parts WHERE bucket = ? AND upload_id = ?');
      for (const uploadRow of rows(this.db.prepare('SELECT record FROM uploads WHERE bucket = ?'), b.name)) {
        const u = uploadRecordSchema.parse(JSON.parse(uploadRow.record));
        const parts: PartInfo[] = rows(partsOf, b.name, u.uploadId).map((partRow) => {
          const p = partRecordSchema.parse(JSON.parse(partRow.record));
          return { partNumber: p.partNumber, size: p.size, etag: p.etag, created: new Date(p.created), body: makeBody(this.segmentsOf(p.segments)) };
        });
        store.restoreUpload(
          { bucket: b.name, key: u.key, uploadId: u.uploadId, created: new Date(u.created), metadata: metadataOf(u.metadata), storageClass: u.storageClass },
          parts,
        );
      }
    }
  }
}
