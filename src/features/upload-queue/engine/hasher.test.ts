import { describe, expect, it, vi } from 'vitest';
import { isMd5Request, PIECE_BYTES_LIMIT, type Md5Request } from '../workers/md5-protocol.ts';
import { createMd5Service } from '../workers/md5-service.ts';
import { compareFingerprints, FINGERPRINT_SAMPLE, fingerprintFile } from './fingerprint.ts';
import { createMainThreadHasher, createWorkerHasher, md5PoolSize, type Md5Hasher, type WorkerLike } from './hasher.ts';
import { bytes, fileOf, md5Hex } from './test-fakes.ts';

/**
 * A Worker stand-in that runs the real worker service asynchronously, as the worker script does. With
 * `holdParts`, each `part` answer waits until the test releases it, so pieces can finish in any order.
 */
function fakeWorker(options: { crashOnPart?: boolean; holdParts?: Array<() => void> } = {}): WorkerLike & { terminated: boolean; parts: number; types: string[] } {
  const service = createMd5Service();
  const listeners: Record<'message' | 'error', Array<(e: MessageEvent<unknown>) => void>> = { message: [], error: [] };
  let queue = Promise.resolve();
  const answer = (data: unknown): void => listeners.message.forEach((l) => l(new MessageEvent('message', { data })));
  return {
    terminated: false,
    parts: 0,
    types: [],
    postMessage(message: unknown) {
      if (!isMd5Request(message)) throw new Error('malformed request');
      const request: Md5Request = message;
      this.types.push(request.type);
      if (request.type === 'part') this.parts += 1;
      if (options.crashOnPart && (request.type === 'part' || request.type === 'partfeed')) {
        setTimeout(() => listeners.error.forEach((l) => l(new MessageEvent('error'))), 0);
        return;
      }
      const held = options.holdParts;
      if (held && request.type === 'part') {
        void service.handle(request).then((response) => held.push(() => answer(response)));
        return;
      }
      queue = queue.then(async () => answer(await service.handle(request)));
    },
    addEventListener(type: 'message' | 'error', listener: (e: MessageEvent<unknown>) => void) {
      listeners[type].push(listener);
    },
    terminate() {
      this.terminated = true;
    },
  };
}

const DATA = bytes(3 * 1024 * 1024 + 17, 11);

describe.each([
  ['main thread', () => createMainThreadHasher()],
  ['worker', () => createWorkerHasher(fakeWorker())],
] as const)('MD5 hasher on the %s', (_name, make: () => Md5Hasher) => {
  it('hashes a blob in chunks', async () => {
    expect(await make().md5(new Blob([DATA]))).toBe(md5Hex(DATA));
    expect(await make().md5(new Blob([]))).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it('a session answers part MD5s, and the MD5 of all parts so far', async () => {
    const session = make().session();
    const cut = 1024 * 1024 + 5;
    const pieces = await Promise.all([session.part(0, new Blob([DATA.slice(0, cut)])), session.part(1, new Blob([DATA.slice(cut)]))]);
    expect(pieces).toEqual([md5Hex(DATA.slice(0, cut)), md5Hex(DATA.slice(cut))]);
    expect(await session.digest(2)).toBe(md5Hex(DATA));
    // Reading the digest does not end the session.
    await session.part(2, new Blob(['tail']));
    expect(await session.digest(3)).toBe(md5Hex(Buffer.concat([DATA, Buffer.from('tail')])));
    session.close();
  });

  it('refuses a digest before every piece is hashed, and a piece asked twice', async () => {
    const session = make().session();
    const one = session.part(1, new Blob(['b']));
    await expect(session.digest(2)).rejects.toThrow(/2 pieces asked, 0 in order/);
    // Piece 1 waits for piece 0 before the whole-file MD5: asking for it again is refused all the same.
    await expect(session.part(1, new Blob(['b']))).rejects.toThrow(/already hashed/);
    await session.part(0, new Blob(['a']));
    expect(await one).toBe(md5Hex('b'));
    expect(await session.digest(2)).toBe(md5Hex('ab'));
    await expect(session.part(1, new Blob(['b']))).rejects.toThrow(/already hashed/);
  });
});

describe('whole-file MD5 from pieces that finish out of order', () => {
  const PIECE = 256 * 1024;
  const pieceCount = Math.ceil(DATA.length / PIECE);
  const order = [3, 1, 12, 0, 7, 2, 9, 4, 11, 5, 8, 10, 6];

  async function wholeMd5(data: Uint8Array<ArrayBuffer>): Promise<{ digest: string; workers: number[] }> {
    const held: Array<() => void> = [];
    const workers = [fakeWorker({ holdParts: held })];
    const hasher = createWorkerHasher(workers[0] ?? fakeWorker(), {
      size: 3,
      spawn: () => {
        const w = fakeWorker({ holdParts: held });
        workers.push(w);
        return w;
      },
    });
    const session = hasher.session();
    const pieces = Array.from({ length: pieceCount }, (_, i) => session.part(i, new Blob([data.slice(i * PIECE, (i + 1) * PIECE)])));
    // Answers arrive in the scrambled order, never in file order.
    for (const i of order) {
      await vi.waitFor(() => expect(held.length).toBe(pieceCount));
      held[i]?.();
    }
    await Promise.all(pieces);
    return { digest: await session.digest(pieceCount), workers: workers.map((w) => w.parts) };
  }

  it('gives the MD5 of the file hashed at once, with the pieces spread over the pool but the whole-file worker', async () => {
    expect(order.toSorted((a, b) => a - b)).toEqual(Array.from({ length: pieceCount }, (_, i) => i));
    const { digest, workers } = await wholeMd5(DATA);
    expect(digest).toBe(md5Hex(DATA));
    expect(workers).toHaveLength(3);
    expect(workers[0]).toBe(0);
    expect(workers.slice(1).every((n) => n > 0)).toBe(true);
  });

  it('changes when one byte of the file is flipped', async () => {
    const flipped = DATA.slice();
    flipped[5 * PIECE + 3] = (flipped[5 * PIECE + 3] ?? 0) ^ 0x10;
    const { digest } = await wholeMd5(flipped);
    expect(digest).not.toBe(md5Hex(DATA));
    expect(digest).toBe(md5Hex(flipped));
  });
});

describe('a piece too large to hold', () => {
  it.each([
    ['main thread', () => createMainThreadHasher()],
    ['worker', () => createWorkerHasher(fakeWorker())],
  ] as const)('is read once, in chunks, on the session worker when its turn comes, feeding both MD5s (%s)', async (_name, make: () => Md5Hasher) => {
    const big = bytes(PIECE_BYTES_LIMIT + 5, 4);
    const session = make().session();
    // Asked after the piece behind it, it still waits for piece 0 before it is read.
    const second = session.part(2, new Blob(['end']));
    const first = session.part(1, new Blob([big]));
    const zero = session.part(0, new Blob(['start']));
    expect(await Promise.all([zero, first, second])).toEqual([md5Hex('start'), md5Hex(big), md5Hex('end')]);
    expect(await session.digest(3)).toBe(md5Hex(Buffer.concat([Buffer.from('start'), big, Buffer.from('end')])));
  });
});

describe('one worker', () => {
  it('reads each piece once there, in file order, for both MD5s: no bytes cross between threads', async () => {
    const worker = fakeWorker();
    const session = createWorkerHasher(worker, { size: 1, spawn: () => fakeWorker() }).session();
    const cut = [0, 1024 * 1024 + 5, 2 * 1024 * 1024, DATA.length];
    const pieces = await Promise.all([0, 1, 2].map((i) => session.part(i, new Blob([DATA.slice(cut[i], cut[i + 1])]))));
    expect(pieces).toEqual([0, 1, 2].map((i) => md5Hex(DATA.slice(cut[i], cut[i + 1]))));
    expect(await session.digest(3)).toBe(md5Hex(DATA));
    expect(worker.types).toEqual(['open', 'partfeed', 'partfeed', 'partfeed', 'digest']);
  });

  it('is the pool on a machine of up to two cores; more cores get one worker per core but one, at most four', () => {
    expect([1, 2, 3, 4, 8, undefined].map(md5PoolSize)).toEqual([1, 1, 2, 3, 4, 1]);
  });
});

describe('room for more pieces', () => {
  it('waits while too many pieces are not yet in the whole-file MD5, and frees up as they are fed in order', async () => {
    const held: Array<() => void> = [];
    // A pool: pieces are hashed on the second worker and may finish before the piece ahead of them.
    const session = createWorkerHasher(fakeWorker(), { size: 2, spawn: () => fakeWorker({ holdParts: held }) }).session();
    const pieces = [0, 1, 2].map((i) => session.part(i, new Blob([`p${i}`])));
    let roomy = false;
    void session.room(2).then(() => (roomy = true));
    await vi.waitFor(() => expect(held).toHaveLength(3));
    // Pieces 1 and 2 are hashed, but cannot reach the whole-file MD5 before piece 0.
    held[2]?.();
    held[1]?.();
    await Promise.all([pieces[1], pieces[2]]);
    await session.room(4);
    expect(roomy).toBe(false);
    held[0]?.();
    await Promise.all(pieces);
    await vi.waitFor(() => expect(roomy).toBe(true));
    expect(await session.digest(3)).toBe(md5Hex('p0p1p2'));
  });

  it('does not keep anyone waiting once a piece failed', async () => {
    const session = createWorkerHasher(fakeWorker({ crashOnPart: true })).session();
    const piece = session.part(0, new Blob(['x']));
    const room = session.room(1);
    await expect(piece).rejects.toThrow(/MD5 failed/);
    await expect(room).resolves.toBeUndefined();
  });
});

describe('worker failures', () => {
  it('fails pending requests when the worker crashes, and terminates it on dispose', async () => {
    const worker = fakeWorker({ crashOnPart: true });
    const hasher = createWorkerHasher(worker);
    await expect(hasher.session().part(0, new Blob(['x']))).rejects.toThrow(/MD5 failed/);
    await expect(hasher.md5(new Blob(['y']))).rejects.toThrow(/MD5 failed/);
    hasher.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('the service refuses a feed for a session that is not open', async () => {
    const response = await createMd5Service().handle({ id: 7, type: 'feed', session: 3, data: new ArrayBuffer(1) });
    expect(response).toMatchObject({ id: 7, ok: false, message: expect.stringMatching(/not open/) });
    expect(isMd5Request({ id: 1, type: 'part' })).toBe(false);
    expect(isMd5Request({ id: 1, type: 'feed', session: 1, data: 'x' })).toBe(false);
  });
});

describe('file fingerprints', () => {
  const hasher = createMainThreadHasher();
  const big = bytes(2 * FINGERPRINT_SAMPLE + 100, 21);

  it('records name, size, mtime and the MD5 of the first and last MiB', async () => {
    const fp = await fingerprintFile(fileOf(big, 'a.bin', 5), hasher);
    expect(fp).toEqual({
      name: 'a.bin',
      size: big.length,
      lastModified: 5,
      headMd5: md5Hex(big.slice(0, FINGERPRINT_SAMPLE)),
      tailMd5: md5Hex(big.slice(big.length - FINGERPRINT_SAMPLE)),
    });
  });

  it('tells the same file, a renamed copy and a different file apart', async () => {
    const original = await fingerprintFile(fileOf(big, 'a.bin', 5), hasher);
    expect(compareFingerprints(await fingerprintFile(fileOf(big.slice(), 'a.bin', 5), hasher), original)).toBe('same');
    expect(compareFingerprints(await fingerprintFile(fileOf(big, 'copy.bin', 9), hasher), original)).toBe('same-content');
    const changedTail = big.slice();
    changedTail[changedTail.length - 1] = (changedTail.at(-1) ?? 0) ^ 1;
    expect(compareFingerprints(await fingerprintFile(fileOf(changedTail, 'a.bin', 5), hasher), original)).toBe('different');
    const changedHead = big.slice();
    changedHead[0] = (changedHead[0] ?? 0) ^ 1;
    expect(compareFingerprints(await fingerprintFile(fileOf(changedHead, 'a.bin', 5), hasher), original)).toBe('different');
  });
});
