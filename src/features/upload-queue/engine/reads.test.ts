import { describe, expect, it } from 'vitest';
import { PIECE_BYTES_LIMIT } from '../workers/md5-protocol.ts';
import { FINGERPRINT_SAMPLE } from './fingerprint.ts';
import { createMainThreadHasher } from './hasher.ts';
import type { MultipartDeps } from './multipart-model.ts';
import { MultipartUpload } from './multipart.ts';
import type { UploadPorts } from './ports.ts';
import { createMemoryResumeStore } from './resume-store.ts';
import { FakeServer, ManualClock, bytes, flush, md5Hex } from './test-fakes.ts';

/**
 * Every byte of a file is read once by the page for an upload: one read feeds the part's MD5 (Content-MD5)
 * and the whole-file MD5 (the ETag given to Complete), and each part goes out as a view of the file that
 * the network code reads itself. The only other page reads are the fingerprint's two 1 MiB samples (head and
 * tail), read before the upload to find one to resume.
 */

interface Read {
  blob: RangeBlob;
  start: number;
  end: number;
}

/** A view of bytes [start, end) of `source` that logs each time its bytes are read. */
class RangeBlob extends Blob {
  readonly source: Uint8Array<ArrayBuffer>;
  readonly start: number;
  readonly end: number;
  readonly log: Read[];

  constructor(source: Uint8Array<ArrayBuffer>, start: number, end: number, log: Read[]) {
    super([source.subarray(start, end)]);
    this.source = source;
    this.start = start;
    this.end = end;
    this.log = log;
  }

  override slice(start = 0, end = this.size): RangeBlob {
    const at = (n: number) => (n < 0 ? Math.max(this.size + n, 0) : Math.min(n, this.size));
    const from = at(start);
    return new RangeBlob(this.source, this.start + from, this.start + Math.max(from, at(end)), this.log);
  }

  #read(): void {
    this.log.push({ blob: this, start: this.start, end: this.end });
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    this.#read();
    return super.arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    this.#read();
    return super.bytes();
  }

  override text(): Promise<string> {
    this.#read();
    return super.text();
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#read();
    return super.stream();
  }
}

/** A File whose slices are RangeBlobs. */
class RangeFile extends File {
  readonly #data: Uint8Array<ArrayBuffer>;
  readonly #log: Read[];

  constructor(data: Uint8Array<ArrayBuffer>, log: Read[]) {
    super([data], 'data.bin', { lastModified: 1_700_000_000_000 });
    this.#data = data;
    this.#log = log;
  }

  override slice(start?: number, end?: number): RangeBlob {
    return new RangeBlob(this.#data, 0, this.#data.length, this.#log).slice(start, end);
  }
}

/** How many times each byte was read, as runs of equal counts: [from, to, count]. */
function readCounts(reads: readonly Read[], size: number): Array<[number, number, number]> {
  const edges = new Map<number, number>();
  for (const r of reads) {
    edges.set(r.start, (edges.get(r.start) ?? 0) + 1);
    edges.set(r.end, (edges.get(r.end) ?? 0) - 1);
  }
  const points = [...new Set([0, size, ...edges.keys()])].sort((a, b) => a - b);
  const runs: Array<[number, number, number]> = [];
  let count = 0;
  for (let i = 0; i < points.length - 1; i++) {
    const from = points[i] ?? 0;
    count += edges.get(from) ?? 0;
    const to = points[i + 1] ?? 0;
    const last = runs.at(-1);
    if (last && last[2] === count && last[1] === from) last[1] = to;
    else if (to > from) runs.push([from, to, count]);
  }
  return runs;
}

async function upload(data: Uint8Array<ArrayBuffer>, partSize: number) {
  const log: Read[] = [];
  const server = new FakeServer();
  const sent: RangeBlob[] = [];
  const uploadPart: UploadPorts['uploadPart'] = (input, signal) => {
    if (input.body instanceof RangeBlob) sent.push(input.body);
    return server.uploadPart(input, signal);
  };
  const ports: UploadPorts = Object.assign(Object.create(server) as FakeServer, { uploadPart });
  const clock = new ManualClock();
  const deps: MultipartDeps = {
    ports,
    hasher: createMainThreadHasher(),
    resumeStore: createMemoryResumeStore(),
    scope: 'test',
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 1000 },
    partConcurrency: 2,
    partPlan: { minPartSize: 4, partSize },
    sendContentMd5: true,
  };
  const task = new MultipartUpload(deps, { bucket: 'b', key: 'k', file: new RangeFile(data, log) }, { onChange: () => undefined, onNetworkBytes: () => undefined });
  const run = task.run(new AbortController().signal);
  const state = { settled: false };
  void run.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  const deadline = Date.now() + 60_000;
  while (!state.settled && Date.now() < deadline) {
    await flush(5);
    clock.advance(1000);
  }
  const { etag } = await run;
  const sentSet = new Set<Blob>(sent);
  return {
    etag,
    stored: server.objects.get('k'),
    sent,
    pageReads: log.filter((r) => !sentSet.has(r.blob)),
    networkReads: log.filter((r) => sentSet.has(r.blob)),
  };
}

describe('an upload reads every byte once', () => {
  it('small parts: each part read once for both MD5s, sent as a view of the file', async () => {
    const data = bytes(50, 3);
    const result = await upload(data, 8);
    expect(result.etag).toBe(`"${md5Hex(data)}"`);
    expect(result.stored?.etag).toBe(md5Hex(data));
    const parts = Array.from({ length: 7 }, (_, n) => [n * 8, Math.min(50, (n + 1) * 8)]);
    // The page read each part once, plus the fingerprint's head and tail samples (here the whole file).
    const partReads = result.pageReads.filter((r) => r.end - r.start <= 8).map((r) => [r.start, r.end]);
    expect(partReads.toSorted((a, b) => (a[0] ?? 0) - (b[0] ?? 0))).toEqual(parts);
    expect(result.pageReads.filter((r) => r.end - r.start > 8).map((r) => [r.start, r.end])).toEqual([
      [0, 50],
      [0, 50],
    ]);
    // Each part went out as a slice of the file (not a copy), read once, by the network side.
    expect(result.sent.map((b) => [b.start, b.end]).toSorted((a, b) => (a[0] ?? 0) - (b[0] ?? 0))).toEqual(parts);
    expect(readCounts(result.networkReads, 50)).toEqual([[0, 50, 1]]);
  });

  it('parts too large to hold: read once in chunks, both MD5s fed from each chunk', async () => {
    const MiB = 1024 * 1024;
    const partSize = PIECE_BYTES_LIMIT + MiB;
    const size = 2 * partSize + 5 * MiB;
    const data = bytes(size, 9);
    const result = await upload(data, partSize);
    expect(result.etag).toBe(`"${md5Hex(data)}"`);
    // Once everywhere, but the fingerprint's samples (read once more before the upload starts).
    expect(readCounts(result.pageReads, size)).toEqual([
      [0, FINGERPRINT_SAMPLE, 2],
      [FINGERPRINT_SAMPLE, size - FINGERPRINT_SAMPLE, 1],
      [size - FINGERPRINT_SAMPLE, size, 2],
    ]);
    expect(readCounts(result.networkReads, size)).toEqual([[0, size, 1]]);
  }, 120_000);
});
