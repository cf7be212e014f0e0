/**
 * On-disk persistence for the standalone emulator (`--data-dir DIR`), Node only.
 *
 *   DIR/records.sqlite   buckets (with ACL, CORS, policy, lifecycle), objects (with metadata), uploads and parts,
 *                        and small bodies (inline_bodies), in node:sqlite, WAL mode.
 *   DIR/bodies/<id>      body files above INLINE_MAX, written once and never changed (disk-sink.ts).
 *   DIR/tmp/             bodies still arriving. Emptied at start: an interrupted write leaves nothing.
 *   DIR/reserve          space kept back so that deleting still works on a full disk (disk-sync.ts).
 *
 * Durability, in groups. Each change the store makes is committed at once, synchronously, before the store
 * changes its memory (so the journal can still refuse it), but without an fsync (synchronous = NORMAL): the
 * change is in the WAL file, which survives a killed process. `durable()` then waits for an fdatasync of the
 * WAL that started after the change; while one runs, every change made meanwhile waits for the next one, so
 * concurrent requests share one flush instead of each waiting for its own. The request handler awaits
 * `durable()` before it answers (handlers option `durable`): an acknowledged write survives SIGKILL and a
 * power cut. A body file is fsynced before its record is committed, and the renames into DIR/bodies share
 * one fsync of the directory the same way.
 *
 * Records hold byte ranges of body files, so Complete, copies and part copies share files instead of
 * copying bytes. The bodies each record points at are counted: one no durable record points at any more
 * (a deleted or replaced object, an aborted upload, a refused write) is removed `releaseDelayMs` after that
 * (default 60 s, so a download that has just started can still open it; at once while space is low), and
 * whatever is left over by a crash is removed at the next start.
 *
 * A full disk. A write that finds less than LOW_SPACE free is refused before anything changes, with a
 * QingStor error (503 service_unavailable, see disk-sync.ts); a body file that cannot be written is removed
 * and refused the same way. A delete gives the reserve back first if space is low, so it can always be
 * written, and frees its bodies at once; the reserve is made again once there is room.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { isFileSegment, makeBody } from './body.ts';
import { lockDirectory, unlockDirectory } from './disk-lock.ts';
import { newDiskSink } from './disk-sink.ts';
import { isOutOfSpace, outOfSpaceError, SharedFlush, SpaceReserve } from './disk-sync.ts';
import { bucketInfoOf, metadataOf, objectRecordSchema, partRecordSchema, storedObjectOf, uploadRecordSchema } from './record-schemas.ts';
import type { Store } from './store.ts';
import type { BodySegment, BodySink, BucketInfo, FileSegment, ObjectBody, PartInfo, StoredObject, StoreJournal, UploadInfo } from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS buckets (name TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (bucket TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, key));
CREATE TABLE IF NOT EXISTS uploads (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, upload_id));
CREATE TABLE IF NOT EXISTS inline_bodies (name TEXT PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS parts (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, part_number INTEGER NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (bucket, upload_id, part_number));
`;

/** Bodies up to this size are kept in the database (and in memory), not in files. */
export const INLINE_MAX = 64 * 1024;
/** At most this many bytes of bodies are kept in the database; larger totals go to files. */
export const INLINE_BUDGET = 64 * 1024 * 1024;
/** Space given back on a full disk so that deletes can be written. */
export const RESERVE_BYTES = 4 * 1024 * 1024;
/** A write that would leave less than this free (plus twice its inline bytes) is refused before it starts. */
const LOW_SPACE = 1024 * 1024;
/** With less than this free, bodies nothing points at are removed at once instead of after releaseDelayMs. */
const LOW_SPACE_RELEASE = 4 * LOW_SPACE + RESERVE_BYTES;

export interface DiskOptions {
  releaseDelayMs?: number;
  /** Size of DIR/reserve; default RESERVE_BYTES. */
  reserveBytes?: number;
  /** Largest body kept in the database; default INLINE_MAX (0: every body is a file). */
  inlineMax?: number;
}

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

type StatementName =
  | 'objectNames' | 'partNames' | 'uploadPartNames' | 'bucketNames' | 'deleteInline' | 'putInline' | 'getInline' | 'putBucket' | 'deleteBucket'
  | 'deleteBucketObjects' | 'deleteBucketUploads' | 'deleteBucketParts' | 'putObject' | 'deleteObject' | 'putUpload' | 'deleteUpload' | 'deleteUploadParts' | 'putPart';

export class DiskPersistence implements StoreJournal {
  readonly dir: string;
  private readonly bodiesDir: string;
  private readonly tmpDir: string;
  private readonly db: DatabaseSync;
  private readonly statements: Record<StatementName, StatementSync>;
  /** Nesting of `atomically`; `begun` once its transaction has started (at its first change). */
  private depth = 0;
  private begun = false;
  /** How many committed records point at each body name. */
  private readonly refs = new Map<string, number>();
  /** Reference changes of the transaction in progress, applied when it commits. */
  private deltas: Array<readonly [string, number]> = [];
  /** Bodies that lost a reference in commit `seq`: released once that commit is flushed. */
  private dropped: Array<readonly [number, string]> = [];
  private readonly releaseDelayMs: number;
  private readonly inlineMax: number;
  /** Memory chunks already stored inline (seed bodies shared by many objects are stored once). */
  private readonly inlined = new WeakMap<Uint8Array, string>();
  /** Inline bodies written by the transaction under way (forgotten again if it rolls back). */
  private fresh = new Map<string, Uint8Array>();
  /** Inline bodies loaded back, by name. */
  private readonly inlineCache = new Map<string, Uint8Array>();
  /** Bytes of bodies held in the database. */
  private inlineBytes = 0;
  /** Commits made so far; the WAL flush covers them up to its `flushed`. */
  private commits = 0;
  private readonly wal: SharedFlush;
  private walHandle: Promise<fs.promises.FileHandle> | undefined;
  private readonly bodiesSync: SharedFlush;
  private renames = 0;
  private readonly reserve: SpaceReserve;
  /** Set while the disk is (nearly) full: bodies are released at once. */
  private full = false;
  /** Set when a group's commit failed after it changed memory: memory and disk differ until a restart. */
  private broken: Error | undefined;

  private constructor(dir: string, options: DiskOptions) {
    this.releaseDelayMs = options.releaseDelayMs ?? 60_000;
    this.inlineMax = options.inlineMax ?? INLINE_MAX;
    this.dir = path.resolve(dir);
    this.bodiesDir = path.join(this.dir, 'bodies');
    this.tmpDir = path.join(this.dir, 'tmp');
    fs.mkdirSync(this.bodiesDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.db = new DatabaseSync(path.join(this.dir, 'records.sqlite'));
    // NORMAL: a commit writes the WAL without an fsync; durable() flushes the WAL for a whole group of commits.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;');
    this.db.exec(SCHEMA);
    const p = (sql: string) => this.db.prepare(sql);
    const segmentNames = (table: string, where: string) => `SELECT json_extract(seg.value, '$[0]') AS name FROM ${table}, json_each(${table}.record, '$.segments') AS seg WHERE ${where}`;
    this.statements = {
      putInline: p('INSERT OR REPLACE INTO inline_bodies (name, bytes) VALUES (?, ?)'),
      deleteInline: p('DELETE FROM inline_bodies WHERE name = ?'),
      objectNames: p(segmentNames('objects', 'objects.bucket = ? AND objects.key = ?')),
      partNames: p(segmentNames('parts', 'parts.bucket = ? AND parts.upload_id = ? AND parts.part_number = ?')),
      uploadPartNames: p(segmentNames('parts', 'parts.bucket = ? AND parts.upload_id = ?')),
      bucketNames: p(`${segmentNames('objects', 'objects.bucket = ?1')} UNION ALL ${segmentNames('parts', 'parts.bucket = ?1')}`),
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
    const walFile = path.join(this.dir, 'records.sqlite-wal');
    this.wal = new SharedFlush(
      async () => {
        const opening = (this.walHandle ??= fs.promises.open(walFile, 'r'));
        opening.catch(() => {
          if (this.walHandle === opening) this.walHandle = undefined;
        });
        await (await opening).datasync();
      },
      () => this.commits,
      { onFlushed: (seq) => this.releaseFlushed(seq) },
    );
    this.bodiesSync = new SharedFlush(async () => {
      const handle = await fs.promises.open(this.bodiesDir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }, () => this.renames);
    this.reserve = new SpaceReserve(path.join(this.dir, 'reserve'), options.reserveBytes ?? RESERVE_BYTES);
  }

  /** Opens (or creates) a data directory and removes what no committed record points at. */
  static open(dir: string, options: DiskOptions = {}): DiskPersistence {
    lockDirectory(path.resolve(dir));
    const disk = new DiskPersistence(dir, options);
    disk.sweep();
    disk.reserve.take();
    return disk;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
    void this.walHandle?.then((handle) => handle.close()).catch(() => undefined);
    unlockDirectory(this.dir);
  }

  /**
   * Resolves once every change made so far is on the disk (one WAL flush shared by every change made while
   * the previous flush ran); rejects when that flush failed, or when memory and disk have come apart.
   */
  durable = (): Promise<void> => {
    if (this.broken) return Promise.reject(this.broken);
    return this.wal.after(this.commits);
  };

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

  /** A sink for one request body: kept for the database when small, else a body file (disk-sink.ts). */
  newSink(): BodySink {
    return newDiskSink({
      tmpDir: this.tmpDir,
      bodiesDir: this.bodiesDir,
      newName: () => this.newName(),
      inlineMax: this.inlineMax,
      inlineRoom: (size) => size <= this.inlineMax && this.inlineBytes + size <= INLINE_BUDGET,
      hasRoom: () => {
        if (this.freeBytes() >= LOW_SPACE) return true;
        this.onFull();
        return false;
      },
      syncBodies: () => {
        this.renames += 1;
        return this.bodiesSync.after(this.renames);
      },
      releaseLater: (name) => this.releaseLater(name),
      onFull: () => this.onFull(),
    });
  }

  /**
   * Body segments as stored. Memory chunks (small bodies, seed data) go into the database itself, committed
   * with the record: no file and no fsync per chunk (seeding the demo writes thousands of them).
   */
  private persistSegments(body: ObjectBody): Array<[string, number, number]> {
    const out: Array<[string, number, number]> = [];
    for (const segment of body.chunks) {
      if (isFileSegment(segment)) {
        out.push([this.fileName(segment), segment.offset, segment.byteLength]);
        continue;
      }
      let name = this.inlined.get(segment);
      if (name === undefined || !(this.refs.has(name) || this.fresh.has(name))) {
        name = `m${this.newName()}`;
        this.statements.putInline.run(name, segment);
        this.inlined.set(segment, name);
        this.inlineCache.set(name, segment);
        this.inlineBytes += segment.byteLength;
        this.fresh.set(name, segment);
      }
      out.push([name, 0, segment.byteLength]);
    }
    return out;
  }

  private inlineBytesOf(name: string): Uint8Array {
    let bytes = this.inlineCache.get(name);
    if (bytes === undefined) {
      const row = this.statements.getInline.get(name);
      const value = row?.bytes;
      if (!(value instanceof Uint8Array)) throw new Error(`inline body ${name} is missing`);
      bytes = value;
      this.inlineCache.set(name, bytes);
      // The same array written again (a copy, an append, a Complete of a restored part) keeps its row.
      this.inlined.set(bytes, name);
      this.inlineBytes += bytes.byteLength;
    }
    return bytes;
  }

  private segmentsOf(stored: ReadonlyArray<readonly [string, number, number]>): BodySegment[] {
    return stored.map(([name, offset, byteLength]) => {
      if (!name.startsWith('m')) return { file: path.join(this.bodiesDir, name), offset, byteLength };
      const bytes = this.inlineBytesOf(name);
      return offset === 0 && byteLength === bytes.byteLength ? bytes : bytes.subarray(offset, offset + byteLength);
    });
  }

  /** Empties tmp/ and removes bodies no committed record points at. */
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
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const name of referenced) if (name.startsWith('m')) live.run(name);
      this.db.exec('DELETE FROM inline_bodies WHERE name NOT IN (SELECT name FROM live)');
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    let removed = 0;
    for (const name of fs.readdirSync(this.bodiesDir)) {
      if (referenced.has(name)) continue;
      fs.rmSync(path.join(this.bodiesDir, name), { force: true });
      removed += 1;
    }
    return { removed };
  }

  // ----------------------------------------------------------------------------------------------
  // space

  private onFull(): void {
    this.full = true;
  }

  private freeBytes(): number {
    const stats = fs.statfsSync(this.dir);
    return stats.bavail * stats.bsize;
  }

  /**
   * Before a transaction starts: a change that adds data is refused while the disk is nearly full; one that
   * frees data gets the reserve back first if it needs it.
   */
  private checkSpace(kind: 'adds' | 'frees', bytes: number): void {
    const free = this.freeBytes();
    if (free >= LOW_SPACE + 2 * bytes) {
      if (this.full) this.recover(free);
      return;
    }
    this.onFull();
    if (kind === 'frees') {
      this.reserve.release();
      return;
    }
    throw outOfSpaceError(new Error('less than 1 MiB left on the disk'));
  }

  /** After bodies were removed on a full disk: takes the reserve again once there is room for it and more. */
  private recover(free = this.freeBytes()): void {
    if (!this.full || free < 2 * LOW_SPACE + RESERVE_BYTES) return;
    if (this.reserve.take()) this.full = false;
  }

  // ----------------------------------------------------------------------------------------------
  // journal

  /**
   * Runs `change` in a transaction that begins at its first statement (`write`), so that the space check of
   * that statement comes before anything of the group changed memory.
   */
  atomically(change: () => void): void {
    if (this.depth > 0) {
      change();
      return;
    }
    this.depth += 1;
    try {
      change();
      if (this.begun) this.commit(true);
    } catch (error) {
      if (this.begun) this.rollback();
      throw error;
    } finally {
      this.depth -= 1;
      this.begun = false;
    }
  }

  /** One change of the journal: in the group under way, or a transaction of its own. */
  private write(kind: 'adds' | 'frees', bytes: number, change: () => void): void {
    if (this.depth > 0 && this.begun) {
      change();
      return;
    }
    this.checkSpace(kind, bytes);
    this.db.exec('BEGIN IMMEDIATE');
    if (this.depth > 0) {
      // The group's transaction; it commits when the group ends.
      this.begun = true;
      change();
      return;
    }
    try {
      change();
      this.commit(false);
    } catch (error) {
      this.rollback();
      if (isOutOfSpace(error)) {
        this.onFull();
        throw outOfSpaceError(error);
      }
      throw error;
    }
  }

  private commit(group: boolean): void {
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      // A full disk at COMMIT (another process filled it since the check): give the reserve back and retry once.
      if (!(isOutOfSpace(error) && this.db.isTransaction && this.reserve.release())) {
        if (group) this.broken = new Error(`the data directory could not be written (${error instanceof Error ? error.message : String(error)}); restart the emulator`);
        throw isOutOfSpace(error) ? outOfSpaceError(error) : error;
      }
      this.onFull();
      this.db.exec('COMMIT');
    }
    this.commits += 1;
    this.fresh.clear();
    this.applyDeltas();
  }

  private rollback(): void {
    if (this.db.isTransaction) this.db.exec('ROLLBACK');
    this.deltas = [];
    for (const [name, segment] of this.fresh) {
      this.inlined.delete(segment);
      this.inlineCache.delete(name);
      this.inlineBytes -= segment.byteLength;
    }
    this.fresh.clear();
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
  }

  /** A gained reference counts at once; a lost one only once its commit is flushed (disk and memory agree). */
  private applyDeltas(): void {
    const deltas = this.deltas;
    this.deltas = [];
    for (const [name, delta] of deltas) {
      if (delta > 0) this.refs.set(name, (this.refs.get(name) ?? 0) + 1);
      else this.dropped.push([this.commits, name]);
    }
    // Bodies wait for the flush of the commit that dropped them; nobody may be waiting for it (a lifecycle
    // sweep between requests), so ask for it.
    if (this.dropped.length > 0) void this.wal.after(this.commits).catch(() => undefined);
  }

  private releaseFlushed(seq: number): void {
    const keep: Array<readonly [number, string]> = [];
    for (const entry of this.dropped) {
      const [at, name] = entry;
      if (at > seq) {
        keep.push(entry);
        continue;
      }
      const n = (this.refs.get(name) ?? 0) - 1;
      if (n > 0) this.refs.set(name, n);
      else {
        this.refs.delete(name);
        this.releaseLater(name);
      }
    }
    this.dropped = keep;
  }

  /** Removes a body `releaseDelayMs` from now (at once while space is low) unless a record points at it by then. */
  private releaseLater(name: string): void {
    setTimeout(() => {
      if (this.refs.has(name) || !this.db.isOpen) return;
      if (name.startsWith('m')) {
        const bytes = this.inlineCache.get(name);
        try {
          this.statements.deleteInline.run(name);
        } catch {
          // a full disk: the next start removes it
          return;
        }
        this.inlineCache.delete(name);
        if (bytes) this.inlineBytes -= bytes.byteLength;
        this.recover();
      } else {
        fs.rm(path.join(this.bodiesDir, name), { force: true }, () => this.recover());
      }
    }, this.full || this.freeBytes() < LOW_SPACE_RELEASE ? 0 : this.releaseDelayMs).unref();
  }

  putBucket(info: BucketInfo): void {
    const record = { ...info, created: info.created.getTime() };
    this.write('adds', 0, () => this.statements.putBucket.run(info.name, JSON.stringify(record)));
  }

  deleteBucket(name: string): void {
    this.write('frees', 0, () => {
      this.count(this.namesOf(this.statements.bucketNames, name), -1);
      this.statements.deleteBucket.run(name);
      this.statements.deleteBucketObjects.run(name);
      this.statements.deleteBucketUploads.run(name);
      this.statements.deleteBucketParts.run(name);
    });
  }

  private memoryBytes(body: ObjectBody): number {
    let n = 0;
    for (const c of body.chunks) if (!isFileSegment(c) && this.inlined.get(c) === undefined) n += c.byteLength;
    return n;
  }

  putObject(bucket: string, o: StoredObject): void {
    this.write('adds', this.memoryBytes(o.body), () => {
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
    });
  }

  deleteObject(bucket: string, key: string): void {
    this.write('frees', 0, () => {
      const previous = this.namesOf(this.statements.objectNames, bucket, key);
      this.statements.deleteObject.run(bucket, key);
      this.count(previous, -1);
    });
  }

  putUpload(info: UploadInfo): void {
    const record = { key: info.key, uploadId: info.uploadId, created: info.created.getTime(), metadata: info.metadata, storageClass: info.storageClass };
    this.write('adds', 0, () => this.statements.putUpload.run(info.bucket, info.uploadId, JSON.stringify(record)));
  }

  putPart(bucket: string, uploadId: string, part: PartInfo): void {
    this.write('adds', this.memoryBytes(part.body), () => {
      const record = { partNumber: part.partNumber, segments: this.persistSegments(part.body), size: part.size, etag: part.etag, created: part.created.getTime() };
      const previous = this.namesOf(this.statements.partNames, bucket, uploadId, part.partNumber);
      this.statements.putPart.run(bucket, uploadId, part.partNumber, JSON.stringify(record));
      this.count(record.segments.map(([name]) => name), 1);
      this.count(previous, -1);
    });
  }

  deleteUpload(bucket: string, uploadId: string): void {
    this.write('frees', 0, () => {
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
