import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import { ApiError } from '../../api/errors.ts';
import { MetadataEditError } from '../../api/metadata/edit.ts';
import { createFolder, headObject, putObject } from '../../api/objects/operations.ts';
import { BulkGate, listPrefixKeys, runBulkEdit, runBulkPreview, type BulkItemState, type BulkPreview } from './bulk.ts';

const visibility: HeaderVisibility = { kind: 'all', reason: 'demo' };
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);

const { server } = await setupEmulatorServer({ seed: 'demo', now });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection, { now });
const zone = 'pek3a';
const bucket = 'demo-documents';

async function seed(prefix: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}o-${String(i).padStart(2, '0')}.txt`);
  for (const [i, key] of keys.entries()) {
    await putObject(client, { zone, bucket, key, body: key, metadata: { standard: { 'content-type': 'text/plain' }, custom: { idx: String(i) } } });
  }
  // Saves wait for the second after Last-Modified; move the clock on instead of waiting.
  offsetMs += 2000;
  return keys;
}

const targetsOf = (keys: readonly string[]) => keys.map((key) => ({ zone, bucket, key }));

describe('runBulkPreview', () => {
  it('reports per object what would change, what breaks the 2 KB limit and what cannot be read, and writes nothing', async () => {
    const keys = await seed('preview/', 5);
    const big = keys[1] ?? '';
    const missing = keys[2] ?? '';
    const same = keys[3] ?? '';
    // 1,900 bytes of metadata already: adding 200 more breaks the 2 KB total.
    await putObject(client, { zone, bucket, key: big, body: 'b', metadata: { standard: { 'content-type': 'text/plain' }, custom: { filler: 'x'.repeat(1900) } } });
    await putObject(client, { zone, bucket, key: same, body: 's', metadata: { standard: { 'content-type': 'text/plain' }, custom: { note: 'y'.repeat(200) } } });
    await client.send({ operation: 'DeleteObject', method: 'DELETE', zone, bucket, key: missing });
    const before = await headObject(client, { zone, bucket, key: keys[0] ?? '' });
    const states = new Map<string, BulkPreview>();
    await runBulkPreview(client, targetsOf(keys), { custom: [{ op: 'set', key: 'note', value: 'y'.repeat(200) }] }, visibility, (key, state) => states.set(key, state));

    const first = states.get(keys[0] ?? '');
    expect(first?.status === 'ready' && first.changes).toEqual([{ kind: 'added', field: 'x-qs-meta-note', after: 'y'.repeat(200) }]);
    const over = states.get(big);
    expect(over?.status).toBe('invalid');
    expect(over?.status === 'invalid' && over.error instanceof MetadataEditError && over.error.violation.code).toBe('metadata_too_large');
    const gone = states.get(missing);
    expect(gone?.status === 'failed' && gone.error instanceof ApiError && gone.error.code).toBe('not_found');
    expect(states.get(same)?.status).toBe('unchanged');
    expect(states.get(keys[4] ?? '')?.status).toBe('ready');
    // A dry run: the object is the same version as before it.
    const after = await headObject(client, { zone, bucket, key: keys[0] ?? '' });
    expect(after.lastModifiedRaw).toBe(before.lastModifiedRaw);
    expect(after.metadata).toEqual(before.metadata);
  });

  it('refuses objects whose save would be incomplete (hidden headers) as blocked', async () => {
    const keys = await seed('preview-hidden/', 1);
    const states = new Map<string, BulkPreview>();
    await runBulkPreview(client, targetsOf(keys), { standard: { 'cache-control': 'no-cache' } }, { kind: 'listed', exposed: ['etag', 'last-modified'] }, (key, state) => states.set(key, state));
    const state = states.get(keys[0] ?? '');
    expect(state?.status === 'blocked' && state.block.kind).toBe('hidden-headers');
  });
});

describe('BulkGate', () => {
  const edits = { standard: { 'cache-control': 'max-age=5' } };

  it('pause lets the object in flight finish and starts no new one until resume', async () => {
    const keys = await seed('pause/', 4);
    const gate = new BulkGate();
    const log: string[] = [];
    const states = new Map<string, BulkItemState>();
    const run = runBulkEdit(client, targetsOf(keys), edits, visibility, (key, state) => {
      states.set(key, state);
      log.push(`${key}:${state.status}`);
      // Pause while the second object is being written.
      if (key === keys[1] && state.status === 'running') gate.pause();
    }, { concurrency: 1, gate });
    await vi.waitFor(() => expect(gate.waiting).toBe(1));
    expect(states.get(keys[1] ?? '')?.status).toBe('done');
    expect(states.has(keys[2] ?? '')).toBe(false);
    expect((await headObject(client, { zone, bucket, key: keys[2] ?? '' })).metadata.standard['cache-control']).toBeUndefined();
    gate.resume();
    await run;
    expect(keys.map((key) => states.get(key)?.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(log.indexOf(`${keys[2]}:running`)).toBeGreaterThan(log.indexOf(`${keys[1]}:done`));
  });

  it('cancel lets the object in flight finish and reports the rest as not started, leaving them untouched', async () => {
    const keys = await seed('cancel/', 5);
    const gate = new BulkGate();
    const states = new Map<string, BulkItemState>();
    await runBulkEdit(client, targetsOf(keys), edits, visibility, (key, state) => {
      states.set(key, state);
      if (key === keys[1] && state.status === 'running') gate.cancel();
    }, { concurrency: 1, gate });
    expect(keys.map((key) => states.get(key)?.status)).toEqual(['done', 'done', 'cancelled', 'cancelled', 'cancelled']);
    for (const key of keys.slice(2)) expect((await headObject(client, { zone, bucket, key })).metadata.standard['cache-control']).toBeUndefined();
  });

  it('cancel while paused releases the parked workers as not started', async () => {
    const keys = await seed('pause-cancel/', 3);
    const gate = new BulkGate();
    gate.pause();
    const states = new Map<string, BulkItemState>();
    const run = runBulkEdit(client, targetsOf(keys), edits, visibility, (key, state) => states.set(key, state), { concurrency: 2, gate });
    await vi.waitFor(() => expect(gate.waiting).toBe(2));
    gate.cancel();
    await run;
    expect(keys.map((key) => states.get(key)?.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });
});

describe('listPrefixKeys', () => {
  it('lists every object under the prefix and its subfolders, leaving out folder markers', async () => {
    const keys = await seed('listing/', 3);
    await createFolder(client, { zone, bucket, prefix: 'listing/sub/' });
    await putObject(client, { zone, bucket, key: 'listing/sub/deep.txt', body: 'd' });
    const pages: number[] = [];
    const result = await listPrefixKeys(client, { zone, bucket, prefix: 'listing/' }, { onPage: (count) => pages.push(count) });
    expect(result).toEqual({ keys: [...keys, 'listing/sub/deep.txt'], overCap: false });
    expect(pages.at(-1)).toBe(4);
  });

  it('stops and says so once the prefix holds more than the cap', async () => {
    await seed('capped/', 6);
    const result = await listPrefixKeys(client, { zone, bucket, prefix: 'capped/' }, { cap: 5 });
    expect(result.overCap).toBe(true);
    expect(result.keys).toHaveLength(5);
    expect((await listPrefixKeys(client, { zone, bucket, prefix: 'capped/' }, { cap: 6 })).overCap).toBe(false);
  });

  it('refuses an empty prefix (never a whole bucket)', async () => {
    await expect(listPrefixKeys(client, { zone, bucket, prefix: '' })).rejects.toThrow(RangeError);
  });
});
