import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import { createMainThreadHasher } from './hasher.ts';
import { IntegrityError } from './integrity.ts';
import { ResumeMismatchError } from './multipart-model.ts';
import { markFreeKeys } from './conflicts.ts';
import { planBatch, type BatchInput } from './plan-batch.ts';
import type { UploadPorts } from './ports.ts';
import type { UploadQueueOptions } from './queue-model.ts';
import { createUploadQueue } from './queue.ts';
import { createMemoryResumeStore } from './resume-store.ts';
import { FakeServer, ManualClock, apiError, bytes, fileOf, flush, md5Hex } from './test-fakes.ts';

const hasher = createMainThreadHasher();

function setup(overrides: Partial<UploadQueueOptions> = {}) {
  const server = new FakeServer();
  const clock = new ManualClock();
  const resumeStore = createMemoryResumeStore();
  const queue = createUploadQueue({
    ports: server,
    hasher: { ...hasher, dispose: () => undefined },
    resumeStore,
    clock,
    random: () => 0.5,
    concurrency: 2,
    partConcurrency: 2,
    partPlan: { minPartSize: 4, partSize: 8 },
    retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 },
    ...overrides,
  });
  let notifications = 0;
  queue.subscribe(() => (notifications += 1));
  return { server, clock, queue, resumeStore, notifications: () => notifications };
}

/** A planned batch whose keys the conflict check found free (form uploads post to them directly). */
function freshBatch(input: BatchInput) {
  return markFreeKeys(planBatch(input).uploads, []);
}

function gate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function files(n: number, size = 10) {
  return Array.from({ length: n }, (_, i) => ({ file: fileOf(bytes(size, i + 1), `f${i}.txt`), relativePath: `dir/f${i}.txt` }));
}

async function settle(queue: { idle(): Promise<void> }, clock: ManualClock): Promise<void> {
  const state = { idle: false };
  void queue.idle().then(() => (state.idle = true));
  // Hashing (wasm) takes real time, not only microtasks: keep turning the clock until the queue is idle,
  // bounded by wall time rather than by a count of turns that a loaded machine can outrun.
  const deadline = Date.now() + 20_000;
  while (!state.idle && Date.now() < deadline) {
    await flush(5);
    clock.advance(1000);
  }
  expect(state.idle).toBe(true);
}

describe('form uploads are verified, and a failed check leaves the bucket as it was', () => {
  it('a free key: a byte changed in transit fails the item with both values, the changed copy is removed, no automatic retry; Retry stores the right bytes', async () => {
    const { server, clock, queue } = setup();
    server.corrupt = (call) => call.op === 'postObject' && call.attempt === 1;
    const file = fileOf(bytes(10, 7), 'a.txt');
    const [id] = queue.add(freshBatch({ files: [{ file, relativePath: 'a.txt' }], bucket: 'b', prefix: '' }));
    await settle(queue, clock);
    const failed = queue.getSnapshot().items[0];
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toBeInstanceOf(IntegrityError);
    const expected = md5Hex(bytes(10, 7));
    expect(failed?.error).toMatchObject({ expected, outcome: 'removed' });
    const error = failed?.error;
    if (!(error instanceof IntegrityError)) throw new Error('IntegrityError expected');
    expect(error.received).not.toBe(expected);
    // Nothing is left: not under the key, not under the name it was moved to before being deleted.
    expect([...server.objects.keys()]).toEqual([]);
    expect(server.calls.filter((c) => c.op === 'postObject')).toHaveLength(1);

    queue.retry(id ?? '');
    await settle(queue, clock);
    const done = queue.getSnapshot().items[0];
    expect(done?.state).toBe('done');
    expect(done?.etag).toBe(`"${expected}"`);
    expect(server.objects.get('a.txt')?.data).toEqual(bytes(10, 7));
  });

  it('a free key written by another writer after the changed copy: theirs is left as it is', async () => {
    const { server, clock, queue } = setup();
    server.corrupt = (call) => call.op === 'postObject';
    const theirs = { data: bytes(3, 9), etag: md5Hex(bytes(3, 9)), metadata: undefined };
    // Their write lands between our post and our clean-up.
    server.hold = (call) => {
      if (call.op === 'move') server.objects.set('a.txt', theirs);
      return undefined;
    };
    queue.add(freshBatch({ files: [{ file: fileOf(bytes(10, 7), 'a.txt'), relativePath: 'a.txt' }], bucket: 'b', prefix: '' }));
    await settle(queue, clock);
    expect(queue.getSnapshot().items[0]?.error).toMatchObject({ name: 'IntegrityError', outcome: 'replacedSince' });
    expect(server.objects.get('a.txt')).toBe(theirs);
    expect([...server.objects.keys()]).toEqual(['a.txt']);
  });

  it('a key that holds an object: the file goes to a staging key and moves over only with the right bytes; a changed copy never touches the key', async () => {
    const { server, clock, queue } = setup();
    const earlier = { data: bytes(4, 3), etag: md5Hex(bytes(4, 3)), metadata: undefined };
    server.objects.set('a.txt', earlier);
    // Each attempt stages under a new name: the first post of all is the one changed.
    server.corrupt = (call) => call.op === 'postObject' && server.count('postObject') === 1;
    const [id] = queue.add(planBatch({ files: [{ file: fileOf(bytes(10, 7), 'a.txt'), relativePath: 'a.txt' }], bucket: 'b', prefix: '' }).uploads);
    await settle(queue, clock);
    const failed = queue.getSnapshot().items[0];
    expect(failed?.error).toMatchObject({ name: 'IntegrityError', expected: md5Hex(bytes(10, 7)), outcome: 'untouched' });
    // The earlier version is there, and only it: the staging key was deleted.
    expect(server.objects.get('a.txt')).toBe(earlier);
    expect([...server.objects.keys()]).toEqual(['a.txt']);
    const staged = server.calls.find((c) => c.op === 'postObject')?.key ?? '';
    expect(staged).toMatch(/^\.a\.txt\.[0-9a-f]{16}\.uploading$/);
    expect(server.calls.filter((c) => c.op === 'move')).toHaveLength(0);

    queue.retry(id ?? '');
    await settle(queue, clock);
    expect(queue.getSnapshot().items[0]).toMatchObject({ state: 'done', etag: `"${md5Hex(bytes(10, 7))}"` });
    expect(server.objects.get('a.txt')?.data).toEqual(bytes(10, 7));
    expect([...server.objects.keys()]).toEqual(['a.txt']);
  });

  it('staged without a readable ETag: the server\'s conditional move still checks the bytes, both ways', async () => {
    const { server, clock, queue } = setup();
    server.hideEtag = true;
    server.corrupt = (call) => call.op === 'postObject' && call.key.includes('bad');
    queue.add(planBatch({ files: [{ file: fileOf(bytes(10, 1), 'good.txt'), relativePath: 'good.txt' }, { file: fileOf(bytes(10, 2), 'bad.txt'), relativePath: 'bad.txt' }], bucket: 'b', prefix: '' }).uploads);
    await settle(queue, clock);
    const [good, bad] = queue.getSnapshot().items;
    expect(good).toMatchObject({ state: 'done', etag: `"${md5Hex(bytes(10, 1))}"` });
    expect(bad?.error).toMatchObject({ name: 'IntegrityError', received: '', outcome: 'untouched' });
    expect([...server.objects.keys()]).toEqual(['good.txt']);
  });

  it('a cancel after the staged post deletes the staging key', async () => {
    const { server, clock, queue } = setup();
    const g = gate();
    server.hold = (call) => (call.op === 'move' ? g.promise : undefined);
    const [id = ''] = queue.add(planBatch({ files: [{ file: fileOf(bytes(10, 1), 'a.txt'), relativePath: 'a.txt' }], bucket: 'b', prefix: '' }).uploads);
    await vi.waitFor(() => expect(server.count('move')).toBe(1));
    await queue.cancel(id);
    await settle(queue, clock);
    expect(queue.getSnapshot().items[0]?.state).toBe('cancelled');
    expect([...server.objects.keys()]).toEqual([]);
  });

  it('a free key answered without a readable ETag cannot be verified and fails, saying so', async () => {
    const { server, clock, queue } = setup();
    server.hideEtag = true;
    queue.add(freshBatch({ files: files(1), bucket: 'b', prefix: '' }));
    await settle(queue, clock);
    const item = queue.getSnapshot().items[0];
    expect(item?.state).toBe('failed');
    expect(item?.error).toMatchObject({ name: 'IntegrityError', received: '', outcome: 'unverified' });
    expect(item?.error?.message).toContain('could not be verified');
  });
});

describe('the upload queue', () => {
  it('tells onDone once per finished item, with its final snapshot; a failure is not reported', async () => {
    const done: Array<{ key: string; state: string; etag: string | undefined }> = [];
    const { server, clock, queue } = setup({ onDone: (item) => done.push({ key: item.key, state: item.state, etag: item.etag }) });
    server.corrupt = (call) => call.op === 'postObject' && call.attempt === 1 && call.key === 'dir/f0.txt';
    const [first] = queue.add(freshBatch({ files: files(2), bucket: 'b', prefix: '' }));
    await settle(queue, clock);
    expect(done.map((d) => d.key)).toEqual(['dir/f1.txt']);
    queue.retry(first ?? '');
    await settle(queue, clock);
    expect(done).toEqual([
      { key: 'dir/f1.txt', state: 'done', etag: `"${md5Hex(bytes(10, 2))}"` },
      { key: 'dir/f0.txt', state: 'done', etag: `"${md5Hex(bytes(10, 1))}"` },
    ]);
  });

  it('runs at most `concurrency` items at once and starts the next when one finishes', async () => {
    const { server, clock, queue } = setup();
    const g = gate();
    server.hold = (call) => (call.op === 'postObject' ? g.promise : undefined);
    const ids = queue.add(freshBatch({ files: files(5), bucket: 'b', prefix: 'up/' }));
    await flush();
    expect(queue.getSnapshot().totals.counts).toMatchObject({ running: 2, queued: 3 });
    expect(server.inFlight).toBe(2);
    queue.setConcurrency(3);
    await flush();
    expect(server.inFlight).toBe(3);
    g.open();
    await settle(queue, clock);
    const snap = queue.getSnapshot();
    expect(snap.totals.counts.done).toBe(5);
    expect(server.maxInFlight).toBe(3);
    expect(snap.items.map((i) => i.id)).toEqual(ids);
    expect(snap.items.map((i) => i.key)).toEqual(['up/dir/f0.txt', 'up/dir/f1.txt', 'up/dir/f2.txt', 'up/dir/f3.txt', 'up/dir/f4.txt']);
    expect(snap.items[0]?.etag).toBe(`"${md5Hex(bytes(10, 1))}"`);
  });

  it('sends at most `partConcurrency` parts of a multipart file at once; setPartConcurrency applies to the next transfer', async () => {
    const { server, clock, queue } = setup({ concurrency: 1, partConcurrency: 2 });
    // Every part is held until the test releases it. The test releases one only once the limit is reached
    // (or every remaining part is in flight): an engine that sent more would have more in flight by then.
    const held: (() => void)[] = [];
    server.hold = (call) => {
      if (call.op !== 'uploadPart') return undefined;
      const g = gate();
      held.push(g.open);
      return g.promise;
    };
    const drain = async (parts: number, limit: number): Promise<void> => {
      for (let remaining = parts; remaining > 0; remaining -= 1) {
        // Reading and hashing a part is real I/O: wait for the condition, bounded by wall time.
        await vi.waitFor(() => expect(held.length).toBe(Math.min(limit, remaining)), { timeout: 10_000 });
        held.shift()?.();
      }
    };
    const big = (name: string, seed: number) => ({ file: fileOf(bytes(50, seed), name), relativePath: name });
    queue.add(freshBatch({ files: [big('a.bin', 1)], bucket: 'b', multipartThreshold: 40 }));
    await drain(7, 2); // 50 bytes in parts of 8: 7 parts
    await settle(queue, clock);
    expect(server.maxInFlight).toBe(2);

    queue.setPartConcurrency(5);
    server.maxInFlight = 0;
    queue.add(freshBatch({ files: [big('b.bin', 2)], bucket: 'b', multipartThreshold: 40 }));
    await drain(7, 5);
    await settle(queue, clock);
    expect(server.maxInFlight).toBe(5);
    expect(queue.getSnapshot().items.map((i) => i.state)).toEqual(['done', 'done']);
  });

  it('aggregates bytes of form and multipart items, and reports per-item multipart detail', async () => {
    const { server, clock, queue } = setup();
    const plan = planBatch({ files: [...files(2, 10), { file: fileOf(bytes(50, 9), 'big.bin'), relativePath: 'big.bin' }], bucket: 'b', multipartThreshold: 40 });
    expect(plan.uploads.map((u) => u.kind)).toEqual(['form', 'form', 'multipart']);
    queue.add(plan.uploads);
    expect(queue.getSnapshot().totals).toMatchObject({ bytesSent: 0, bytesTotal: 70 });
    await settle(queue, clock);
    const snap = queue.getSnapshot();
    expect(snap.totals).toMatchObject({ bytesSent: 70, bytesTotal: 70, counts: { done: 3 } });
    expect(snap.items[2]).toMatchObject({ kind: 'multipart', state: 'done', bytesSent: 50, etag: `"${md5Hex(bytes(50, 9))}"`, multipart: { partCount: 7, partsDone: 7, uploadId: 'upload-1' } });
    expect(Buffer.from(server.objects.get('big.bin')?.data ?? []).equals(Buffer.from(bytes(50, 9)))).toBe(true);
  });

  it('keeps snapshots immutable and stable: same object until something changes, unchanged items keep identity', async () => {
    const { server, clock, queue } = setup({ concurrency: 1 });
    const g = gate();
    server.hold = (call) => (call.op === 'postObject' && call.key === 'dir/f1.txt' ? g.promise : undefined);
    queue.add(freshBatch({ files: files(2), bucket: 'b' }));
    const a = queue.getSnapshot();
    expect(queue.getSnapshot()).toBe(a);
    await flush();
    const b = queue.getSnapshot();
    expect(b).not.toBe(a);
    expect(b.items[0]?.state).toBe('done');
    expect(b.items[1]?.state).toBe('running');
    // The older snapshot still shows the past: item 0 running, item 1 queued.
    expect(a.items.map((i) => i.state)).toEqual(['running', 'queued']);
    const c = queue.getSnapshot();
    expect(c).toBe(b);
    g.open();
    await settle(queue, clock);
    const d = queue.getSnapshot();
    expect(d.items[0]).toBe(b.items[0]);
    expect(d.items[1]).not.toBe(b.items[1]);
  });

  it('throttles progress notifications; state changes notify promptly', async () => {
    let report: ((loaded: number) => void) | undefined;
    const finish = gate();
    const ports: UploadPorts = {
      ...new FakeServer(),
      postObject: async (input) => {
        report = (loaded) => input.onProgress?.({ loaded, total: 1000 });
        await finish.promise;
        return { etag: `"${md5Hex(bytes(1000))}"`, requestId: 'r' };
      },
    } as UploadPorts;
    const { clock, queue, notifications } = setup({ ports, notifyIntervalMs: 200 });
    queue.add(freshBatch({ files: [{ file: fileOf(bytes(1000)), relativePath: 'a' }], bucket: 'b' }));
    await flush();
    const afterStart = notifications();
    expect(afterStart).toBeGreaterThanOrEqual(1);
    for (let i = 1; i <= 1000; i += 1) report?.(i);
    expect(notifications()).toBe(afterStart);
    clock.advance(199);
    expect(notifications()).toBe(afterStart);
    clock.advance(1);
    expect(notifications()).toBe(afterStart + 1);
    expect(queue.getSnapshot().items[0]?.bytesSent).toBe(1000);
    for (let i = 0; i < 1000; i += 1) report?.(1000);
    clock.advance(1000);
    expect(notifications()).toBe(afterStart + 2);
    finish.open();
    await flush();
    expect(notifications()).toBe(afterStart + 3);
    expect(queue.getSnapshot().items[0]?.state).toBe('done');
  });

  it('shows the bytes of a part still in flight: progress inside a part reaches the item and the totals', async () => {
    const server = new FakeServer();
    const release = gate();
    let reported = false;
    const ports: UploadPorts = Object.assign(Object.create(server) as FakeServer, {
      uploadPart: async (...args: Parameters<UploadPorts['uploadPart']>) => {
        const [input] = args;
        if (input.partNumber !== 0) return server.uploadPart(...args);
        // Part 0 (8 bytes) reports 3 of its bytes sent, then stays in flight until released.
        input.onProgress?.({ loaded: 3, total: 8 });
        reported = true;
        await release.promise;
        return server.uploadPart(...args);
      },
    });
    const { clock, queue } = setup({ ports, partConcurrency: 1, notifyIntervalMs: 200 });
    queue.add(freshBatch({ files: [{ file: fileOf(bytes(50, 4), 'big.bin'), relativePath: 'big.bin' }], bucket: 'b', multipartThreshold: 40 }));
    await vi.waitFor(() => expect(reported).toBe(true), { timeout: 10_000 });
    clock.advance(200);
    const item = queue.getSnapshot().items[0];
    expect(item).toMatchObject({ state: 'running', bytesSent: 3, bytesTotal: 50, multipart: { partsDone: 0 } });
    expect(queue.getSnapshot().totals).toMatchObject({ bytesSent: 3, bytesTotal: 50 });
    release.open();
    await settle(queue, clock);
    expect(queue.getSnapshot().items[0]).toMatchObject({ state: 'done', bytesSent: 50 });
  });

  it('measures speed as a moving average and derives the ETA', async () => {
    let report: ((loaded: number) => void) | undefined;
    const ports = {
      ...new FakeServer(),
      postObject: async (input: Parameters<UploadPorts['postObject']>[0]) => {
        report = (loaded) => input.onProgress?.({ loaded, total: 1000 });
        return new Promise<never>(() => undefined);
      },
    } as UploadPorts;
    const { clock, queue } = setup({ ports });
    queue.add(freshBatch({ files: [{ file: fileOf(bytes(1000)), relativePath: 'a' }], bucket: 'b' }));
    await flush();
    for (let t = 1; t <= 4; t += 1) {
      clock.advance(1000);
      report?.(t * 100);
    }
    const item = queue.getSnapshot().items[0];
    expect(item?.speed).toBeCloseTo(100, 5);
    expect(item?.eta).toBeCloseTo(6, 5);
    expect(queue.getSnapshot().totals.speed).toBeCloseTo(100, 5);
  });

  it('keeps the ApiError of a failure and retries failures on request', async () => {
    const { server, clock, queue } = setup();
    let deny = true;
    server.fail = (call) => (deny && call.op === 'postObject' ? apiError(403, 'permission_denied', 'PostObject') : undefined);
    const [id] = queue.add(freshBatch({ files: files(2), bucket: 'b' }));
    await settle(queue, clock);
    const failed = queue.getSnapshot().items[0];
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toBeInstanceOf(ApiError);
    expect(failed?.error).toMatchObject({ code: 'permission_denied', requestId: 'req-test', status: 403 });
    expect(server.count('postObject')).toBe(2); // no automatic retry of a 403

    deny = false;
    queue.retry(id ?? '');
    await settle(queue, clock);
    expect(queue.getSnapshot().totals.counts).toMatchObject({ done: 1, failed: 1 });
    queue.retryFailed();
    await settle(queue, clock);
    expect(queue.getSnapshot().totals.counts).toMatchObject({ done: 2, failed: 0 });
    expect(queue.getSnapshot().items.every((i) => i.error === undefined)).toBe(true);
  });

  it('retries a 503 on its own, with backoff', async () => {
    const { server, clock, queue } = setup();
    server.fail = (call) => (call.op === 'postObject' && call.attempt === 1 ? apiError(503, 'service_unavailable', 'PostObject') : undefined);
    queue.add(freshBatch({ files: files(1), bucket: 'b' }));
    await settle(queue, clock);
    expect(server.count('postObject')).toBe(2);
    expect(queue.getSnapshot().items[0]?.state).toBe('done');
  });

  it('cancels queued and running items; a running multipart upload is aborted on the server', async () => {
    const { server, clock, queue, resumeStore } = setup({ concurrency: 2 });
    server.hold = (call) => (call.op === 'uploadPart' || call.op === 'postObject' ? new Promise<void>(() => undefined) : undefined);
    const ids = queue.add(
      freshBatch({ files: [{ file: fileOf(bytes(50, 3), 'big.bin'), relativePath: 'big.bin' }, ...files(2)], bucket: 'b', multipartThreshold: 40 }),
    );
    await vi.waitFor(() => expect(server.count('uploadPart')).toBeGreaterThan(0), { timeout: 10_000 });
    expect(resumeStore.records.size).toBe(1);
    const [big = '', running = '', queued = ''] = ids;
    await queue.cancel(queued);
    await queue.cancel(running);
    await queue.cancel(big);
    await flush();
    const snap = queue.getSnapshot();
    expect(snap.items.map((i) => i.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(server.count('postObject')).toBe(1);
    expect(server.count('abort')).toBe(1);
    expect(server.uploads.size).toBe(0);
    expect(resumeStore.records.size).toBe(0);
    expect(snap.totals.bytesTotal).toBe(0);
    await settle(queue, clock);
  });

  it('a pause clicked while a cancel is being carried out changes nothing: the item ends cancelled, aborted on the server', async () => {
    const { server, clock, queue } = setup();
    server.hold = (call) => (call.op === 'uploadPart' ? new Promise<void>(() => undefined) : undefined);
    const [big = ''] = queue.add(freshBatch({ files: [{ file: fileOf(bytes(50, 3), 'big.bin'), relativePath: 'big.bin' }], bucket: 'b', multipartThreshold: 40 }));
    await vi.waitFor(() => expect(server.count('uploadPart')).toBeGreaterThan(0), { timeout: 10_000 });
    const cancelling = queue.cancel(big);
    queue.pause(big);
    await cancelling;
    await flush();
    expect(queue.getSnapshot().items.map((i) => i.state)).toEqual(['cancelled']);
    expect(server.count('abort')).toBe(1);
    queue.resume(big);
    expect(queue.getSnapshot().items.map((i) => i.state)).toEqual(['cancelled']);
    await settle(queue, clock);
  });

  it('pauses and resumes a multipart item; a paused item frees its slot', async () => {
    const { server, clock, queue } = setup({ concurrency: 1 });
    let holding = true;
    server.hold = (call) => (holding && call.op === 'uploadPart' && (call.partNumber ?? 0) >= 2 ? new Promise<void>(() => undefined) : undefined);
    const [big = '', small = ''] = queue.add(
      freshBatch({ files: [{ file: fileOf(bytes(50, 3), 'big.bin'), relativePath: 'big.bin' }, ...files(1)], bucket: 'b', multipartThreshold: 40 }),
    );
    await vi.waitFor(() => expect(queue.getSnapshot().items[0]?.multipart?.partsDone ?? 0).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    queue.pause(big);
    await flush();
    let snap = queue.getSnapshot();
    expect(snap.items[0]).toMatchObject({ state: 'paused', bytesSent: 16, multipart: { partsDone: 2 } });
    expect(snap.items.find((i) => i.id === small)?.state).toBe('done');

    holding = false;
    queue.resume(big);
    await settle(queue, clock);
    snap = queue.getSnapshot();
    expect(snap.items[0]).toMatchObject({ state: 'done', bytesSent: 50 });
    expect(server.count('uploadPart', 0)).toBe(1);
    expect(server.count('uploadPart', 1)).toBe(1);
    expect(server.count('initiate')).toBe(1);
  });

  it('resumes an upload picked in the inspector, and refuses a file that does not fit it', async () => {
    const { server, clock, queue } = setup();
    const data = bytes(50, 5);
    const uploadId = server.seedUpload('k');
    server.seedPart(uploadId, 0, data.slice(0, 8));
    server.seedPart(uploadId, 1, data.slice(8, 16));
    const wrong = queue.resumeRemote({ bucket: 'b', key: 'k', uploadId }, fileOf(bytes(12, 1), 'small.bin'));
    await settle(queue, clock);
    const refused = queue.getSnapshot().items.find((i) => i.id === wrong);
    expect(refused?.state).toBe('failed');
    expect(refused?.error).toBeInstanceOf(ResumeMismatchError);

    const right = queue.resumeRemote({ bucket: 'b', key: 'k', uploadId }, fileOf(data, 'big.bin'));
    await settle(queue, clock);
    expect(queue.getSnapshot().items.find((i) => i.id === right)).toMatchObject({ state: 'done', multipart: { partsReused: 2, partsDone: 7 } });
    expect(Buffer.from(server.objects.get('k')?.data ?? []).equals(Buffer.from(data))).toBe(true);
  });

  it('removes finished items and clears done ones', async () => {
    const { server, clock, queue } = setup();
    server.fail = (call) => (call.op === 'postObject' && call.key === 'dir/f0.txt' ? apiError(403, 'permission_denied') : undefined);
    const [first = ''] = queue.add(freshBatch({ files: files(3), bucket: 'b' }));
    await settle(queue, clock);
    queue.clearFinished();
    expect(queue.getSnapshot().items.map((i) => i.id)).toEqual([first]);
    queue.remove(first);
    expect(queue.getSnapshot().items).toEqual([]);
  });

  it('removes a queued item before it starts (it is never sent) and leaves a running one alone', async () => {
    const { server, clock, queue } = setup({ concurrency: 1 });
    const g = gate();
    server.hold = (call) => (call.op === 'postObject' ? g.promise : undefined);
    const [running = '', queued = '', last = ''] = queue.add(freshBatch({ files: files(3), bucket: 'b' }));
    await flush();
    expect(queue.getSnapshot().items.map((i) => i.state)).toEqual(['running', 'queued', 'queued']);
    queue.remove(queued);
    queue.remove(running);
    expect(queue.getSnapshot().items.map((i) => i.id)).toEqual([running, last]);
    expect(queue.getSnapshot().totals.bytesTotal).toBe(20);
    g.open();
    await settle(queue, clock);
    expect(queue.getSnapshot().items.map((i) => i.state)).toEqual(['done', 'done']);
    expect(server.calls.filter((c) => c.op === 'postObject').map((c) => c.key)).toEqual(['dir/f0.txt', 'dir/f2.txt']);
    expect(server.objects.has('dir/f1.txt')).toBe(false);
  });
});
