import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { lifecycleIdle, lifecycleProgress } from '../store/index.ts';
import { buildRequest, errorOf, jsonOf, READER, send, sendRequest, testEmulator, WRITER } from './test-utils.ts';

const DAY = 86_400_000;
let em: Emulator;
let clock: { now: number };
beforeEach(async () => {
  clock = { now: Date.parse('2026-03-01T00:00:00Z') };
  em = await testEmulator({ now: () => new Date(clock.now) });
  const created = await send(em, 'PUT', '/lc-bucket', at());
  if (created.status !== 201) throw new Error(`creating the bucket answered ${created.status}`);
});

const at = () => ({ signedAt: new Date(clock.now) });
const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' }, ...at() });
const abortRule = (days: number, prefix = 'data/', id = 'abort-data') => ({ id, status: 'enabled', filter: { prefix }, abort_incomplete_multipart_upload: { days_after_initiation: days } });

async function initiate(key: string): Promise<string> {
  const response = await send(em, 'POST', `/lc-bucket/${key}?uploads`, at());
  expect(response.status).toBe(200);
  const body = await jsonOf(response);
  if (typeof body !== 'object' || body === null || !('upload_id' in body) || typeof body.upload_id !== 'string') throw new Error('no upload id');
  return body.upload_id;
}

async function uploadKeys(): Promise<string[]> {
  const response = await send(em, 'GET', '/lc-bucket?uploads', at());
  expect(response.status).toBe(200);
  const body = (await response.json()) as { uploads: { key: string }[] };
  return body.uploads.map((u) => u.key);
}

describe('bucket lifecycle (ref §9.10)', () => {
  it('GET answers an empty rule list until rules are written; PUT replaces them; DELETE removes them', async () => {
    expect(await jsonOf(await send(em, 'GET', '/lc-bucket?lifecycle', at()))).toEqual({ rule: [] });
    const rules = [abortRule(3), { id: 'logs', status: 'disabled', filter: { prefix: 'logs/' }, expiration: { days: 90 } }, { id: 'cold', status: 'enabled', filter: { prefix: 'data/' }, transition: { storage_class: 'STANDARD_IA', days: 30 } }];
    const put = await send(em, 'PUT', '/lc-bucket?lifecycle', json({ rule: rules }));
    expect(put.status).toBe(200);
    expect(await jsonOf(await send(em, 'GET', 'https://lc-bucket.pek3a.qingstor.com/?lifecycle', at()))).toEqual({ rule: rules });
    expect((await send(em, 'PUT', '/lc-bucket?lifecycle', json({ rule: [abortRule(7, '')] }))).status).toBe(200);
    expect(await jsonOf(await send(em, 'GET', '/lc-bucket?lifecycle', at()))).toEqual({ rule: [abortRule(7, '')] });
    expect((await send(em, 'DELETE', '/lc-bucket?lifecycle', at())).status).toBe(204);
    expect(await jsonOf(await send(em, 'GET', '/lc-bucket?lifecycle', at()))).toEqual({ rule: [] });
  });

  it('refuses malformed rules with QingStor errors, and anyone but the owner', async () => {
    const bad = [
      { rule: [{ ...abortRule(3), expiration: { days: 1 } }] }, // two actions
      { rule: [{ id: 'none', status: 'enabled', filter: {} }] }, // no action
      { rule: [abortRule(3), abortRule(5, 'data/', 'other-id')] }, // same prefix and action
      { rule: [abortRule(3), { ...abortRule(5, 'x/'), id: 'abort-data' }] }, // repeated id
      { rule: [abortRule(0)] },
      { rule: [abortRule(1.5)] },
      { rule: [{ ...abortRule(3), status: 'on' }] },
      { rule: [{ id: 't', status: 'enabled', filter: {}, transition: { storage_class: 'GLACIER' } }] },
      { rule: Array.from({ length: 101 }, (_, i) => abortRule(3, `p${i}/`, `r${i}`)) },
      {},
    ];
    for (const body of bad) {
      const refused = await errorOf(await send(em, 'PUT', '/lc-bucket?lifecycle', json(body)));
      expect({ body: JSON.stringify(body).slice(0, 80), ...refused }).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    expect(await errorOf(await send(em, 'PUT', '/lc-bucket?lifecycle', { body: '{', headers: { 'content-type': 'application/json' }, ...at() }))).toMatchObject({ status: 400, code: 'invalid_json' });
    em.store.putBucketAcl('lc-bucket', [{ grantee: { type: 'user', id: WRITER.id }, permission: 'FULL_CONTROL' }, { grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    expect(await errorOf(await send(em, 'PUT', '/lc-bucket?lifecycle', { ...json({ rule: [] }), as: WRITER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'GET', '/lc-bucket?lifecycle', { as: READER, ...at() }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'DELETE', '/lc-bucket?lifecycle', { as: 'anonymous', ...at() }))).toMatchObject({ status: 403 });
    expect(await errorOf(await send(em, 'GET', '/nope?lifecycle', at()))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    // lifecycle is a bucket sub-resource only: on an object it never deletes the object
    expect((await send(em, 'PUT', '/lc-bucket/keep.txt', { body: 'x', ...at() })).status).toBe(201);
    expect(await errorOf(await send(em, 'DELETE', '/lc-bucket/keep.txt?lifecycle', at()))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(em.store.findBucket('lc-bucket')?.lifecycle).toBeNull();
  });

  it('aborts incomplete uploads under the prefix once they are older than the rule, never before the rule is 24 hours old', async () => {
    await initiate('data/old.bin');
    clock.now += 2 * DAY;
    await initiate('data/young.bin');
    await initiate('other/old.bin');
    expect((await send(em, 'PUT', '/lc-bucket?lifecycle', json({ rule: [abortRule(2)] }))).status).toBe(200);
    // data/old.bin is 2 days old, but the rule was written just now: it acts from 24 hours on.
    clock.now += DAY - 1000;
    expect(await uploadKeys()).toEqual(['data/old.bin', 'data/young.bin', 'other/old.bin']);
    clock.now += 1000;
    expect(await uploadKeys()).toEqual(['data/young.bin', 'other/old.bin']);
    clock.now += DAY; // data/young.bin is now 2 days old
    expect(await uploadKeys()).toEqual(['other/old.bin']);
    const aborted = await send(em, 'GET', '/lc-bucket/data/old.bin?upload_id=00000000000000000000000000000000', at());
    expect(aborted.status).toBe(404);
  });

  it('a disabled rule does nothing; expiration deletes objects last modified before its days', async () => {
    expect((await send(em, 'PUT', '/lc-bucket/logs/a.log', { body: 'a', ...at() })).status).toBe(201);
    await initiate('data/x.bin');
    expect((await send(em, 'PUT', '/lc-bucket?lifecycle', json({ rule: [{ ...abortRule(1), status: 'disabled' }, { id: 'logs', status: 'enabled', filter: { prefix: 'logs/' }, expiration: { days: 2 } }] }))).status).toBe(200);
    clock.now += DAY + 1000;
    expect((await send(em, 'PUT', '/lc-bucket/logs/b.log', { body: 'b', ...at() })).status).toBe(201);
    clock.now += DAY; // a.log is 2 days old, b.log 1 day
    const list = await send(em, 'GET', '/lc-bucket?prefix=logs/', at());
    expect(((await list.json()) as { keys: { key: string }[] }).keys.map((k) => k.key)).toEqual(['logs/b.log']);
    expect(await uploadKeys()).toEqual(['data/x.bin']);
  });
});

describe('lifecycle work stays off the request path', () => {
  it('100 rules over 100,000 objects: done in bounded slices, another bucket answered within 100 ms throughout, and the rules take effect', async () => {
    const old = new Date(clock.now - 60 * DAY);
    const young = new Date(clock.now);
    em.store.createBucket({ name: 'lc-big', zone: 'pek3a', ownerId: 'usr-owner001' });
    const entries = [];
    for (let i = 0; i < 100_000; i += 1) {
      const rule = String(i % 100).padStart(2, '0');
      entries.push({ key: `p${rule}/obj-${String(i).padStart(6, '0')}`, lastModified: i % 2 === 0 ? old : young });
    }
    em.store.bulkLoad('lc-big', entries);
    em.store.putBucketLifecycle('lc-big', Array.from({ length: 100 }, (_, r) => ({ id: `r${r}`, status: 'enabled' as const, filter: { prefix: `p${String(r).padStart(2, '0')}/` }, expiration: { days: 30 } })));
    clock.now += 2 * DAY;

    // Requests are signed before they are timed: the figure is the emulator's answer, not the test's HMAC.
    const other = async (): Promise<number> => {
      // A request reaches a server as an I/O event, a turn of the event loop of its own. Sent in a bare loop of
      // promises (each answered from the emulator's signature cache without a macrotask) the requests would
      // never let the timers that run the sweep's slices have a turn, and the loop below would never end.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const request = await buildRequest('GET', '/lc-bucket?limit=1', at());
      const started = performance.now();
      const response = await sendRequest(em, request);
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    const trigger = await buildRequest('GET', '/lc-big?limit=1', at());
    const triggered = performance.now();
    const first = sendRequest(em, trigger);
    const latencies: number[] = [];
    latencies.push(await other());
    expect((await first).status).toBe(200);
    const triggerMs = performance.now() - triggered;
    while (lifecycleProgress(em.store).running > 0) latencies.push(await other());
    await lifecycleIdle(em.store);

    const progress = lifecycleProgress(em.store);
    // What keeps every request prompt, measured so that a loaded machine cannot blur it: the work ran in
    // many slices, none listing more than 1,000 entries or using 100 ms of CPU (a slice aims at 10 ms),
    // and other requests were answered between them.
    expect(progress.slices).toBeGreaterThan(50);
    expect(progress.maxSliceEntries).toBeLessThanOrEqual(1000);
    expect(progress.longestSliceCpuMs).toBeLessThan(100);
    expect(latencies.length).toBeGreaterThan(5);
    // The requests themselves: typically well under 100 ms (wall time, so a machine busy with other work may
    // hold one back now and then; a sweep done in one go held another bucket's request for 600 ms here).
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
    expect(triggerMs).toBeLessThan(1000);
    // The rules took effect: every old object is gone, every young one is there.
    expect(progress.expiredObjects).toBe(50_000);
    expect(em.store.getBucketStatistics('lc-big').count).toBe(50_000);
    expect(em.store.listObjects('lc-big', { prefix: 'p07/', limit: 3 }).keys.map((k) => k.key)).toEqual(['p07/obj-000007', 'p07/obj-000107', 'p07/obj-000207']);
  }, 60_000);

  it('a sweep under way stops when the rules change, and the new rules act on the next due request', async () => {
    em.store.createBucket({ name: 'lc-change', zone: 'pek3a', ownerId: 'usr-owner001' });
    const old = new Date(clock.now - 60 * DAY);
    em.store.bulkLoad('lc-change', Array.from({ length: 20_000 }, (_, i) => ({ key: `a/${String(i).padStart(6, '0')}`, lastModified: old })));
    em.store.putBucketLifecycle('lc-change', [{ id: 'all', status: 'enabled', filter: { prefix: 'a/' }, expiration: { days: 30 } }]);
    clock.now += 2 * DAY;
    expect((await send(em, 'GET', '/lc-change?limit=1', at())).status).toBe(200);
    expect(lifecycleProgress(em.store).running).toBe(1);
    em.store.putBucketLifecycle('lc-change', [{ id: 'none', status: 'disabled', filter: { prefix: 'a/' }, expiration: { days: 30 } }]);
    await lifecycleIdle(em.store);
    const left = em.store.getBucketStatistics('lc-change').count;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(20_000);
    clock.now += 2 * DAY;
    expect((await send(em, 'GET', '/lc-change?limit=1', at())).status).toBe(200);
    await lifecycleIdle(em.store);
    expect(em.store.getBucketStatistics('lc-change').count).toBe(left);
  });
});
