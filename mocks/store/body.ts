import type { BodyInput, BodySegment, FileSegment, ObjectBody } from './types.ts';

type NodeFs = typeof import('node:fs');

function loadNodeFs(): NodeFs | undefined {
  if (typeof process === 'undefined' || typeof process.getBuiltinModule !== 'function') return undefined;
  return process.getBuiltinModule('node:fs');
}

/** node:fs in Node (file-backed bodies exist only there); undefined in the browser. */
const nodeFs = loadNodeFs();

export function isFileSegment(segment: BodySegment): segment is FileSegment {
  return !(segment instanceof Uint8Array);
}

function sliceSegment(segment: BodySegment, from: number, to: number): BodySegment {
  if (segment instanceof Uint8Array) return segment.subarray(from, to);
  return { file: segment.file, offset: segment.offset + from, byteLength: to - from };
}

/** The bytes of one segment in memory (reads a file segment synchronously: only for rare, small paths). */
export function segmentBytes(segment: BodySegment): Uint8Array {
  if (segment instanceof Uint8Array) return segment;
  if (!nodeFs) throw new Error('file-backed body outside Node');
  const out = new Uint8Array(segment.byteLength);
  const fd = nodeFs.openSync(segment.file, 'r');
  try {
    let at = 0;
    while (at < out.byteLength) {
      const n = nodeFs.readSync(fd, out, at, out.byteLength - at, segment.offset + at);
      if (n === 0) throw new Error(`body file ${segment.file} is shorter than its record`);
      at += n;
    }
  } finally {
    nodeFs.closeSync(fd);
  }
  return out;
}

/** Segments as byte arrays, for hashing; file segments are read into memory. */
export function segmentsBytes(segments: readonly BodySegment[]): Uint8Array[] {
  return segments.map(segmentBytes);
}

/** Wraps chunks (taken over, not copied) into an ObjectBody; empty chunks are dropped. */
export function makeBody(input: BodyInput): ObjectBody {
  const list: readonly BodySegment[] = input instanceof Uint8Array ? [input] : input;
  const chunks: BodySegment[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const chunk of list) {
    if (chunk.byteLength === 0) continue;
    chunks.push(chunk);
    offsets.push(size);
    size += chunk.byteLength;
  }
  return { chunks, offsets, size };
}

/** Concatenates bodies by reference (used by multipart completion and append). */
export function joinBodies(bodies: readonly ObjectBody[]): ObjectBody {
  const chunks: BodySegment[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const body of bodies) {
    for (const chunk of body.chunks) {
      chunks.push(chunk);
      offsets.push(size);
      size += chunk.byteLength;
    }
  }
  return { chunks, offsets, size };
}

export const EMPTY_BODY: ObjectBody = { chunks: [], offsets: [], size: 0 };

/** Index of the chunk containing byte `position` (0 <= position < size), by binary search. */
function chunkIndexAt(body: ObjectBody, position: number): number {
  let lo = 0;
  let hi = body.offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((body.offsets[mid] ?? 0) <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Bytes [start, end) of a body as views (subarrays) of the stored chunks: no bytes are copied.
 * Out-of-range bounds are clamped; an empty range yields [].
 */
export function readBodyRange(body: ObjectBody, start = 0, end = body.size): BodySegment[] {
  const from = Math.max(0, Math.min(start, body.size));
  const to = Math.max(from, Math.min(end, body.size));
  if (from === to) return [];
  const views: BodySegment[] = [];
  for (let i = chunkIndexAt(body, from); i < body.chunks.length; i++) {
    const chunk = body.chunks[i];
    const offset = body.offsets[i];
    if (chunk === undefined || offset === undefined || offset >= to) break;
    const a = Math.max(0, from - offset);
    const b = Math.min(chunk.byteLength, to - offset);
    views.push(a === 0 && b === chunk.byteLength ? chunk : sliceSegment(chunk, a, b));
  }
  return views;
}

/** Bytes [start, end) as ONE array; copies only when the range spans several chunks. */
export function bodyToBytes(body: ObjectBody, start = 0, end = body.size): Uint8Array {
  const views = segmentsBytes(readBodyRange(body, start, end));
  if (views.length === 1 && views[0] !== undefined) return views[0];
  let total = 0;
  for (const v of views) total += v.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const v of views) {
    out.set(v, at);
    at += v.byteLength;
  }
  return out;
}

/** File segments are read in pieces of this size when streamed. */
const FILE_READ_SIZE = 256 * 1024;

/**
 * A ReadableStream over [start, end): memory chunks are enqueued as views (no concatenation), file
 * segments are read piece by piece as the consumer pulls (never a whole file in memory).
 */
export function bodyToStream(body: ObjectBody, start = 0, end = body.size): ReadableStream<Uint8Array> {
  const views = readBodyRange(body, start, end);
  let i = 0;
  let open: { segment: FileSegment; fd: number; at: number } | undefined;
  const closeOpen = async (): Promise<void> => {
    if (open && nodeFs) await new Promise<void>((done) => nodeFs.close(open?.fd ?? -1, () => done()));
    open = undefined;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (open === undefined) {
        const next = views[i++];
        if (next === undefined) {
          controller.close();
          return;
        }
        if (next instanceof Uint8Array) {
          controller.enqueue(next);
          return;
        }
        if (!nodeFs) throw new Error('file-backed body outside Node');
        const fs = nodeFs;
        const fd = await new Promise<number>((resolve, reject) => fs.open(next.file, 'r', (error, handle) => (error ? reject(error) : resolve(handle))));
        open = { segment: next, fd, at: 0 };
      }
      const current = open;
      const fs = nodeFs;
      if (!fs) throw new Error('file-backed body outside Node');
      const length = Math.min(FILE_READ_SIZE, current.segment.byteLength - current.at);
      const buffer = new Uint8Array(length);
      const read = await new Promise<number>((resolve, reject) =>
        fs.read(current.fd, buffer, 0, length, current.segment.offset + current.at, (error, n) => (error ? reject(error) : resolve(n))),
      );
      if (read === 0) {
        await closeOpen();
        throw new Error(`body file ${current.segment.file} is shorter than its record`);
      }
      current.at += read;
      controller.enqueue(read === length ? buffer : buffer.subarray(0, read));
      if (current.at >= current.segment.byteLength) await closeOpen();
    },
    async cancel() {
      await closeOpen();
    },
  });
}
