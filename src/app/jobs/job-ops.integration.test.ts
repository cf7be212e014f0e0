/**
 * Every operation of a bulk job against the emulator (in-process), with the metadata feature's real guarded
 * write: failures and their retry, undo (and a writer in between), the CORS completeness guard, objects above
 * the copy limit, delete in batches, copy and move, a server that throttles, and one job per scope across tabs.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { DEMO_USER } from '../../../mocks/seed.ts';
import { createClient, type QsClient, type SendInput } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { SAFELISTED_RESPONSE_HEADERS, type HeaderVisibility } from '../../api/cors/visibility.ts';
import { JobHost } from '../../features/bulk-jobs/engine/host.ts';
import { createMemoryJournal, type Journal } from '../../features/bulk-jobs/engine/journal.ts';
import { memoryLocks } from '../../features/bulk-jobs/engine/locks.ts';
import { buildReport } from '../../features/bulk-jobs/engine/report.ts';
import { JobRunner } from '../../features/bulk-jobs/engine/runner.ts';
import { NO_COUNTS, type JobOperation, type JobRecord, type JobScope } from '../../features/bulk-jobs/engine/types.ts';
import { metadataWritePort } from './metadata-port.ts';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const COPY_LIMIT = 1000;
const { server, emulator } = await setupEmulatorServer({ seed: 'empty', now, copyLimit: COPY_LIMIT, minPartSize: 16 });
const store = emulator.store;
const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS, copyLimit: COPY_LIMIT };
const client = createClient(connection, { now });
const zone = 'pek3a';
const ALL: HeaderVisibility = { kind: 'all', reason: 'demo' };

let sent: SendInput[] = [];
const recording: QsClient = {
  ...client,
  send: (input) => {
    sent.push(input);
    return client.send(input);
  },
  json: (schema, input) => {
    sent.push(input);
    return client.json(schema, input);
  },
};

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());
beforeEach(() => {
  sent = [];
  server.resetHandlers();
});

/** What the store takes as an object's metadata. */
interface MetadataInput {
  standard: Record<string, string>;
  custom: Record<string, string>;
}

let count = 0;
function bucketWith(keys: readonly string[], metadata: (i: number) => MetadataInput = (i) => ({ standard: { 'content-type': 'text/plain' }, custom: { idx: String(i) } })): string {
  const bucket = `ops-${++count}-${Date.now().toString(36)}`;
  store.createBucket({ name: bucket, zone, ownerId: DEMO_USER.id });
  for (const [i, key] of keys.entries()) store.putObject(bucket, key, { body: new TextEncoder().encode(`body ${i}`), metadata: metadata(i) });
  offsetMs += 2000;
  return bucket;
}

const keysOf = (n: number, prefix = 'p/') => Array.from({ length: n }, (_, i) => `${prefix}o-${String(i).padStart(4, '0')}.txt`);

function record(bucket: string, scope: JobScope, operation: JobOperation): JobRecord {
  return { id: `job-${bucket}-${operation.kind}`, connection: 'c', zone, bucket, scope, operation, createdAt: Date.now(), updatedAt: Date.now(), status: 'running', pass: 'main', cursor: null, total: null, retryTotal: null, counts: NO_COUNTS, fatal: null };
}

function runner(job: JobRecord, journal: Journal, options: { client?: QsClient; visibility?: HeaderVisibility } = {}): JobRunner {
  return new JobRunner(job, { client: options.client ?? recording, journal, metadata: metadataWritePort, visibility: async () => options.visibility ?? ALL, pool: { initial: 4, min: 1, max: 8 } });
}

async function finished(r: JobRunner): Promise<JobRunner> {
  await r.settled();
  return r;
}

const copies = () => sent.filter((s) => s.headers?.['x-qs-copy-source'] !== undefined);
const EDIT: JobOperation = { kind: 'edit', edits: { standard: { 'cache-control': 'max-age=60' }, custom: [{ op: 'set', key: 'team', value: 'blue' }] } };

describe('failures and their retry', { timeout: 120_000 }, () => {
  it('a selected object that is gone fails with its code and request id; the retry pass edits it once it is back; the same job again sends no copy', async () => {
    const keys = keysOf(12);
    const bucket = bucketWith(keys);
    const missing = keys[5] ?? '';
    store.deleteObject(bucket, missing);
    const journal = createMemoryJournal();
    const r = runner(record(bucket, { kind: 'keys', base: 'p/', keys }, EDIT), journal);
    r.start();
    await finished(r);
    expect(r.snapshot().record.counts).toEqual({ changed: 11, unchanged: 0, skipped: 0, failed: 1 });
    expect(r.snapshot().problems).toEqual([{ key: missing, state: 'failed', code: 'not_found', message: 'Not Found', requestId: expect.stringMatching(/^[0-9a-f]{16,}$/) }]);

    store.putObject(bucket, missing, { body: new Uint8Array(1), metadata: { standard: { 'content-type': 'text/plain' }, custom: { idx: '5' } } });
    offsetMs += 2000;
    r.retryFailed();
    await finished(r);
    expect(r.snapshot().record.counts).toEqual({ changed: 12, unchanged: 0, skipped: 0, failed: 0 });
    expect(r.snapshot().problems).toEqual([]);
    expect(store.getObject(bucket, missing).metadata.custom).toEqual({ idx: '5', team: 'blue' });

    sent = [];
    const again = runner({ ...record(bucket, { kind: 'keys', base: 'p/', keys }, EDIT), id: 'again' }, journal);
    again.start();
    await finished(again);
    expect(again.snapshot().record.counts).toEqual({ changed: 0, unchanged: 12, skipped: 0, failed: 0 });
    expect(copies()).toEqual([]);
  });

  it('a server that throttles (429 with Retry-After) slows the job down, which still edits every object once', async () => {
    const keys = keysOf(30);
    const bucket = bucketWith(keys);
    let refused = 0;
    server.use(
      http.put(/.*/, ({ request }) => {
        if (!request.headers.has('x-qs-copy-source') || refused >= 4) return undefined;
        refused += 1;
        return HttpResponse.json({ code: 'service_unavailable', message: 'slow down', request_id: 'r', url: '' }, { status: 503, headers: { 'retry-after': '1' } });
      }),
    );
    const r = runner(record(bucket, { kind: 'prefix', prefix: 'p/' }, EDIT), createMemoryJournal());
    const started = Date.now();
    r.start();
    await finished(r);
    expect(refused).toBe(4);
    expect(r.snapshot().record.counts.changed).toBe(30);
    // Each refusal asked for a second of pause, during which nothing new started.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    for (const key of keys) expect(store.getObject(bucket, key).metadata.custom['team']).toBe('blue');
  });
});

describe('undo', { timeout: 120_000 }, () => {
  it('puts back every object the edit changed, except one another writer changed since, which it reports and leaves', async () => {
    const keys = keysOf(20);
    const bucket = bucketWith(keys, (i) => ({ standard: { 'content-type': 'text/plain', 'content-disposition': `inline; filename="f${i}"` }, custom: { idx: String(i), old: 'yes' } }));
    const journal = createMemoryJournal();
    const edit = record(bucket, { kind: 'prefix', prefix: 'p/' }, { kind: 'edit', edits: { standard: { 'content-disposition': null }, custom: [{ op: 'remove', key: 'old' }, { op: 'set', key: 'new', value: '1' }] } });
    const first = runner(edit, journal);
    first.start();
    await finished(first);
    expect(first.snapshot().record.counts.changed).toBe(20);
    offsetMs += 2000;
    // Another writer, between the edit and its undo.
    const theirs = keys[7] ?? '';
    store.copyObject({ sourceBucket: bucket, sourceKey: theirs, bucket, key: theirs, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/csv' }, custom: { mine: 'no' } } });
    offsetMs += 2000;

    const undo = runner({ ...record(bucket, edit.scope, { kind: 'undo', of: edit.id }), id: 'undo' }, journal);
    undo.start();
    await finished(undo);
    expect(undo.snapshot().record.counts).toEqual({ changed: 19, unchanged: 0, skipped: 1, failed: 0 });
    expect(undo.snapshot().problems).toEqual([{ key: theirs, state: 'skipped', code: 'changed_since' }]);
    const expected = (i: number, key: string) =>
      key === theirs ? { standard: { 'content-type': 'text/csv' }, custom: { mine: 'no' } } : { standard: { 'content-type': 'text/plain', 'content-disposition': `inline; filename="f${i}"` }, custom: { idx: String(i), old: 'yes' } };
    for (const [i, key] of keys.entries()) expect(store.getObject(bucket, key).metadata).toEqual(expected(i, key));
    const csv = await (await buildReport(journal, undo.snapshot().record, 'csv')).text();
    expect(csv.trim().split('\r\n')).toHaveLength(21);
    expect(csv).toContain(`${theirs},skipped,`);
  });
});

describe('the guards of a save', { timeout: 120_000 }, () => {
  it('a CORS rule that hides headers a REPLACE save must resend skips every object and writes none', async () => {
    const keys = keysOf(3);
    const bucket = bucketWith(keys, () => ({ standard: { 'content-type': 'text/plain', 'content-disposition': 'attachment' }, custom: {} }));
    const readable = new Set([...SAFELISTED_RESPONSE_HEADERS, 'etag']);
    const browserLike: QsClient = {
      ...recording,
      send: async (input) => {
        const response = await recording.send(input);
        const headers = new Headers();
        response.headers.forEach((value, name) => {
          if (readable.has(name)) headers.set(name, value);
        });
        return new Response(input.method === 'HEAD' ? null : await response.arrayBuffer(), { status: response.status, headers });
      },
    };
    const r = runner(record(bucket, { kind: 'prefix', prefix: 'p/' }, EDIT), createMemoryJournal(), { client: browserLike, visibility: { kind: 'listed', exposed: ['etag'] } });
    r.start();
    await finished(r);
    expect(r.snapshot().record.counts).toEqual({ changed: 0, unchanged: 0, skipped: 3, failed: 0 });
    expect(new Set(r.snapshot().problems.map((p) => p.code))).toEqual(new Set(['hidden-headers']));
    expect(copies()).toEqual([]);
    for (const key of keys) expect(store.getObject(bucket, key).metadata.standard['content-disposition']).toBe('attachment');
  });

  it('an object above the copy limit is rewritten by a multipart copy onto itself, body and other keys intact', async () => {
    const bucket = bucketWith([]);
    const body = new Uint8Array(2600).map((_, i) => i % 251);
    store.putObject(bucket, 'p/large.bin', { body, metadata: { standard: { 'content-type': 'video/mp4' }, custom: { camera: 'X' } } });
    offsetMs += 2000;
    const r = runner(record(bucket, { kind: 'prefix', prefix: 'p/' }, EDIT), createMemoryJournal());
    r.start();
    await finished(r);
    expect(r.snapshot().problems).toEqual([]);
    expect(r.snapshot().record.counts.changed).toBe(1);
    expect(sent.map((s) => s.operation)).toContain('UploadPartCopy');
    const object = store.getObject(bucket, 'p/large.bin');
    expect(object.metadata.custom).toEqual({ camera: 'X', team: 'blue' });
    expect(object.size).toBe(2600);
  });
});

describe('delete, copy and move', { timeout: 120_000 }, () => {
  it('deletes a folder of 2,100 objects in three batches, each object in the report', async () => {
    const keys = [...keysOf(2100), 'p/sub/'];
    const bucket = bucketWith([...keys, 'q/stays.txt']);
    const journal = createMemoryJournal();
    const r = runner(record(bucket, { kind: 'prefix', prefix: 'p/' }, { kind: 'delete' }), journal);
    r.start();
    await finished(r);
    expect(r.snapshot().record.counts).toEqual({ changed: 2101, unchanged: 0, skipped: 0, failed: 0 });
    expect(sent.filter((s) => s.operation === 'DeleteMultipleObjects')).toHaveLength(3);
    expect(store.listObjects(bucket, { prefix: '' }).keys.map((k) => k.key)).toEqual(['q/stays.txt']);
    const json: unknown = JSON.parse(await (await buildReport(journal, r.snapshot().record, 'json')).text());
    expect(Array.isArray(json) ? json.length : 0).toBe(2101);
  });

  it('copies a folder into another bucket, keeping each key below the folder and its metadata; one that exists is left and reported', async () => {
    const keys = keysOf(10, 'src/');
    const bucket = bucketWith(keys);
    const target = bucketWith([]);
    store.putObject(target, 'dst/o-0003.txt', { body: new TextEncoder().encode('theirs'), metadata: { standard: { 'content-type': 'text/csv' }, custom: {} } });
    const r = runner(record(bucket, { kind: 'prefix', prefix: 'src/' }, { kind: 'copy', destination: { bucket: target, prefix: 'dst/' }, overwrite: 'skip' }), createMemoryJournal());
    r.start();
    await finished(r);
    expect(r.snapshot().record.counts).toEqual({ changed: 9, unchanged: 0, skipped: 1, failed: 0 });
    expect(r.snapshot().problems).toEqual([{ key: 'src/o-0003.txt', state: 'skipped', code: 'destination_exists' }]);
    expect(store.getObject(target, 'dst/o-0005.txt').metadata.custom).toEqual({ idx: '5' });
    expect(store.getObject(target, 'dst/o-0003.txt').metadata.standard['content-type']).toBe('text/csv');
    expect(store.listObjects(bucket, { prefix: 'src/' }).keys).toHaveLength(10);
  });

  it('moves a selection into another folder: the sources are gone, the destinations hold them', async () => {
    const keys = keysOf(6, 'a/');
    const bucket = bucketWith(keys);
    const selection = keys.slice(0, 4);
    const r = runner(record(bucket, { kind: 'keys', base: 'a/', keys: selection }, { kind: 'move', destination: { bucket, prefix: 'b/' }, overwrite: 'replace' }), createMemoryJournal());
    r.start();
    await finished(r);
    expect(r.snapshot().record.counts.changed).toBe(4);
    expect(store.listObjects(bucket, { prefix: 'a/' }).keys.map((k) => k.key)).toEqual(keys.slice(4));
    expect(store.listObjects(bucket, { prefix: 'b/' }).keys.map((k) => k.key)).toEqual(selection.map((k) => k.replace('a/', 'b/')));
  });
});

describe('one job per scope', { timeout: 120_000 }, () => {
  it('a second tab cannot start a job on objects a running job covers; on other objects it can', async () => {
    const bucket = bucketWith(keysOf(40));
    const journal = createMemoryJournal();
    const locks = memoryLocks();
    const quiet = { post: () => undefined, listen: () => () => undefined, close: () => undefined };
    const tabA = new JobHost({ metadata: metadataWritePort, journal, locks, broadcast: quiet, newId: () => 'a' });
    const tabB = new JobHost({ metadata: metadataWritePort, journal, locks, broadcast: quiet, newId: () => 'b' });
    const jobClient = { client: recording, demo: true };
    expect(await tabA.create(jobClient, { zone, bucket, scope: { kind: 'prefix', prefix: 'p/' }, operation: EDIT })).toEqual({ kind: 'started', id: 'a' });
    const busy = await tabB.create(jobClient, { zone, bucket, scope: { kind: 'bucket' }, operation: { kind: 'delete' } });
    expect(busy.kind === 'busy' && busy.other.id).toBe('a');
    const inside = await tabB.create(jobClient, { zone, bucket, scope: { kind: 'keys', base: 'p/', keys: ['p/o-0001.txt'] }, operation: EDIT });
    expect(inside.kind).toBe('busy');
    // Resuming the job the first tab runs is refused too.
    expect(await tabB.resume(jobClient, 'a')).toEqual({ kind: 'elsewhere' });
    const elsewhere = bucketWith(keysOf(2));
    expect(await tabB.create(jobClient, { zone, bucket: elsewhere, scope: { kind: 'bucket' }, operation: EDIT })).toEqual({ kind: 'started', id: 'b' });
    tabA.dispose();
    tabB.dispose();
  });
});
