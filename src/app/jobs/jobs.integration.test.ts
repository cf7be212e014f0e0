/**
 * Bulk jobs against the emulator (in-process, msw), with the metadata feature's real guarded write: what
 * the server holds afterwards is the test. A "reload" is a runner whose journal stops committing (the tab
 * died) while its requests in flight still reach the server; a new runner resumes from what was committed.
 */
// oxlint-disable-next-line import/no-unassigned-import -- installs indexedDB and IDBKeyRange as globals, like a browser
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { DEMO_USER } from '../../../mocks/seed.ts';
import { createClient } from '../../api/client.ts';
import { copyObject } from '../../api/objects/write.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import { createIndexedDbJournal } from '../../features/bulk-jobs/engine/journal-idb.ts';
import { createMemoryJournal, type Journal } from '../../features/bulk-jobs/engine/journal.ts';
import { JobRunner } from '../../features/bulk-jobs/engine/runner.ts';
import { buildReport } from '../../features/bulk-jobs/engine/report.ts';
import { NO_COUNTS, type JobOperation, type JobRecord, type JobScope } from '../../features/bulk-jobs/engine/types.ts';
import { defer } from '../../features/bulk-jobs/engine/defer.ts';
import { metadataWritePort } from './metadata-port.ts';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const { server, emulator } = await setupEmulatorServer({ seed: 'empty', now });
const store = emulator.store;
const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection, { now });
const zone = 'pek3a';
const visibility: HeaderVisibility = { kind: 'all', reason: 'demo' };

/** Every request the client sent and the status the server answered (also when the answer is then "lost"). */
interface Sent {
  method: string;
  bucket: string;
  key: string;
  copy: boolean;
  status: number;
}
let sent: Sent[] = [];
let loseAnswers: (request: Request) => boolean = () => false;
/** Runs once the server has answered a copy (another writer acting right after the job's write). */
let afterCopy: (entry: Sent) => Promise<void> = async () => undefined;
const realFetch = globalThis.fetch;

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'bypass' });
  const patched = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.split('/');
    const entry: Sent = { method: request.method, bucket: path[1] ?? '', key: decodeURIComponent(path.slice(2).join('/')), copy: request.headers.has('x-qs-copy-source'), status: 0 };
    sent.push(entry);
    const response = await patched(request);
    // What the server answered, whether or not the client gets to see it.
    entry.status = response.status;
    if (entry.copy && response.status === 201) await afterCopy(entry);
    if (loseAnswers(request)) throw new TypeError('Failed to fetch (answer lost)');
    return response;
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
  server.close();
});
beforeEach(() => {
  sent = [];
  loseAnswers = () => false;
});
afterEach(() => {
  loseAnswers = () => false;
  afterCopy = async () => undefined;
});

let bucketCount = 0;
function seed(count: number, prefix = 'p/'): { bucket: string; keys: string[] } {
  const bucket = `jobs-${++bucketCount}-${Date.now().toString(36)}`;
  store.createBucket({ name: bucket, zone, ownerId: DEMO_USER.id });
  const keys = Array.from({ length: count }, (_, i) => `${prefix}${i % 3 === 0 ? 'sub/' : ''}o-${String(i).padStart(4, '0')}.txt`);
  for (const [i, key] of keys.entries()) {
    store.putObject(bucket, key, { body: new TextEncoder().encode(`body ${i}`), metadata: { standard: { 'content-type': 'text/plain', 'content-disposition': `attachment; filename="f${i}.txt"` }, custom: { idx: String(i), keep: 'yes' } } });
  }
  // A save waits for the server's next second after Last-Modified: move both clocks on instead of waiting.
  offsetMs += 2000;
  return { bucket, keys };
}

function record(bucket: string, scope: JobScope, operation: JobOperation, id = `job-${bucket}`): JobRecord {
  return { id, connection: 'c', zone, bucket, scope, operation, createdAt: Date.now(), updatedAt: Date.now(), status: 'running', pass: 'main', cursor: null, total: null, retryTotal: null, counts: NO_COUNTS, fatal: null };
}

function runner(job: JobRecord, journal: Journal): JobRunner {
  return new JobRunner(job, { client, journal, metadata: metadataWritePort, visibility: async () => visibility, pool: { initial: 4, min: 1, max: 8 } });
}

async function runToEnd(job: JobRecord, journal: Journal): Promise<JobRunner> {
  const r = runner(job, journal);
  r.start();
  await r.settled();
  return r;
}

const SET_CACHE: JobOperation = { kind: 'edit', edits: { standard: { 'cache-control': 'max-age=60' }, custom: [{ op: 'set', key: 'tier', value: 'hot' }] } };

/** Copies of `bucket`'s objects the server answered 201, per key. */
function copiesPerKey(bucket: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const s of sent) if (s.bucket === bucket && s.copy && s.status === 201) map.set(s.key, (map.get(s.key) ?? 0) + 1);
  return map;
}

// Seconds of msw per request add up on a loaded machine.
describe('an edit job', { timeout: 120_000 }, () => {
  it('edits every object of a folder once, keeping every other header and key, and its report lists every object', async () => {
    const { bucket, keys } = seed(150);
    const journal = createMemoryJournal();
    const job = record(bucket, { kind: 'prefix', prefix: 'p/' }, SET_CACHE);
    const done = await runToEnd(job, journal);
    const snap = done.snapshot();
    expect(snap.phase).toBe('finished');
    expect(snap.record.counts).toEqual({ changed: 150, unchanged: 0, skipped: 0, failed: 0 });
    for (const [i, key] of keys.entries()) {
      const object = store.getObject(bucket, key);
      expect(object.metadata.standard).toEqual({ 'content-type': 'text/plain', 'content-disposition': `attachment; filename="f${i}.txt"`, 'cache-control': 'max-age=60' });
      expect(object.metadata.custom).toEqual({ idx: String(i), keep: 'yes', tier: 'hot' });
    }
    expect([...copiesPerKey(bucket).values()].every((n) => n === 1)).toBe(true);
    expect(copiesPerKey(bucket).size).toBe(150);
    // Reads per object: one HEAD before the write (one more only for an object read within the second it
    // was written), no read-back: what was written is checked from the listing, many objects at a time.
    const heads = new Map<string, number>();
    for (const s of sent) if (s.bucket === bucket && s.method === 'HEAD') heads.set(s.key, (heads.get(s.key) ?? 0) + 1);
    expect(heads.size).toBe(150);
    // (Seeded two seconds before the job reads them: none is read within the second it was written.)
    expect([...heads.values()].filter((n) => n !== 1)).toEqual([]);
    const listings = sent.filter((s) => s.bucket === bucket && s.method === 'GET' && s.key === '').length;
    expect(listings).toBeLessThan(20);
    // The journal holds what each write left: its ETag and Last-Modified, as the server has them.
    const items = await journal.items(job.id, keys);
    for (const key of keys) {
      const object = store.getObject(bucket, key);
      expect(items.get(key)?.after).toEqual({ etag: `"${object.etag}"`, lastModified: object.lastModified.toUTCString() });
    }
    const blob = await buildReport(journal, snap.record, 'csv');
    // UTF-8 with a byte order mark, which Blob.text() reads past.
    expect([...new Uint8Array(await blob.slice(0, 3).arrayBuffer())]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = await blob.text();
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(151);
    expect(lines[0]).toBe('key,outcome,before,after,destination,error_code,message,request_id');
    expect(csv).toContain(
      `${keys[1]},changed,"content-disposition: attachment; filename=""f1.txt""\ncontent-type: text/plain\nx-qs-meta-idx: 1\nx-qs-meta-keep: yes","cache-control: max-age=60\ncontent-disposition: attachment; filename=""f1.txt""\ncontent-type: text/plain\nx-qs-meta-idx: 1\nx-qs-meta-keep: yes\nx-qs-meta-tier: hot",,,,`,
    );
    const json: unknown = JSON.parse(await (await buildReport(journal, snap.record, 'json')).text());
    expect(Array.isArray(json) && json.length).toBe(150);
  });

  it('reports the objects another writer changed right after the job wrote them, and leaves them as that writer left them', async () => {
    const { bucket, keys } = seed(60);
    const other = createClient(connection, { now });
    const changed = new Set([keys[5], keys[31], keys[58]].filter((k) => k !== undefined));
    const done = new Set<string>();
    afterCopy = async (entry) => {
      if (entry.bucket !== bucket || !changed.has(entry.key) || done.has(entry.key)) return;
      done.add(entry.key);
      // A later second on the server: the other writer's save is not the job's.
      offsetMs += 2000;
      await copyObject(other, { zone, bucket, key: entry.key, source: { bucket, key: entry.key }, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/plain' }, custom: { by: 'other' } } });
    };
    const journal = createMemoryJournal();
    const job = record(bucket, { kind: 'prefix', prefix: 'p/' }, SET_CACHE);
    const snap = (await runToEnd(job, journal)).snapshot();
    expect(done).toEqual(changed);
    expect(snap.record.counts).toEqual({ changed: 60, unchanged: 0, skipped: 0, failed: 0 });
    // Reported: in the report (changed, then changed since by someone else), and in the journal with the
    // version the other writer left.
    const csv = await (await buildReport(journal, snap.record, 'csv')).text();
    const since = csv.split('\r\n').filter((line) => line.includes(',changed_since,')).map((line) => line.split(',')[0]);
    expect(since.sort()).toEqual([...changed].sort());
    const items = await journal.items(job.id, keys);
    const theirs = [...changed].map((key) => ({ custom: store.getObject(bucket, key).metadata.custom, item: items.get(key) }));
    expect(theirs).toEqual(
      [...changed].map((key) => ({ custom: { by: 'other' }, item: expect.objectContaining({ state: 'changed', code: 'changed_since', after: { lastModified: store.getObject(bucket, key).lastModified.toUTCString(), etag: expect.any(String) } }) })),
    );
    const ours = keys.filter((key) => !changed.has(key));
    expect(ours.filter((key) => store.getObject(bucket, key).metadata.custom['tier'] !== 'hot' || items.get(key)?.code !== undefined)).toEqual([]);
  });

  it('resumed after a reload half way, edits every object exactly once, also those whose answer was lost', async () => {
    const { bucket, keys } = seed(240);
    const journal = createMemoryJournal();
    // The tab that dies: once 150 objects settled, its journal commits nothing more, and the answers of the
    // copies it has in flight never reach it (the server applies them all the same).
    let frozen = false;
    const dying: Journal = { ...journal, commit: (items, job) => (frozen ? new Promise<void>(() => undefined) : journal.commit(items, job)) };
    const job = record(bucket, { kind: 'prefix', prefix: 'p/' }, SET_CACHE);
    const first = runner(job, dying);
    const half = defer();
    let seenCopies = 0;
    loseAnswers = (request) => {
      if (!request.headers.has('x-qs-copy-source')) return false;
      seenCopies += 1;
      if (seenCopies === 100) {
        frozen = true;
        half.resolve();
      }
      return frozen;
    };
    first.start();
    await half.promise;
    const lost = sent.filter((s) => s.copy).length;
    const stored = await journal.job(job.id);
    expect(stored).toBeDefined();
    expect((await journal.intents(job.id)).length).toBeGreaterThan(0);
    loseAnswers = () => false;

    // The reload: a new runner from what the journal committed.
    const second = await runToEnd(stored ?? job, journal);
    expect(second.snapshot().phase).toBe('finished');
    expect(second.snapshot().record.counts).toEqual({ changed: 240, unchanged: 0, skipped: 0, failed: 0 });
    const copies = copiesPerKey(bucket);
    expect(copies.size).toBe(240);
    expect([...copies.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(lost).toBeGreaterThanOrEqual(100);
    for (const [i, key] of keys.entries()) {
      const object = store.getObject(bucket, key);
      expect(object.metadata.custom).toEqual({ idx: String(i), keep: 'yes', tier: 'hot' });
      expect(object.metadata.standard['content-disposition']).toBe(`attachment; filename="f${i}.txt"`);
    }
  });

  it('cancelled, sends no request once the objects in flight are done, and goes on later from where it stopped', async () => {
    const { bucket, keys } = seed(120);
    const journal = createMemoryJournal();
    const job = record(bucket, { kind: 'prefix', prefix: 'p/' }, SET_CACHE);
    const r = runner(job, journal);
    r.start();
    for (let i = 0; i < 500 && r.snapshot().record.counts.changed < 20; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    r.cancel();
    const atCancel = sent.length;
    await r.settled();
    // Only what was in flight (at most the pool's limit of objects, each finishing its read-back).
    expect(sent.length - atCancel).toBeLessThanOrEqual(2 * 8);
    expect(r.snapshot().phase).toBe('cancelled');
    const settled = r.snapshot().record.counts.changed;
    expect(settled).toBeLessThan(120);
    const afterCancel = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent.length).toBe(afterCancel);
    r.resume();
    await r.settled();
    expect(r.snapshot().record.counts.changed).toBe(120);
    expect([...copiesPerKey(bucket).values()].every((n) => n === 1)).toBe(true);
    expect(store.getObject(bucket, keys[119] ?? '').metadata.custom['tier']).toBe('hot');
  });

  it('with its journal in IndexedDB, goes on after the browser restarts (the database opened again) and edits each object once', async () => {
    const { bucket, keys } = seed(90);
    const name = `jobs-restart-${bucket}`;
    const first = createIndexedDbJournal(name);
    let frozen = false;
    const dying: Journal = { ...first, commit: (items, job) => (frozen ? new Promise<void>(() => undefined) : first.commit(items, job)) };
    const job = record(bucket, { kind: 'prefix', prefix: 'p/' }, SET_CACHE);
    await first.commit([], job);
    const r = runner(job, dying);
    const half = defer();
    let copiesSeen = 0;
    loseAnswers = (request) => {
      if (!request.headers.has('x-qs-copy-source')) return false;
      copiesSeen += 1;
      if (copiesSeen === 40) {
        frozen = true;
        half.resolve();
      }
      return frozen;
    };
    r.start();
    await half.promise;
    loseAnswers = () => false;
    await first.close();

    const reopened = createIndexedDbJournal(name);
    const stored = await reopened.job(job.id);
    expect(stored?.status).toBe('running');
    const second = await runToEnd(stored ?? job, reopened);
    expect(second.snapshot().record.counts).toEqual({ changed: 90, unchanged: 0, skipped: 0, failed: 0 });
    expect([...copiesPerKey(bucket)].filter(([, n]) => n !== 1)).toEqual([]);
    expect(copiesPerKey(bucket).size).toBe(90);
    for (const [i, key] of keys.entries()) expect(store.getObject(bucket, key).metadata.custom).toEqual({ idx: String(i), keep: 'yes', tier: 'hot' });
    expect((await reopened.job(job.id))?.status).toBe('finished');
  });
});
