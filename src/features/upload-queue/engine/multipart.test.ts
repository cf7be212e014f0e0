import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import { fingerprintFile } from './fingerprint.ts';
import { createMainThreadHasher, type Md5Hasher } from './hasher.ts';
import { ResumeMismatchError, type MultipartDeps, type MultipartSpec } from './multipart-model.ts';
import { listAllParts } from './multipart-remote.ts';
import { MultipartUpload } from './multipart.ts';
import { createMemoryResumeStore } from './resume-store.ts';
import { FakeServer, ManualClock, apiError, bytes, fileOf, flush, md5Hex, networkError } from './test-fakes.ts';

const hasher = createMainThreadHasher();

function setup(overrides: Partial<MultipartDeps> = {}) {
  const server = new FakeServer();
  const clock = new ManualClock();
  const resumeStore = createMemoryResumeStore();
  const deps: MultipartDeps = {
    ports: server,
    hasher,
    resumeStore,
    scope: 'test',
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 },
    partConcurrency: 3,
    partPlan: { minPartSize: 4, partSize: 8 },
    sendContentMd5: true,
    ...overrides,
  };
  let changes = 0;
  const create = (spec: MultipartSpec) => new MultipartUpload(deps, spec, { onChange: () => (changes += 1), onNetworkBytes: () => undefined });
  return { server, clock, resumeStore, deps, create, changes: () => changes };
}

/** Lets the upload run, firing backoff timers, until it settles. */
async function drive<T>(promise: Promise<T>, clock: ManualClock): Promise<T> {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  // Bounded by wall time: hashing takes real time that a count of turns can outrun on a loaded machine.
  const deadline = Date.now() + 20_000;
  while (!state.settled && Date.now() < deadline) {
    await flush(5);
    clock.advance(1000);
  }
  return promise;
}

const DATA = bytes(50, 7); // 7 parts of 8 bytes, the last 2 bytes
const META = { standard: { 'content-type': 'text/plain' }, custom: { origin: 'test' } };

describe('a fresh multipart upload', () => {
  it('initiates with the metadata, sends parts in parallel within the limit, completes with the whole-file MD5', async () => {
    const { server, clock, resumeStore, create } = setup();
    // Keep each part in flight for a moment so parallel parts overlap.
    server.hold = (call) => (call.op === 'uploadPart' ? new Promise<void>((resolve) => setTimeout(resolve, 3)) : undefined);
    const task = create({ bucket: 'b', key: 'dir/big.bin', file: fileOf(DATA), metadata: META });
    const result = await drive(task.run(new AbortController().signal), clock);

    const stored = server.objects.get('dir/big.bin');
    expect(Buffer.from(stored?.data ?? []).equals(Buffer.from(DATA))).toBe(true);
    expect(result.etag).toBe(`"${md5Hex(DATA)}"`);
    expect(stored?.etag).toBe(md5Hex(DATA));
    expect(stored?.metadata).toEqual(META);
    expect(server.count('uploadPart')).toBe(7);
    expect(server.maxInFlight).toBe(3);
    expect(task.status).toMatchObject({ partCount: 7, partSize: 8, partsDone: 7, partsReused: 0, bytesSent: 50 });
    // The resume record exists only while the upload is unfinished.
    expect(resumeStore.records.size).toBe(0);
  });

  it('remembers the upload (id, fingerprint, part size, metadata) while it is in progress', async () => {
    const { server, clock, resumeStore, create } = setup();
    server.hold = (call) => (call.op === 'uploadPart' ? new Promise<void>(() => undefined) : undefined);
    const controller = new AbortController();
    const file = fileOf(DATA, 'big.bin');
    const run = create({ bucket: 'b', zone: 'pek3a', key: 'big.bin', file, metadata: META }).run(controller.signal);
    await flush();
    const [record] = resumeStore.records.values();
    expect(record).toMatchObject({ scope: 'test', bucket: 'b', zone: 'pek3a', key: 'big.bin', partSize: 8, metadata: META, uploadId: 'upload-1' });
    expect(record?.fingerprint).toEqual(await fingerprintFile(file, hasher));
    controller.abort(new DOMException('paused', 'AbortError'));
    await expect(drive(run, clock)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('per-part retry', () => {
  it('retries 5xx and network failures of a part with backoff, then completes', async () => {
    const { server, clock, create } = setup();
    server.fail = (call) => {
      if (call.op === 'uploadPart' && call.partNumber === 2 && call.attempt <= 2) return apiError(503, 'service_unavailable');
      if (call.op === 'uploadPart' && call.partNumber === 4 && call.attempt === 1) return networkError();
      return undefined;
    };
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    await drive(task.run(new AbortController().signal), clock);
    expect(server.count('uploadPart', 2)).toBe(3);
    expect(server.count('uploadPart', 4)).toBe(2);
    expect(server.count('uploadPart', 0)).toBe(1);
    expect(Buffer.from(server.objects.get('k')?.data ?? []).equals(Buffer.from(DATA))).toBe(true);
  });

  it('does not wait before the backoff delay has passed', async () => {
    const { server, clock, create } = setup({ partConcurrency: 1 });
    server.fail = (call) => (call.op === 'uploadPart' && call.partNumber === 0 && call.attempt === 1 ? apiError(500, 'internal_error') : undefined);
    const run = create({ bucket: 'b', key: 'k', file: fileOf(DATA) }).run(new AbortController().signal);
    await vi.waitFor(() => expect(server.count('uploadPart')).toBeGreaterThan(0), { timeout: 10_000 });
    await flush();
    expect(server.count('uploadPart', 0)).toBe(1);
    clock.advance(74); // first retry: 100 ms cap, equal jitter with random 0.5 → 75 ms
    await flush();
    expect(server.count('uploadPart', 0)).toBe(1);
    clock.advance(1);
    await flush();
    expect(server.count('uploadPart', 0)).toBe(2);
    await drive(run, clock);
  });

  it('fails at once on a 4xx and leaves the upload on the server for a later resume', async () => {
    const { server, clock, create } = setup();
    server.fail = (call) => (call.op === 'uploadPart' && call.partNumber === 3 ? apiError(403, 'permission_denied') : undefined);
    const error = await drive(create({ bucket: 'b', key: 'k', file: fileOf(DATA) }).run(new AbortController().signal), clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'permission_denied', requestId: 'req-test' });
    expect(server.count('uploadPart', 3)).toBe(1);
    expect(server.count('complete')).toBe(0);
    expect(server.uploads.size).toBe(1);
  });

  it('gives up on a part after maxAttempts', async () => {
    const { server, clock, create } = setup();
    server.fail = (call) => (call.op === 'uploadPart' && call.partNumber === 1 ? apiError(500, 'internal_error') : undefined);
    await expect(drive(create({ bucket: 'b', key: 'k', file: fileOf(DATA) }).run(new AbortController().signal), clock)).rejects.toMatchObject({ code: 'internal_error' });
    expect(server.count('uploadPart', 1)).toBe(4);
  });
});

describe('pause and resume', () => {
  it('keeps confirmed parts across a pause and sends only the rest', async () => {
    const { server, clock, create } = setup({ partConcurrency: 2 });
    let holding = true;
    server.hold = (call) => (holding && call.op === 'uploadPart' && (call.partNumber ?? 0) >= 3 ? new Promise<void>(() => undefined) : undefined);
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    const first = new AbortController();
    const run = task.run(first.signal);
    await vi.waitFor(() => expect(task.status.partsDone).toBe(3), { timeout: 10_000 });
    expect(task.status.partsDone).toBe(3);
    first.abort(new DOMException('paused', 'AbortError'));
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(task.status).toMatchObject({ partsDone: 3, bytesSent: 24 });
    expect([...(server.uploads.get('upload-1')?.parts.keys() ?? [])].sort()).toEqual([0, 1, 2]);

    holding = false;
    await drive(task.run(new AbortController().signal), clock);
    for (const n of [0, 1, 2]) expect(server.count('uploadPart', n)).toBe(1);
    for (const n of [5, 6]) expect(server.count('uploadPart', n)).toBe(1);
    expect(server.count('initiate')).toBe(1);
    expect(Buffer.from(server.objects.get('k')?.data ?? []).equals(Buffer.from(DATA))).toBe(true);
  });
});

describe('a Complete whose answer was lost', () => {
  /**
   * The server completes the upload (then `afterServerCompletes` runs), and the client's run is paused
   * before the answer arrives.
   */
  function loseFirstCompleteAnswer(server: FakeServer, pause: AbortController, afterServerCompletes: () => void = () => undefined) {
    const real = server.completeMultipartUpload;
    let first = true;
    server.completeMultipartUpload = async (input, signal) => {
      if (!first) return real(input, signal);
      first = false;
      await real(input, new AbortController().signal);
      afterServerCompletes();
      pause.abort(new DOMException('paused', 'AbortError'));
      throw pause.signal.reason;
    };
  }

  it('resuming finds the object by its ETag and size, and finishes without sending anything again', async () => {
    const { server, clock, resumeStore, create } = setup();
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    const pause = new AbortController();
    loseFirstCompleteAnswer(server, pause);
    await expect(drive(task.run(pause.signal), clock)).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.uploads.size).toBe(0); // the server did complete

    const result = await drive(task.run(new AbortController().signal), clock);
    expect(result.etag).toBe(`"${md5Hex(DATA)}"`);
    expect(server.count('uploadPart')).toBe(7);
    expect(server.count('complete')).toBe(2);
    expect(server.count('head')).toBe(1);
    expect(await resumeStore.list('test')).toEqual([]);
  });

  it('still reports upload_not_exists when the object there is not this file (aborted elsewhere, then overwritten)', async () => {
    const { server, clock, create } = setup();
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    const pause = new AbortController();
    loseFirstCompleteAnswer(server, pause, () => {
      server.objects.set('k', { data: bytes(50, 1), etag: md5Hex(bytes(50, 1)), metadata: undefined }); // someone else's object
    });
    await expect(drive(task.run(pause.signal), clock)).rejects.toMatchObject({ name: 'AbortError' });
    await expect(drive(task.run(new AbortController().signal), clock)).rejects.toMatchObject({ code: 'upload_not_exists' });
    expect(server.count('head')).toBe(1);
  });

  it('a first Complete answered upload_not_exists is reported as is, without a HEAD', async () => {
    const { server, clock, create } = setup();
    server.fail = (call) => (call.op === 'complete' ? apiError(404, 'upload_not_exists', 'CompleteMultipartUpload') : undefined);
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    await expect(drive(task.run(new AbortController().signal), clock)).rejects.toMatchObject({ code: 'upload_not_exists' });
    expect(server.count('head')).toBe(0);
  });
});

describe('resuming an upload from its parts on the server', () => {
  it('pages through the parts with part_number_marker until a short page', async () => {
    const server = new FakeServer();
    const uploadId = server.seedUpload('k');
    for (const n of [0, 1, 2, 3]) server.seedPart(uploadId, n, bytes(8, n + 1));
    const parts = await listAllParts(server, { bucket: 'b', key: 'k', uploadId }, new AbortController().signal, 2);
    expect(parts.map((p) => p.partNumber)).toEqual([0, 1, 2, 3]);
    expect(server.count('listParts')).toBe(3); // 2 + 2 + an empty page
  });

  it('stops when a server answers every marker with the same full page instead of paging forever', async () => {
    let calls = 0;
    const stuck = new FakeServer();
    stuck.listParts = () => {
      calls += 1;
      if (calls > 10) return Promise.reject(new Error('still paging'));
      return Promise.resolve({ parts: [{ partNumber: 0, size: 8, etag: '"a"' }, { partNumber: 1, size: 8, etag: '"b"' }] });
    };
    const parts = await listAllParts(stuck, { bucket: 'b', key: 'k', uploadId: 'u' }, new AbortController().signal, 2);
    expect(calls).toBe(2);
    expect(parts.map((p) => p.partNumber)).toEqual([0, 1, 0, 1]);
  });

  it('uploads only missing parts and parts whose ETag differs, then completes', async () => {
    const { server, clock, create } = setup();
    const uploadId = server.seedUpload('k', META);
    for (const n of [0, 1, 5]) server.seedPart(uploadId, n, DATA.slice(n * 8, n * 8 + 8));
    server.seedPart(uploadId, 3, bytes(8, 99)); // same size, other bytes
    const upload = server.uploads.get(uploadId);
    // Upper-case and quoted ETags still compare equal (ref §8.4).
    const part0 = upload?.parts.get(0);
    if (part0) part0.etag = `"${part0.etag.toUpperCase()}"`;

    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA), uploadId });
    const result = await drive(task.run(new AbortController().signal), clock);
    expect(server.calls.filter((c) => c.op === 'uploadPart').map((c) => c.partNumber).sort()).toEqual([2, 3, 4, 6]);
    expect(server.count('initiate')).toBe(0);
    expect(task.status).toMatchObject({ partsDone: 7, partsReused: 3 });
    expect(result.etag).toBe(`"${md5Hex(DATA)}"`);
    expect(Buffer.from(server.objects.get('k')?.data ?? []).equals(Buffer.from(DATA))).toBe(true);
    expect(server.objects.get('k')?.metadata).toEqual(META);
  });

  it('refuses a local file whose size does not fit the uploaded parts', async () => {
    const { server, clock, create } = setup();
    const uploadId = server.seedUpload('k');
    server.seedPart(uploadId, 0, DATA.slice(0, 8));
    server.seedPart(uploadId, 6, DATA.slice(48, 50));
    const wrong = fileOf(bytes(60, 3), 'other.bin');
    const error = await drive(create({ bucket: 'b', key: 'k', file: wrong, uploadId }).run(new AbortController().signal), clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeMismatchError);
    expect(String(error)).toMatch(/does not match upload/);
    expect(server.count('uploadPart')).toBe(0);
    expect(server.uploads.get(uploadId)?.parts.size).toBe(2);
  });

  it('refuses a file of fitting size when none of the uploaded parts matches it', async () => {
    const { server, clock, create } = setup();
    const uploadId = server.seedUpload('k');
    server.seedPart(uploadId, 0, DATA.slice(0, 8));
    server.seedPart(uploadId, 1, DATA.slice(8, 16));
    const error = await drive(create({ bucket: 'b', key: 'k', file: fileOf(bytes(50, 77)), uploadId }).run(new AbortController().signal), clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeMismatchError);
    expect(String(error)).toMatch(/none of its 2 uploaded part/);
    expect(server.count('uploadPart')).toBe(0);
  });

  it('reports upload_not_exists for an explicitly chosen upload that is gone', async () => {
    const { clock, create } = setup();
    const run = create({ bucket: 'b', key: 'k', file: fileOf(DATA), uploadId: 'gone' }).run(new AbortController().signal);
    await expect(drive(run, clock)).rejects.toMatchObject({ code: 'upload_not_exists' });
  });
});

describe('choosing the same file again (remembered uploads)', () => {
  async function interruptedUpload(file: File) {
    const ctx = setup();
    ctx.server.fail = (call) => (call.op === 'uploadPart' && (call.partNumber ?? 0) >= 4 ? apiError(403, 'permission_denied') : undefined);
    await drive(ctx.create({ bucket: 'b', key: 'k', file }).run(new AbortController().signal), ctx.clock).catch(() => undefined);
    ctx.server.fail = () => undefined;
    ctx.server.calls = [];
    return ctx;
  }

  it('continues the remembered upload for the same file (new File object, as after a reload)', async () => {
    const ctx = await interruptedUpload(fileOf(DATA, 'big.bin'));
    expect(ctx.resumeStore.records.size).toBe(1);
    const again = ctx.create({ bucket: 'b', key: 'k', file: fileOf(DATA.slice(), 'big.bin') });
    await drive(again.run(new AbortController().signal), ctx.clock);
    expect(ctx.server.count('initiate')).toBe(0);
    expect(ctx.server.calls.filter((c) => c.op === 'uploadPart').map((c) => c.partNumber).sort()).toEqual([4, 5, 6]);
    expect(again.status.partsReused).toBe(4);
    expect(ctx.resumeStore.records.size).toBe(0);
  });

  it('also matches a renamed copy with another mtime (same size and samples)', async () => {
    const ctx = await interruptedUpload(fileOf(DATA, 'big.bin', 1));
    await drive(ctx.create({ bucket: 'b', key: 'k', file: fileOf(DATA, 'copy of big.bin', 2) }).run(new AbortController().signal), ctx.clock);
    expect(ctx.server.count('initiate')).toBe(0);
    expect(ctx.server.count('uploadPart')).toBe(3);
  });

  it('starts a new upload for a different file of the same size, or another key', async () => {
    const ctx = await interruptedUpload(fileOf(DATA, 'big.bin'));
    await drive(ctx.create({ bucket: 'b', key: 'k', file: fileOf(bytes(50, 8), 'big.bin') }).run(new AbortController().signal), ctx.clock);
    await drive(ctx.create({ bucket: 'b', key: 'elsewhere', file: fileOf(DATA, 'big.bin') }).run(new AbortController().signal), ctx.clock);
    expect(ctx.server.count('initiate')).toBe(2);
    expect(ctx.server.count('uploadPart')).toBe(14);
  });

  it('forgets a remembered upload that was completed or aborted elsewhere and starts afresh', async () => {
    const ctx = await interruptedUpload(fileOf(DATA, 'big.bin'));
    ctx.server.uploads.clear();
    await drive(ctx.create({ bucket: 'b', key: 'k', file: fileOf(DATA, 'big.bin') }).run(new AbortController().signal), ctx.clock);
    expect(ctx.server.count('initiate')).toBe(1);
    expect(ctx.resumeStore.records.size).toBe(0);
    expect(Buffer.from(ctx.server.objects.get('k')?.data ?? []).equals(Buffer.from(DATA))).toBe(true);
  });
});

describe('cancel', () => {
  it('aborts the upload on the server and forgets it', async () => {
    const { server, clock, resumeStore, create } = setup();
    server.hold = (call) => (call.op === 'uploadPart' ? new Promise<void>(() => undefined) : undefined);
    const task = create({ bucket: 'b', key: 'k', file: fileOf(DATA) });
    const controller = new AbortController();
    const run = task.run(controller.signal);
    await flush();
    controller.abort(new DOMException('cancelled', 'AbortError'));
    await expect(drive(run, clock)).rejects.toMatchObject({ name: 'AbortError' });
    await task.abort();
    expect(server.count('abort')).toBe(1);
    expect(server.uploads.size).toBe(0);
    expect(resumeStore.records.size).toBe(0);
  });
});

describe('parts in flight', () => {
  /**
   * A hasher that takes `ms` of the manual clock per piece, `pool` pieces at a time (as the worker pool
   * does), and answers the real MD5s of the parts of `data`.
   */
  function slowHasher(clock: ManualClock, data: Uint8Array<ArrayBuffer>, partSize: number, ms: number, pool: number): Md5Hasher {
    return {
      md5: (blob) => hasher.md5(blob),
      dispose: () => undefined,
      session() {
        let busy = 0;
        const waiting: Array<() => void> = [];
        const acquire = (): Promise<void> => {
          if (busy < pool) {
            busy += 1;
            return Promise.resolve();
          }
          return new Promise<void>((resolve) => waiting.push(resolve));
        };
        const release = (): void => {
          const next = waiting.shift();
          if (next) next();
          else busy -= 1;
        };
        return {
          async part(index) {
            await acquire();
            await new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
            release();
            return md5Hex(data.slice(index * partSize, (index + 1) * partSize));
          },
          room: () => Promise.resolve(),
          digest: async () => md5Hex(data),
          close: () => undefined,
        };
      },
    };
  }

  it('keeps the parallel setting busy: hashing runs ahead of sending', async () => {
    const parallel = 4;
    const data = bytes(8 * 40, 9); // 40 parts of 8 bytes
    const clock = new ManualClock();
    const { server, create } = setup({ partConcurrency: parallel, hasher: slowHasher(clock, data, 8, 8, 2) });
    // Each part takes 20 ms on the wire, hashing 8 ms (2 at a time): hashing can keep 4 senders busy.
    server.hold = (call) => (call.op === 'uploadPart' ? new Promise<void>((resolve) => clock.setTimeout(resolve, 20)) : undefined);
    const task = create({ bucket: 'b', key: 'flight.bin', file: fileOf(data) });
    const state = { settled: false };
    const run = task.run(new AbortController().signal);
    run.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    // One sample per millisecond from the first part sent until the last part starts.
    const samples: number[] = [];
    const deadline = Date.now() + 20_000;
    while (!state.settled && Date.now() < deadline) {
      await flush(10);
      const started = server.count('uploadPart');
      if (started > 0 && started < 40) samples.push(server.inFlight);
      clock.advance(1);
    }
    const result = await run;
    expect(result.etag).toBe(`"${md5Hex(data)}"`);
    expect(md5Hex(server.objects.get('flight.bin')?.data ?? new Uint8Array())).toBe(md5Hex(data));
    const average = samples.reduce((sum, n) => sum + n, 0) / samples.length;
    expect(server.maxInFlight).toBe(parallel);
    expect(average).toBeGreaterThanOrEqual(0.9 * parallel);
  });
});
