import { describe, expect, it } from 'vitest';
import { isMd5Request, type Md5Request } from '../workers/md5-protocol.ts';
import { createMd5Service } from '../workers/md5-service.ts';
import { compareFingerprints, FINGERPRINT_SAMPLE, fingerprintFile } from './fingerprint.ts';
import { createMainThreadHasher, createWorkerHasher, type Md5Hasher, type WorkerLike } from './hasher.ts';
import { bytes, fileOf, md5Hex } from './test-fakes.ts';

/** A Worker stand-in that runs the real worker service asynchronously, as the worker script does. */
function fakeWorker(options: { crashOnPart?: boolean } = {}): WorkerLike & { terminated: boolean } {
  const service = createMd5Service();
  const listeners: Record<'message' | 'error', Array<(e: MessageEvent<unknown>) => void>> = { message: [], error: [] };
  let queue = Promise.resolve();
  return {
    terminated: false,
    postMessage(message: unknown) {
      if (!isMd5Request(message)) throw new Error('malformed request');
      const request: Md5Request = message;
      if (options.crashOnPart && request.type === 'part') {
        setTimeout(() => listeners.error.forEach((l) => l(new MessageEvent('error'))), 0);
        return;
      }
      queue = queue.then(async () => {
        const response = await service.handle(request);
        listeners.message.forEach((l) => l(new MessageEvent('message', { data: response })));
      });
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

  it('a session answers part MD5s and the MD5 of all parts so far', async () => {
    const session = make().session();
    const cut = 1024 * 1024 + 5;
    const parts = await Promise.all([session.part(new Blob([DATA.slice(0, cut)])), session.part(new Blob([DATA.slice(cut)]))]);
    expect(parts).toEqual([md5Hex(DATA.slice(0, cut)), md5Hex(DATA.slice(cut))]);
    expect(await session.digest()).toBe(md5Hex(DATA));
    // Reading the digest does not end the session.
    await session.part(new Blob(['tail']));
    expect(await session.digest()).toBe(md5Hex(Buffer.concat([DATA, Buffer.from('tail')])));
    session.close();
  });
});

describe('worker failures', () => {
  it('fails pending requests when the worker crashes, and terminates it on dispose', async () => {
    const worker = fakeWorker({ crashOnPart: true });
    const hasher = createWorkerHasher(worker);
    await expect(hasher.session().part(new Blob(['x']))).rejects.toThrow(/MD5 failed/);
    await expect(hasher.md5(new Blob(['y']))).rejects.toThrow(/MD5 failed/);
    hasher.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('the service refuses a part for a session that is not open', async () => {
    const response = await createMd5Service().handle({ id: 7, type: 'part', session: 3, blob: new Blob(['x']) });
    expect(response).toMatchObject({ id: 7, ok: false, message: expect.stringMatching(/not open/) });
    expect(isMd5Request({ id: 1, type: 'part', session: 1 })).toBe(false);
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
