/**
 * The demo's IndexedDB records (store/idb.ts): the database schema, how a row is validated, and the restore
 * that turns what was read at open into the store's state, leaving out (and listing) what does not validate.
 *
 * Bodies are kept in the `blocks` store, one record per piece of at most BLOCK_MAX bytes, and rows refer to
 * them by id (`blocks: string[]`): no single value grows with the object (Chromium refuses a value above
 * about 127 MiB, so a 150 MB object in one row could not be saved), and a Complete or a copy refers to the
 * blocks its parts or source already wrote instead of writing every byte again. Rows of version 1 kept their
 * bytes inline (`chunks`); they are still read.
 */
import type { DBSchema, IDBPTransaction, StoreNames } from 'idb';
import { z } from 'zod';
import { makeBody } from './body.ts';
import { bucketInfoOf, metadataOf, objectRecordSchema, partRecordSchema, storedObjectOf, uploadRecordSchema } from './record-schemas.ts';
import type { Store } from './store.ts';
import type { BucketInfo, LazyObjectSource, PartInfo, StoredObject } from './types.ts';

export interface DemoDb extends DBSchema {
  buckets: { key: string; value: unknown };
  objects: { key: [string, string]; value: unknown };
  uploads: { key: [string, string]; value: unknown };
  parts: { key: [string, string, number]; value: unknown };
  lazy: { key: string; value: unknown };
  meta: { key: string; value: unknown };
  blocks: { key: string; value: unknown };
}

export const STORES = ['buckets', 'objects', 'uploads', 'parts', 'lazy', 'meta', 'blocks'] as const satisfies readonly StoreNames<DemoDb>[];
export type WriteTx = IDBPTransaction<DemoDb, typeof STORES, 'readwrite'>;
/** One queued change: applied to a readwrite transaction over every store. */
export type Op = (tx: WriteTx) => void;

/** Largest body block record. */
export const BLOCK_MAX = 16 * 1024 * 1024;

const bodyFields = { chunks: z.array(z.instanceof(Uint8Array)).optional(), blocks: z.array(z.string()).optional() };
const objectRowSchema = objectRecordSchema.omit({ segments: true }).extend({ bucket: z.string(), ...bodyFields });
const tombstoneSchema = z.object({ bucket: z.string(), key: z.string(), deleted: z.literal(true) });
const uploadRowSchema = uploadRecordSchema.extend({ bucket: z.string() });
const partRowSchema = partRecordSchema.omit({ segments: true }).extend({ bucket: z.string(), uploadId: z.string(), ...bodyFields });
const lazyRowSchema = z.object({ bucket: z.string(), source: z.string() });
const blockRowSchema = z.object({ id: z.string(), bytes: z.instanceof(Uint8Array) });

/** A record the restore left out because it did not validate (kind, bucket/key as far as readable, why). */
export interface DamagedRecord {
  kind: 'bucket' | 'object' | 'upload' | 'part' | 'lazy';
  name: string;
  reason: string;
}

export interface Snapshot {
  seeded: boolean;
  buckets: unknown[];
  objects: unknown[];
  uploads: unknown[];
  parts: unknown[];
  lazy: unknown[];
  blocks: unknown[];
}

export interface Restored {
  damaged: DamagedRecord[];
  /** Deletes the damaged records and the blocks no row refers to. */
  cleanup: Op[];
  /** Each restored block and its id, so that writing the same bytes again refers to it. */
  blocks: Map<string, Uint8Array>;
}

function sizeOf(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  return n;
}

const reasonOf = (error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string =>
  error.issues.map((i) => `${i.path.map(String).join('.') || 'record'}: ${i.message}`).join('; ');

/**
 * Loads a snapshot into `store` (which must be empty). A record that does not validate (an older format, a
 * damaged database, an edit by hand) is left out, and only it; every other bucket, object and upload is
 * loaded.
 */
export function restoreSnapshot(store: Store, snapshot: Snapshot, lazySource: (id: string) => LazyObjectSource | undefined): Restored {
  const damaged: DamagedRecord[] = [];
  const cleanup: Op[] = [];
  const blocks = new Map<string, Uint8Array>();
  for (const raw of snapshot.blocks) {
    const parsed = blockRowSchema.safeParse(raw);
    if (parsed.success) blocks.set(parsed.data.id, parsed.data.bytes);
  }
  const used = new Set<string>();

  const leaveOut = (kind: DamagedRecord['kind'], raw: unknown, reason: string): void => {
    const field = (name: string): string => (typeof raw === 'object' && raw !== null && name in raw ? String((raw as Record<string, unknown>)[name]) : '');
    const bucket = field(kind === 'bucket' ? 'name' : 'bucket');
    const id = kind === 'upload' || kind === 'part' ? field('uploadId') : field('key');
    const name = kind === 'bucket' || kind === 'lazy' ? bucket : `${bucket}/${id}${kind === 'part' ? ` #${field('partNumber')}` : ''}`;
    damaged.push({ kind, name, reason });
    if (bucket === '') return;
    const remove: Op =
      kind === 'bucket' ? (tx) => void tx.objectStore('buckets').delete(bucket)
      : kind === 'lazy' ? (tx) => void tx.objectStore('lazy').delete(bucket)
      : kind === 'object' ? (tx) => void tx.objectStore('objects').delete([bucket, id])
      : kind === 'upload' ? (tx) => void tx.objectStore('uploads').delete([bucket, id])
      : (tx) => void tx.objectStore('parts').delete([bucket, id, Number(field('partNumber'))]);
    // A key that is itself damaged cannot be deleted by key: it is left, and left out again next time.
    cleanup.push((tx) => {
      try {
        remove(tx);
      } catch {
        // DataError: not a valid key
      }
    });
  };

  /** A row's body: its inline chunks (version 1) or its blocks; a reason when it cannot be had. */
  const bodyOf = (row: { size: number; chunks?: Uint8Array[] | undefined; blocks?: string[] | undefined }): Uint8Array[] | string => {
    let chunks = row.chunks;
    if (row.blocks !== undefined) {
      chunks = [];
      for (const id of row.blocks) {
        const bytes = blocks.get(id);
        if (bytes === undefined) return `block ${id} is missing`;
        chunks.push(bytes);
      }
    }
    if (chunks === undefined) return 'no body';
    if (sizeOf(chunks) !== row.size) return `size ${row.size} but ${sizeOf(chunks)} bytes`;
    for (const id of row.blocks ?? []) used.add(id);
    return chunks;
  };

  const objectsOf = new Map<string, StoredObject[]>();
  const removedOf = new Map<string, string[]>();
  for (const raw of snapshot.objects) {
    const gone = tombstoneSchema.safeParse(raw);
    if (gone.success) {
      removedOf.set(gone.data.bucket, [...(removedOf.get(gone.data.bucket) ?? []), gone.data.key]);
      continue;
    }
    const parsed = objectRowSchema.safeParse(raw);
    const body = parsed.success ? bodyOf(parsed.data) : reasonOf(parsed.error);
    if (!parsed.success || typeof body === 'string') {
      leaveOut('object', raw, typeof body === 'string' ? body : 'no body');
      continue;
    }
    const o = parsed.data;
    const list = objectsOf.get(o.bucket) ?? [];
    list.push(storedObjectOf(o, makeBody(body)));
    objectsOf.set(o.bucket, list);
  }
  const partsOf = new Map<string, PartInfo[]>();
  for (const raw of snapshot.parts) {
    const parsed = partRowSchema.safeParse(raw);
    const body = parsed.success ? bodyOf(parsed.data) : reasonOf(parsed.error);
    if (!parsed.success || typeof body === 'string') {
      leaveOut('part', raw, typeof body === 'string' ? body : 'no body');
      continue;
    }
    const p = parsed.data;
    const id = `${p.bucket}/${p.uploadId}`;
    const list = partsOf.get(id) ?? [];
    list.push({ partNumber: p.partNumber, size: p.size, etag: p.etag, created: new Date(p.created), body: makeBody(body) });
    partsOf.set(id, list);
  }
  const sourceOf = new Map<string, string>();
  for (const raw of snapshot.lazy) {
    const parsed = lazyRowSchema.safeParse(raw);
    if (parsed.success) sourceOf.set(parsed.data.bucket, parsed.data.source);
    else leaveOut('lazy', raw, reasonOf(parsed.error));
  }
  for (const raw of snapshot.buckets) {
    let b: BucketInfo;
    try {
      b = bucketInfoOf(raw);
    } catch (error) {
      leaveOut('bucket', raw, error instanceof z.ZodError ? reasonOf(error) : String(error));
      continue;
    }
    store.restoreBucket(b);
    const sourceId = sourceOf.get(b.name);
    const source = sourceId === undefined ? undefined : lazySource(sourceId);
    if (source) {
      // journal muted: lazyObjects() only notes the bucket, the generator builds pages on demand again
      store.bulkLoadLazy(b.name, source);
      store.restoreObjectChanges(b.name, objectsOf.get(b.name) ?? [], removedOf.get(b.name) ?? []);
    } else {
      store.restoreObjects(b.name, objectsOf.get(b.name) ?? []);
    }
  }
  for (const raw of snapshot.uploads) {
    const parsed = uploadRowSchema.safeParse(raw);
    if (!parsed.success) {
      leaveOut('upload', raw, reasonOf(parsed.error));
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
  // Blocks no row refers to (a deleted object, an overwritten part, an aborted upload): removed now.
  for (const id of blocks.keys()) {
    if (used.has(id)) continue;
    blocks.delete(id);
    cleanup.push((tx) => void tx.objectStore('blocks').delete(id));
  }
  return { damaged, cleanup, blocks };
}
