// oxlint-disable-next-line import/no-unassigned-import -- installs indexedDB and IDBKeyRange as globals, like a browser
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIndexedDbResumeStore, type ResumeRecord } from './resume-store.ts';

let databases = 0;
function newName(): string {
  databases += 1;
  return `resume-test-${databases}`;
}

function record(uploadId: string, scope: string, createdAt: number): ResumeRecord {
  return {
    uploadId,
    scope,
    bucket: 'demo-photos',
    zone: 'pek3a',
    key: `big/${uploadId}.bin`,
    fingerprint: { name: `${uploadId}.bin`, size: 64 * 1024 * 1024, lastModified: 1_700_000_000_000, headMd5: 'a'.repeat(32), tailMd5: 'b'.repeat(32) },
    partSize: 8 * 1024 * 1024,
    metadata: { standard: { 'content-type': 'application/octet-stream' }, custom: { camera: 'x' } },
    createdAt,
  };
}

describe('IndexedDB resume store', () => {
  it('a saved record survives a reload (a new store on a new connection reads it); a removed one does not', async () => {
    const name = newName();
    const page = createIndexedDbResumeStore(name);
    await page.save(record('u2', 'scope-a', 2));
    await page.save(record('u1', 'scope-a', 1));
    await page.save(record('u3', 'scope-b', 3));

    const reloaded = createIndexedDbResumeStore(name);
    expect((await reloaded.list('scope-a')).map((r) => r.uploadId)).toEqual(['u1', 'u2']);
    expect(await reloaded.list('scope-a')).toContainEqual(record('u2', 'scope-a', 2));
    expect((await reloaded.list('scope-b')).map((r) => r.uploadId)).toEqual(['u3']);

    await reloaded.remove('u1');
    expect((await createIndexedDbResumeStore(name).list('scope-a')).map((r) => r.uploadId)).toEqual(['u2']);
  });

  it('reads the database earlier versions wrote, and skips records that do not validate', async () => {
    const name = newName();
    // The database as the previous hand-written wrapper created it: same name, version, store and index.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.addEventListener('upgradeneeded', () => {
        const store = request.result.createObjectStore('multipart-uploads', { keyPath: 'uploadId' });
        store.createIndex('scope', 'scope');
        store.put(record('old', 'scope-a', 5));
        store.put({ uploadId: 'broken', scope: 'scope-a', partSize: -1 });
      });
      request.addEventListener('success', () => {
        request.result.close();
        resolve();
      });
      request.addEventListener('error', () => reject(request.error ?? new Error('open failed')));
    });
    const store = createIndexedDbResumeStore(name);
    expect((await store.list('scope-a')).map((r) => r.uploadId)).toEqual(['old']);
  });

  it('refuses to save an invalid record', async () => {
    const store = createIndexedDbResumeStore(newName());
    await expect(store.save({ ...record('bad', 'scope-a', 1), partSize: 0 })).rejects.toThrow(/partSize|too_small|>0/i);
    expect(await store.list('scope-a')).toEqual([]);
  });
});
