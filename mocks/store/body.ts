import type { BodyInput, ObjectBody } from './types.ts';

/** Wraps chunks (taken over, not copied) into an ObjectBody; empty chunks are dropped. */
export function makeBody(input: BodyInput): ObjectBody {
  const list: readonly Uint8Array[] = input instanceof Uint8Array ? [input] : input;
  const chunks: Uint8Array[] = [];
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
  const chunks: Uint8Array[] = [];
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
export function readBodyRange(body: ObjectBody, start = 0, end = body.size): Uint8Array[] {
  const from = Math.max(0, Math.min(start, body.size));
  const to = Math.max(from, Math.min(end, body.size));
  if (from === to) return [];
  const views: Uint8Array[] = [];
  for (let i = chunkIndexAt(body, from); i < body.chunks.length; i++) {
    const chunk = body.chunks[i];
    const offset = body.offsets[i];
    if (chunk === undefined || offset === undefined || offset >= to) break;
    const a = Math.max(0, from - offset);
    const b = Math.min(chunk.byteLength, to - offset);
    views.push(a === 0 && b === chunk.byteLength ? chunk : chunk.subarray(a, b));
  }
  return views;
}

/** Bytes [start, end) as ONE array; copies only when the range spans several chunks. */
export function bodyToBytes(body: ObjectBody, start = 0, end = body.size): Uint8Array {
  const views = readBodyRange(body, start, end);
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

/** A ReadableStream over [start, end) that enqueues the chunk views one by one (no concatenation). */
export function bodyToStream(body: ObjectBody, start = 0, end = body.size): ReadableStream<Uint8Array> {
  const views = readBodyRange(body, start, end);
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = views[i++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}
