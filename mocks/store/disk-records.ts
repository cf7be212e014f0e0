/**
 * The data directory's database (records.sqlite, see disk.ts): its tables, the statements the journal runs,
 * and the reading back of every committed record into a store at start.
 */
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { makeBody } from './body.ts';
import { bucketInfoOf, metadataOf, objectRecordSchema, partRecordSchema, storedObjectOf, uploadRecordSchema } from './record-schemas.ts';
import type { Store } from './store.ts';
import type { BodySegment, PartInfo, StoredObject } from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS buckets (name TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (bucket TEXT NOT NULL, key TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, key));
CREATE TABLE IF NOT EXISTS uploads (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (bucket, upload_id));
CREATE TABLE IF NOT EXISTS inline_bodies (name TEXT PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS parts (bucket TEXT NOT NULL, upload_id TEXT NOT NULL, part_number INTEGER NOT NULL, record TEXT NOT NULL,
  PRIMARY KEY (bucket, upload_id, part_number));
`;

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

export type Statements = Record<StatementName, StatementSync>;

/** Opens (or creates) DIR/records.sqlite in WAL mode and prepares the journal's statements. */
export function openRecords(dir: string): { db: DatabaseSync; statements: Statements } {
  const db = new DatabaseSync(path.join(dir, 'records.sqlite'));
  // NORMAL: a commit writes the WAL without an fsync; durable() flushes the WAL for a whole group of commits.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;');
  db.exec(SCHEMA);
  const p = (sql: string) => db.prepare(sql);
  const segmentNames = (table: string, where: string) => `SELECT json_extract(seg.value, '$[0]') AS name FROM ${table}, json_each(${table}.record, '$.segments') AS seg WHERE ${where}`;
  const statements: Statements = {
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
  return { db, statements };
}

/** Names (body files or inline bodies) a statement's rows hold. */
export function namesOf(statement: StatementSync, ...params: Array<string | number>): string[] {
  const out: string[] = [];
  for (const row of statement.all(...params)) if (typeof row.name === 'string') out.push(row.name);
  return out;
}

/**
 * Loads every committed record into `store` (which must be empty); `segmentsOf` turns a record's stored
 * segments back into body segments (files, or inline bodies read from the database).
 */
export function restoreRecords(db: DatabaseSync, store: Store, segmentsOf: (stored: ReadonlyArray<readonly [string, number, number]>) => BodySegment[]): void {
  for (const row of rows(db.prepare('SELECT record FROM buckets ORDER BY name'))) {
    const b = bucketInfoOf(JSON.parse(row.record));
    store.restoreBucket(b);
    const objects: StoredObject[] = [];
    for (const objectRow of rows(db.prepare('SELECT record FROM objects WHERE bucket = ?'), b.name)) {
      const o = objectRecordSchema.parse(JSON.parse(objectRow.record));
      objects.push(storedObjectOf(o, makeBody(segmentsOf(o.segments))));
    }
    store.restoreObjects(b.name, objects);
    const partsOf = db.prepare('SELECT record FROM parts WHERE bucket = ? AND upload_id = ?');
    for (const uploadRow of rows(db.prepare('SELECT record FROM uploads WHERE bucket = ?'), b.name)) {
      const u = uploadRecordSchema.parse(JSON.parse(uploadRow.record));
      const parts: PartInfo[] = rows(partsOf, b.name, u.uploadId).map((partRow) => {
        const p = partRecordSchema.parse(JSON.parse(partRow.record));
        return { partNumber: p.partNumber, size: p.size, etag: p.etag, created: new Date(p.created), body: makeBody(segmentsOf(p.segments)) };
      });
      store.restoreUpload(
        { bucket: b.name, key: u.key, uploadId: u.uploadId, created: new Date(u.created), metadata: metadataOf(u.metadata), storageClass: u.storageClass },
        parts,
      );
    }
  }
}
