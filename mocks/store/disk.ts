/**
 * On-disk persistence for the standalone emulator (`--data-dir DIR`), Node only.
 *
 *   DIR/records.sqlite   buckets (with ACL, CORS, policy, lifecycle), objects (with metadata), uploads and parts,
 *                        and small bodies (inline_bodies), in node:sqlite, WAL mode.
 *   DIR/bodies/<id>      body files above INLINE_MAX, written once and never changed (disk-sink.ts).
 *   DIR/tmp/             bodies still arriving. Emptied at start: an interrupted write leaves nothing.
 *   DIR/reserve          space kept back so that deleting still works on a full disk (disk-sync.ts).
 *
 * Durability, in groups (disk-group.ts). Each change is written at once, before the store changes its memory
 * (so the journal can still refuse it), in a savepoint; the changes made while one flush runs are committed
 * in one transaction when the next flush starts, and that flush is an fdatasync of the WAL. The request
 * handler awaits `durable()` before it answers: an acknowledged write survives SIGKILL and a power cut. A
 * group whose commit fails fails its requests and every later one with a QingStor error (see disk-group.ts).
 * A body file is fsynced before its record is written; the renames into DIR/bodies share one directory fsync.
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
import type { DatabaseSync } from 'node:sqlite';
import { isFileSegment } from './body.ts';
import { InlineBodies } from './disk-inline.ts';
import { lockDirectory, unlockDirectory } from './disk-lock.ts';
import { namesOf, openRecords, restoreRecords, type Statements } from './disk-records.ts';
import { BodyRefs } from './disk-refs.ts';
import { newDiskSink } from './disk-sink.ts';
import { GroupCommit } from './disk-group.ts';
import { DiskSpace, RESERVE_BYTES } from './disk-space.ts';
import { rethrowFull, SharedFlush, SpaceReserve } from './disk-sync.ts';
import type { Store } from './store.ts';
import type { BodySegment, BodySink, BucketInfo, FileSegment, ObjectBody, PartInfo, StoredObject, StoreJournal, UploadInfo } from './types.ts';

/** Bodies up to this size are kept in the database (and in memory), not in files. */
export const INLINE_MAX = 64 * 1024;
/** At most this many bytes of bodies are kept in the database; larger totals go to files. */
export const INLINE_BUDGET = 64 * 1024 * 1024;

export interface DiskOptions {
  releaseDelayMs?: number;
  /** Size of DIR/reserve; default RESERVE_BYTES. */
  reserveBytes?: number;
  /** Largest body kept in the database; default INLINE_MAX (0: every body is a file). */
  inlineMax?: number;
}

export class DiskPersistence implements StoreJournal {
  readonly dir: string;
  private readonly bodiesDir: string;
  private readonly tmpDir: string;
  private readonly db: DatabaseSync;
  private readonly statements: Statements;
  /** Nesting of `atomically`; `begun` once its savepoint has started (at its first change). */
  private depth = 0;
  private begun = false;
  private readonly group: GroupCommit;
  /** How many committed records point at each body; a body left with none is released (releaseLater). */
  private readonly refs = new BodyRefs((name) => this.releaseLater(name));
  private readonly releaseDelayMs: number;
  private readonly inlineMax: number;
  private readonly inline: InlineBodies;
  private readonly wal: SharedFlush;
  private walHandle: Promise<fs.promises.FileHandle> | undefined;
  private readonly bodiesSync: SharedFlush;
  private renames = 0;
  private readonly space: DiskSpace;

  private constructor(dir: string, options: DiskOptions) {
    this.releaseDelayMs = options.releaseDelayMs ?? 60_000;
    this.inlineMax = options.inlineMax ?? INLINE_MAX;
    this.dir = path.resolve(dir);
    this.bodiesDir = path.join(this.dir, 'bodies');
    this.tmpDir = path.join(this.dir, 'tmp');
    fs.mkdirSync(this.bodiesDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
    ({ db: this.db, statements: this.statements } = openRecords(this.dir));
    this.inline = new InlineBodies(this.statements, () => this.newName());
    this.space = new DiskSpace(this.dir, new SpaceReserve(path.join(this.dir, 'reserve'), options.reserveBytes ?? RESERVE_BYTES));
    this.group = new GroupCommit(this.db, this.space, {
      mark: () => {
        const refs = this.refs.mark();
        const inline = this.inline.mark();
        return () => {
          this.refs.rolledBackTo(refs);
          this.inline.rolledBackTo(inline);
        };
      },
      committed: (seq) => {
        this.inline.committed();
        this.refs.committed(seq);
      },
      rolledBack: () => {
        this.refs.rolledBack();
        this.inline.rolledBack();
      },
    });
    const walFile = path.join(this.dir, 'records.sqlite-wal');
    this.wal = new SharedFlush(
      async () => {
        // The group of changes made since the last flush started is committed first, then flushed.
        this.group.commit();
        const opening = (this.walHandle ??= fs.promises.open(walFile, 'r'));
        opening.catch(() => {
          if (this.walHandle === opening) this.walHandle = undefined;
        });
        await (await opening).datasync();
      },
      () => this.group.changes,
      { onFlushed: (seq) => this.refs.flushed(seq) },
    );
    this.bodiesSync = new SharedFlush(async () => {
      const handle = await fs.promises.open(this.bodiesDir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }, () => this.renames);
  }

  /** Opens (or creates) a data directory and removes what no committed record points at. */
  static open(dir: string, options: DiskOptions = {}): DiskPersistence {
    lockDirectory(path.resolve(dir));
    const disk = new DiskPersistence(dir, options);
    disk.sweep();
    disk.space.reserve.take();
    return disk;
  }

  close(): void {
    try {
      // Changes no flush has committed yet are kept if they can be; none was acknowledged (an answer waits for its flush).
      if (this.db.isOpen && !this.group.failed) this.group.commit();
    } finally {
      if (this.db.isOpen) this.db.close();
      void this.walHandle?.then((handle) => handle.close()).catch(() => undefined);
      unlockDirectory(this.dir);
    }
  }

  /**
   * Resolves once every change made so far is on the disk (one WAL flush shared by every change made while
   * the previous flush ran); rejects when that flush failed, or when memory and disk have come apart.
   */
  durable = (): Promise<void> => {
    if (this.group.failed) return Promise.reject(this.group.failed);
    return this.wal.after(this.group.changes);
  };

  // ----------------------------------------------------------------------------------------------
  // body files
  /** 32 hex digits: 24 random ones, new every 2^32 names, then counted (randomBytes per PUT cost 2 % of its CPU). */
  private named = { prefix: '', count: 0xffffffff };
  private newName(): string {
    if (++this.named.count > 0xffffffff) this.named = { prefix: randomBytes(12).toString('hex'), count: 0 };
    return `${this.named.prefix}${this.named.count.toString(16).padStart(8, '0')}`;
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
      inlineRoom: (size) => size <= this.inlineMax && this.inline.bytes + size <= INLINE_BUDGET,
      hasRoom: () => this.space.hasRoom(),
      syncBodies: () => {
        this.renames += 1;
        return this.bodiesSync.after(this.renames);
      },
      releaseLater: (name) => this.releaseLater(name),
      onFull: () => this.space.onFull(),
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
      out.push([this.inline.put(segment, (name) => this.refs.has(name)), 0, segment.byteLength]);
    }
    return out;
  }

  private segmentsOf(stored: ReadonlyArray<readonly [string, number, number]>): BodySegment[] {
    return stored.map(([name, offset, byteLength]) => {
      if (!name.startsWith('m')) return { file: path.join(this.bodiesDir, name), offset, byteLength };
      const bytes = this.inline.read(name);
      return offset === 0 && byteLength === bytes.byteLength ? bytes : bytes.subarray(offset, offset + byteLength);
    });
  }

  /** Empties tmp/ and removes bodies no committed record points at. */
  sweep(): { removed: number } {
    for (const name of fs.readdirSync(this.tmpDir)) fs.rmSync(path.join(this.tmpDir, name), { force: true, recursive: true });
    // Every segment name any record holds (SQLite's JSON functions: no record is parsed in JavaScript).
    const held: string[] = [];
    for (const table of ['objects', 'parts']) {
      held.push(...namesOf(this.db.prepare(`SELECT json_extract(seg.value, '$[0]') AS name FROM ${table}, json_each(${table}.record, '$.segments') AS seg`)));
    }
    const referenced = this.refs.reset(held);
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
  // journal

  /**
   * Runs `change` in one savepoint that begins at its first statement (`write`), so that the space check of
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
      if (this.begun) this.written();
    } catch (error) {
      if (this.begun) this.group.rollBack();
      throw error;
    } finally {
      this.depth -= 1;
      this.begun = false;
    }
  }

  /** A change of the journal is written: the next flush commits it (asked for here, in case nobody waits for it). */
  private written(): void {
    this.group.release();
    void this.wal.after(this.group.changes).catch(() => undefined);
  }

  /** One change of the journal: in the savepoint under way, or a savepoint of its own in the group's transaction. */
  private write(kind: 'adds' | 'frees', bytes: number, change: () => void): void {
    if (this.group.failed) throw this.group.failed;
    if (this.depth > 0 && this.begun) {
      change();
      return;
    }
    this.space.check(kind, bytes);
    this.group.begin();
    if (this.depth > 0) {
      // The savepoint of `atomically`; released when it ends.
      this.begun = true;
      change();
      return;
    }
    try {
      change();
    } catch (error) {
      this.group.rollBack();
      rethrowFull(error, () => this.space.onFull());
    }
    this.written();
  }

  /** Removes a body `releaseDelayMs` from now (at once while space is low) unless a record points at it by then. */
  private releaseLater(name: string): void {
    setTimeout(() => {
      if (this.refs.has(name) || !this.db.isOpen) return;
      if (name.startsWith('m')) {
        // Not written on a full disk: the next start removes it.
        if (this.inline.remove(name)) this.space.recover();
      } else {
        fs.rm(path.join(this.bodiesDir, name), { force: true }, () => this.space.recover());
      }
    }, this.space.releaseAtOnce() ? 0 : this.releaseDelayMs).unref();
  }

  putBucket(info: BucketInfo): void {
    const record = { ...info, created: info.created.getTime() };
    this.write('adds', 0, () => this.statements.putBucket.run(info.name, JSON.stringify(record)));
  }

  deleteBucket(name: string): void {
    this.write('frees', 0, () => {
      this.refs.count(namesOf(this.statements.bucketNames, name), -1);
      this.statements.deleteBucket.run(name);
      this.statements.deleteBucketObjects.run(name);
      this.statements.deleteBucketUploads.run(name);
      this.statements.deleteBucketParts.run(name);
    });
  }

  private memoryBytes(body: ObjectBody): number {
    let n = 0;
    for (const c of body.chunks) if (!isFileSegment(c) && !this.inline.has(c)) n += c.byteLength;
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
      const previous = namesOf(this.statements.objectNames, bucket, o.key);
      this.statements.putObject.run(bucket, o.key, JSON.stringify(record));
      this.refs.count(record.segments.map(([name]) => name), 1);
      this.refs.count(previous, -1);
    });
  }

  deleteObject(bucket: string, key: string): void {
    this.write('frees', 0, () => {
      const previous = namesOf(this.statements.objectNames, bucket, key);
      this.statements.deleteObject.run(bucket, key);
      this.refs.count(previous, -1);
    });
  }

  putUpload(info: UploadInfo): void {
    const record = { key: info.key, uploadId: info.uploadId, created: info.created.getTime(), metadata: info.metadata, storageClass: info.storageClass };
    this.write('adds', 0, () => this.statements.putUpload.run(info.bucket, info.uploadId, JSON.stringify(record)));
  }

  putPart(bucket: string, uploadId: string, part: PartInfo): void {
    this.write('adds', this.memoryBytes(part.body), () => {
      const record = { partNumber: part.partNumber, segments: this.persistSegments(part.body), size: part.size, etag: part.etag, created: part.created.getTime() };
      const previous = namesOf(this.statements.partNames, bucket, uploadId, part.partNumber);
      this.statements.putPart.run(bucket, uploadId, part.partNumber, JSON.stringify(record));
      this.refs.count(record.segments.map(([name]) => name), 1);
      this.refs.count(previous, -1);
    });
  }

  deleteUpload(bucket: string, uploadId: string): void {
    this.write('frees', 0, () => {
      this.refs.count(namesOf(this.statements.uploadPartNames, bucket, uploadId), -1);
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
    restoreRecords(this.db, store, (stored) => this.segmentsOf(stored));
  }
}
