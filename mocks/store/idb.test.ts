/**
 * The browser demo's IndexedDB persistence (fake-indexeddb in Node): what the emulator answered survives a
 * reopen of the database, the generated bucket is not written, a refused change writes nothing, and a
 * reset leaves a database that is seeded again.
 */
// oxlint-disable-next-line import/no-unassigned-import -- installs indexedDB and IDBKeyRange as globals, like a browser
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { encodeKeyPath, send, testEmulator, TEST_USERS } from '../handlers/test-utils.ts';
import { DEMO_ARCHIVE_OBJECTS, DEMO_BUCKETS, DEMO_TINY_PARTS, lazySourceById } from '../seed.ts';
import { IdbPersistence } from './idb.ts';
import type { AclGrant } from './types.ts';

let databases = 0;
function newName(): string {
  databases += 1;
  return `idb-test-${databases}`;
}

async function start(name: string): Promise<{ emulator: Emulator; persistence: IdbPersistence }> {
  const persistence = await IdbPersistence.open({ name, lazySource: lazySourceById });
  const emulator = await testEmulator({ seed: 'demo', users: TEST_USERS, minPartSize: 16, persistence });
  return { emulator, persistence };
}

/** A reload: the first page's connection goes away, a new emulator starts from the same database. */
async function reload(name: string, previous: IdbPersistence): Promise<{ emulator: Emulator; persistence: IdbPersistence }> {
  previous.close();
  return start(name);
}

/** Rows of one object store, read through a connection of its own (what another page would see). */
async function rowsOf(name: string, store: 'objects' | 'buckets' | 'uploads' | 'parts' | 'meta' | 'blocks'): Promise<unknown[]> {
  const db = await openDB(name);
  try {
    return await db.getAll(store);
  } finally {
    db.close();
  }
}

function keyOf(row: unknown): string {
  return typeof row === 'object' && row !== null && 'key' in row && typeof row.key === 'string' ? row.key : '';
}

const photo = 'photos/2024/06/beach.jpg';

describe('IndexedDB persistence of the browser demo', () => {
  it('keeps objects with metadata, deletes, new buckets, bucket settings and uploads across a reload', async () => {
    const name = newName();
    const first = await start(name);
    const em = first.emulator;
    const put = await send(em, 'PUT', `/${DEMO_BUCKETS.photos}/notes/hello.txt`, {
      body: new TextEncoder().encode('hello, kept'),
      headers: { 'content-type': 'text/plain', 'x-qs-meta-reviewer': 'Ada' },
    });
    expect(put.status).toBe(201);
    expect((await send(em, 'DELETE', `/${DEMO_BUCKETS.photos}/${encodeKeyPath(photo)}`)).status).toBe(204);
    expect((await send(em, 'PUT', '/fresh-bucket')).status).toBe(201);
    const cors = JSON.stringify({ cors_rules: [{ allowed_origin: 'https://app.example', allowed_methods: ['GET'] }] });
    expect((await send(em, 'PUT', '/fresh-bucket?cors', { body: cors })).status).toBe(200);
    const initiated = await send(em, 'POST', '/fresh-bucket/big.bin?uploads');
    expect(initiated.status).toBe(200);
    const { upload_id: uploadId } = uploadIdOf(await initiated.json());
    expect((await send(em, 'PUT', `/fresh-bucket/big.bin?part_number=3&upload_id=${uploadId}`, { body: new Uint8Array(20).fill(7) })).status).toBe(201);

    const second = await reload(name, first.persistence);
    const store = second.emulator.store;
    const kept = store.getObject(DEMO_BUCKETS.photos, 'notes/hello.txt');
    expect(new TextDecoder().decode(kept.body.chunks[0] instanceof Uint8Array ? kept.body.chunks[0] : new Uint8Array())).toBe('hello, kept');
    expect(kept.metadata.custom).toEqual({ reviewer: 'Ada' });
    expect(kept.contentType).toBe('text/plain');
    expect(store.findObject(DEMO_BUCKETS.photos, photo)).toBeUndefined();
    expect(store.getBucket('fresh-bucket').cors?.cors_rules[0]?.allowed_origin).toBe('https://app.example');
    const parts = store.listParts('fresh-bucket', 'big.bin', uploadId, {});
    expect(parts.parts.map((p) => [p.partNumber, p.size])).toEqual([[3, 20]]);
    // The seed itself came back from the database too (its upload ids are random, so they prove it).
    const seededUploads = first.emulator.store.listMultipartUploads(DEMO_BUCKETS.uploads, {}).uploads.map((u) => u.uploadId);
    expect(store.listMultipartUploads(DEMO_BUCKETS.uploads, {}).uploads.map((u) => u.uploadId)).toEqual(seededUploads);
    const tiny = store.listMultipartUploads(DEMO_BUCKETS.uploads, { prefix: 'backups/db-dump' }).uploads[0];
    expect(tiny && store.listParts(DEMO_BUCKETS.uploads, tiny.key, tiny.uploadId, {}).count).toBe(DEMO_TINY_PARTS);
    expect(store.getBucket(DEMO_BUCKETS.public).policy).toEqual(first.emulator.store.getBucket(DEMO_BUCKETS.public).policy);
    second.persistence.close();
  });

  it('answers only after the transaction committed: durable() has settled when the PUT answers', async () => {
    const name = newName();
    const persistence = await IdbPersistence.open({ name, lazySource: lazySourceById });
    await persistence.durable();
    let settled = 0;
    const emulator = await testEmulator({
      seed: 'demo',
      users: TEST_USERS,
      persistence: {
        journal: persistence.journal,
        restore: (store) => persistence.restore(store),
        durable: async () => {
          await persistence.durable();
          settled += 1;
        },
      },
    });
    const put = await send(emulator, 'PUT', `/${DEMO_BUCKETS.documents}/after-commit.txt`, { body: new TextEncoder().encode('x') });
    expect(put.status).toBe(201);
    expect(settled).toBe(1);
    expect((await rowsOf(name, 'objects')).map(keyOf)).toContain('after-commit.txt');
    persistence.close();
  });

  it('does not write the generated bucket; its edits (a delete, a new object) survive and the rest is generated again', async () => {
    const name = newName();
    const first = await start(name);
    const archived = first.emulator.store.listObjects(DEMO_BUCKETS.archive, { limit: 2 }).keys.map((o) => o.key);
    const [gone, kept] = archived;
    expect(gone && kept).toBeTruthy();
    await first.persistence.durable();
    expect((await rowsOf(name, 'objects')).filter((r) => keyOf(r).startsWith('logs/'))).toEqual([]);
    expect((await send(first.emulator, 'DELETE', `https://sh1a.qingstor.com/${DEMO_BUCKETS.archive}/${gone}`)).status).toBe(204);
    expect((await send(first.emulator, 'PUT', `https://sh1a.qingstor.com/${DEMO_BUCKETS.archive}/logs/added.json`, { body: '{}' })).status).toBe(201);
    // Two rows for the generated bucket: the tombstone and the new object.
    expect((await rowsOf(name, 'objects')).filter((r) => keyOf(r).startsWith('logs/'))).toHaveLength(2);

    const second = await reload(name, first.persistence);
    const store = second.emulator.store;
    // The two changes were applied without generating the whole bucket.
    expect(store.pendingObjectChunks(DEMO_BUCKETS.archive)).toBeGreaterThan(150);
    expect(store.findObject(DEMO_BUCKETS.archive, gone ?? '')).toBeUndefined();
    expect(store.findObject(DEMO_BUCKETS.archive, kept ?? '')?.etag).toBe(first.emulator.store.findObject(DEMO_BUCKETS.archive, kept ?? '')?.etag);
    expect(store.findObject(DEMO_BUCKETS.archive, 'logs/added.json')?.size).toBe(2);
    expect(store.getBucketStatistics(DEMO_BUCKETS.archive).count).toBe(DEMO_ARCHIVE_OBJECTS);
    second.persistence.close();
  });

  it('an unchanged generated bucket is generated on demand after a reload, not loaded whole', async () => {
    const name = newName();
    const first = await start(name);
    const second = await reload(name, first.persistence);
    expect(second.emulator.store.pendingObjectChunks(DEMO_BUCKETS.archive)).toBeGreaterThan(0);
    expect(second.emulator.store.getBucketStatistics(DEMO_BUCKETS.archive).count).toBe(DEMO_ARCHIVE_OBJECTS);
    second.persistence.close();
  });

  it('a change that is refused inside an atomic group writes nothing', async () => {
    const name = newName();
    const { emulator, persistence } = await start(name);
    const journal = persistence.journal;
    expect(() =>
      journal.atomically(() => {
        emulator.store.putObject(DEMO_BUCKETS.documents, 'half-done.txt', { body: new Uint8Array([1]) });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    await persistence.durable();
    expect((await rowsOf(name, 'objects')).map(keyOf)).not.toContain('half-done.txt');
    persistence.close();
  });

  it('a change that cannot be saved is not acknowledged: internal_error names the cause', async () => {
    const name = newName();
    const { emulator, persistence } = await start(name);
    await persistence.durable();
    // Another tab opens the database with a newer version: this page lets it and can no longer save.
    const newer = await openDB(name, 3);
    newer.close();
    const put = await send(emulator, 'PUT', `/${DEMO_BUCKETS.documents}/not-saved.txt`, { body: new TextEncoder().encode('x') });
    expect(put.status).toBe(500);
    const body: unknown = await put.json();
    expect(body).toMatchObject({ code: 'internal_error', message: expect.stringContaining('newer version of the console') });
  });

  it('an upload whose bucket is gone is skipped', async () => {
    const name = newName();
    const first = await start(name);
    await first.persistence.durable();
    first.persistence.close();
    const raw = await openDB(name);
    const row = { bucket: 'no-such-bucket', uploadId: 'f'.repeat(32), key: 'k', created: 0, metadata: { standard: {}, custom: {} }, storageClass: 'STANDARD' };
    await raw.put('uploads', row);
    raw.close();
    const second = await start(name);
    expect(second.emulator.store.findBucket(DEMO_BUCKETS.photos)).toBeDefined();
    second.persistence.close();

  });

  it('a body above the size of one IndexedDB value is kept in blocks: a Complete of 150 MiB refers to its parts\' blocks and survives a reload', async () => {
    const name = newName();
    const first = await start(name);
    const store = first.emulator.store;
    const upload = store.initiateMultipartUpload(DEMO_BUCKETS.uploads, 'big/150.bin', {});
    const part = new Uint8Array(10 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
    for (let n = 1; n <= 15; n += 1) store.uploadPart(DEMO_BUCKETS.uploads, 'big/150.bin', upload.uploadId, n, { body: part.slice() });
    await first.persistence.durable();
    const blocksBefore = (await rowsOf(name, 'blocks')).length;
    store.completeMultipartUpload(DEMO_BUCKETS.uploads, 'big/150.bin', upload.uploadId, { parts: Array.from({ length: 15 }, (_, i) => ({ partNumber: i + 1 })) });
    await first.persistence.durable();
    // No byte written again: the object refers to the parts' blocks; no row holds the bytes themselves.
    expect((await rowsOf(name, 'blocks')).length).toBe(blocksBefore);
    const row = (await rowsOf(name, 'objects')).find((r) => keyOf(r) === 'big/150.bin');
    expect(row).toMatchObject({ size: 150 * 1024 * 1024, blocks: expect.any(Array) });
    expect(row).not.toHaveProperty('chunks');
    expect((await rowsOf(name, 'parts')).filter((r) => JSON.stringify(Object.keys(r as object)).includes('uploadId') && (r as { uploadId: string }).uploadId === upload.uploadId)).toEqual([]);

    const second = await reload(name, first.persistence);
    const object = second.emulator.store.getObject(DEMO_BUCKETS.uploads, 'big/150.bin');
    expect(object.size).toBe(150 * 1024 * 1024);
    expect(object.etag).toBe(store.getObject(DEMO_BUCKETS.uploads, 'big/150.bin').etag);
    expect(second.emulator.store.listMultipartUploads(DEMO_BUCKETS.uploads, { prefix: 'big/' }).uploads).toEqual([]);
    // Deleted, its blocks go at the next start.
    second.emulator.store.deleteObject(DEMO_BUCKETS.uploads, 'big/150.bin');
    await second.persistence.durable();
    const third = await reload(name, second.persistence);
    await third.persistence.durable();
    expect((await rowsOf(name, 'blocks')).length).toBe(blocksBefore - 15);
    third.persistence.close();
  }, 120_000);

  it('a database of version 1 (bytes inside the rows, no blocks) is read as it is after the upgrade', async () => {
    const name = newName();
    const old = await openDB(name, 1, {
      upgrade(database) {
        database.createObjectStore('buckets', { keyPath: 'name' });
        database.createObjectStore('objects', { keyPath: ['bucket', 'key'] });
        database.createObjectStore('uploads', { keyPath: ['bucket', 'uploadId'] });
        database.createObjectStore('parts', { keyPath: ['bucket', 'uploadId', 'partNumber'] });
        database.createObjectStore('lazy', { keyPath: 'bucket' });
        database.createObjectStore('meta', { keyPath: 'name' });
      },
    });
    const metadata = { standard: { 'content-type': 'text/plain' }, custom: {} };
    await old.put('meta', { name: 'seeded', at: 1 });
    await old.put('buckets', { name: 'kept-bucket', zone: 'pek3a', ownerId: TEST_USERS[0]?.id ?? '', created: 0, status: 'active', acl: [], cors: null, policy: null });
    await old.put('objects', { bucket: 'kept-bucket', key: 'v1.txt', chunks: [new TextEncoder().encode('from v1')], size: 7, etag: null, created: 0, lastModified: 0, metadata, storageClass: 'STANDARD', appendable: false });
    old.close();
    const { emulator, persistence } = await start(name);
    expect(persistence.damaged).toEqual([]);
    expect(new TextDecoder().decode(emulator.store.getObject('kept-bucket', 'v1.txt').body.chunks[0] as Uint8Array)).toBe('from v1');
    persistence.close();
  });

  it('a damaged record loses that record only: everything else loads, the damage is listed and removed', async () => {
    const name = newName();
    const first = await start(name);
    const put = await send(first.emulator, 'PUT', `/${DEMO_BUCKETS.photos}/mine/kept.txt`, { body: new TextEncoder().encode('kept') });
    expect(put.status).toBe(201);
    const other = await send(first.emulator, 'PUT', `/${DEMO_BUCKETS.documents}/mine/damaged.txt`, { body: new TextEncoder().encode('soon damaged') });
    expect(other.status).toBe(201);
    await first.persistence.durable();
    first.persistence.close();
    // One object record with a size no object can have, one bucket record without a zone.
    const raw = await openDB(name);
    const row: unknown = await raw.get('objects', [DEMO_BUCKETS.documents, 'mine/damaged.txt']);
    await raw.put('objects', { ...(row as object), size: -1 });
    await raw.put('buckets', { name: 'broken-bucket', zone: 1 });
    raw.close();

    const second = await start(name);
    const store = second.emulator.store;
    expect(second.persistence.damaged).toEqual([
      { kind: 'object', name: `${DEMO_BUCKETS.documents}/mine/damaged.txt`, reason: expect.stringContaining('size') },
      { kind: 'bucket', name: 'broken-bucket', reason: expect.stringContaining('zone') },
    ]);
    // Every other bucket, object and upload of this browser is there, the user's own edits included.
    expect(store.findObject(DEMO_BUCKETS.photos, 'mine/kept.txt')).toBeDefined();
    expect(store.findObject(DEMO_BUCKETS.documents, 'mine/damaged.txt')).toBeUndefined();
    expect(store.findObject(DEMO_BUCKETS.documents, 'reports/readme.md')).toBeDefined();
    expect(store.getBucketStatistics(DEMO_BUCKETS.archive).count).toBe(DEMO_ARCHIVE_OBJECTS);
    expect(store.listMultipartUploads(DEMO_BUCKETS.uploads, {}).uploads.length).toBeGreaterThan(0);
    expect(store.findBucket('broken-bucket')).toBeUndefined();
    // The damaged records are gone from the database: the next start loads cleanly and reports nothing.
    await second.persistence.durable();
    const third = await reload(name, second.persistence);
    expect(third.persistence.damaged).toEqual([]);
    expect(third.emulator.store.findObject(DEMO_BUCKETS.photos, 'mine/kept.txt')).toBeDefined();
    third.persistence.close();
  });

  it('a transaction that fails is never acknowledged, and nothing later is either, until a reload', async () => {
    const name = newName();
    const { emulator, persistence } = await start(name);
    await persistence.durable();
    // A bucket record IndexedDB cannot store (reading its grant throws while it is cloned), written
    // together with an object in the same task: the transaction holds both and must leave neither.
    const grant: AclGrant = { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' };
    Object.defineProperty(grant, 'permission', {
      enumerable: true,
      get: () => {
        throw new Error('not storable');
      },
    });
    persistence.journal.putBucket({ ...emulator.store.getBucket(DEMO_BUCKETS.public), acl: [grant] });
    emulator.store.putObject(DEMO_BUCKETS.documents, 'same-transaction.txt', { body: new Uint8Array([1]) });
    await expect(persistence.durable()).rejects.toThrow('not storable');
    const later = await send(emulator, 'PUT', `/${DEMO_BUCKETS.documents}/later.txt`, { body: new TextEncoder().encode('x') });
    expect(later.status).toBe(500);
    expect(await later.json()).toMatchObject({ code: 'internal_error', message: expect.stringContaining('reload this page') });
    persistence.close();
    expect((await rowsOf(name, 'objects')).map(keyOf)).not.toContain('same-transaction.txt');
  });

  it('reset empties the database: the next start seeds again and the edits are gone', async () => {
    const name = newName();
    const first = await start(name);
    expect((await send(first.emulator, 'DELETE', `/${DEMO_BUCKETS.photos}/${encodeKeyPath(photo)}`)).status).toBe(204);
    await first.persistence.reset();
    expect(await rowsOf(name, 'meta')).toEqual([]);
    const second = await start(name);
    // The seeded photo is back: a JPEG (FF D8) again.
    const back = second.emulator.store.findObject(DEMO_BUCKETS.photos, photo);
    expect([...((back?.body.chunks[0] as Uint8Array | undefined)?.subarray(0, 2) ?? [])]).toEqual([0xff, 0xd8]);
    await second.persistence.durable();
    expect(await rowsOf(name, 'meta')).toHaveLength(1);
    second.persistence.close();
  });
});

function uploadIdOf(json: unknown): { upload_id: string } {
  if (typeof json === 'object' && json !== null && 'upload_id' in json && typeof json.upload_id === 'string') return { upload_id: json.upload_id };
  throw new Error('no upload_id');
}

