import { PIECE_BYTES_LIMIT, isMd5Response, type Md5Request, type Md5Response } from '../workers/md5-protocol.ts';
import type { createMd5Service } from '../workers/md5-service.ts';

/**
 * MD5 for the engine, behind an interface: a small pool of Web Workers in the browser (hashing gigabytes
 * must not block the UI), the same code on the calling thread where workers are unavailable (Node tests)
 * or fail to start.
 *
 * A session reads each byte of a file once. A piece up to PIECE_BYTES_LIMIT is read whole on any worker of
 * the pool, which answers its MD5 (Content-MD5, comparison with part ETags) with the bytes it read; pieces
 * may finish in any order, and those same bytes then go, in file order, to one running whole-file MD5 (the
 * object's ETag) on the session's worker. Pieces that finished ahead of an earlier one wait in a window
 * until it arrives; the caller bounds that window by how far ahead it asks. A larger piece, too large to
 * hold, is read once in chunks on the session's worker when its turn comes, each chunk feeding both its
 * own MD5 and the whole-file MD5. The bytes are never copied into a Blob to be sent: parts go out as
 * slices of the file (File.slice views), read by the browser's network code itself.
 */

export interface Md5Session {
  /** MD5 (hex) of piece `index` (0, 1, 2, … of the file, each exactly once, in any order, concurrently). */
  part(index: number, blob: Blob): Promise<string>;
  /**
   * Resolves once fewer than `pieces` pieces are asked for but not yet in the whole-file MD5 (or at once
   * when hashing failed or the session is closed): callers wait on it so bytes waiting for the whole-file
   * MD5 stay bounded even when it falls behind.
   */
  room(pieces: number): Promise<void>;
  /** MD5 of pieces 0..pieces-1 in order; fails unless each of them was hashed. Does not end the session. */
  digest(pieces: number): Promise<string>;
  close(): void;
}

export interface Md5Hasher {
  md5(blob: Blob): Promise<string>;
  session(): Md5Session;
  dispose(): void;
}

/** `session`: the request belongs to a whole-file MD5 and must go to the worker that holds its state. */
type Lane = 'any' | 'session';
type Transport = (request: Md5Request, lane: Lane) => Promise<Md5Response>;

/**
 * `fused`: every piece is read on the session's worker, in file order, once, feeding its own MD5 and the
 * whole-file MD5 from the same chunks (no bytes cross between threads). Right where hashing has one thread
 * (the calling thread, or a single worker): reading a piece elsewhere and passing its bytes on would only
 * add messages. Otherwise pieces up to PIECE_BYTES_LIMIT are read and hashed on the pool, in parallel.
 */
function hasherOver(transport: Transport, onDispose: () => void, fused: boolean): Md5Hasher {
  let nextId = 1;
  let nextSession = 1;
  async function call(build: (id: number) => Md5Request, lane: Lane = 'any'): Promise<{ hex: string; bytes?: ArrayBuffer }> {
    const response = await transport(build(nextId++), lane);
    if (!response.ok) throw new Error(`MD5 failed: ${response.message}`);
    return response;
  }
  return {
    md5: async (blob) => (await call((id) => ({ id, type: 'md5', blob }))).hex,
    session() {
      const session = nextSession++;
      let failure: unknown;
      let failed = false;
      // Whole-file requests run one after another, in the order they were queued.
      let tail: Promise<void> = Promise.resolve();
      // Pieces asked for and not yet in the whole-file MD5, and callers waiting for that to drop.
      let unfed = 0;
      let waiters: Array<{ below: number; resolve: () => void }> = [];
      const wake = (all: boolean): void => {
        const ready = waiters.filter((w) => all || unfed < w.below);
        waiters = waiters.filter((w) => !ready.includes(w));
        for (const w of ready) w.resolve();
      };
      const enqueue = (build: (id: number) => Md5Request, onDone?: (hex: string) => void, onError?: (error: unknown) => void): void => {
        tail = tail
          .then(() => call(build, 'session'))
          .then(
            (response) => onDone?.(response.hex),
            (error: unknown) => {
              onError?.(error);
              if (!failed) {
                failed = true;
                failure = error;
              }
              wake(true);
            },
          );
      };
      enqueue((id) => ({ id, type: 'open', session }));
      /** A piece read on the pool (its bytes) or, too large to hold, to be read when its turn comes. */
      type Waiting = { bytes: ArrayBuffer } | { blob: Blob; resolve: (hex: string) => void; reject: (error: unknown) => void };
      const asked = new Set<number>();
      const waiting = new Map<number, Waiting>();
      let nextFeed = 0;
      let closed = false;
      const fed = (): void => {
        unfed -= 1;
        wake(false);
      };
      const drain = (): void => {
        for (let piece = waiting.get(nextFeed); piece !== undefined; piece = waiting.get(nextFeed)) {
          waiting.delete(nextFeed);
          asked.delete(nextFeed);
          nextFeed += 1;
          if ('bytes' in piece) {
            const { bytes } = piece;
            enqueue((id) => ({ id, type: 'feed', session, data: bytes }), fed, fed);
          } else {
            const { blob, resolve, reject } = piece;
            // One read, in chunks, feeding the piece's MD5 and the whole-file MD5 alike.
            enqueue(
              (id) => ({ id, type: 'partfeed', session, blob }),
              (hex) => {
                fed();
                resolve(hex);
              },
              (error) => {
                fed();
                reject(error);
              },
            );
          }
        }
      };
      const fail = (error: unknown): void => {
        // This piece never reaches the whole-file MD5: nobody may wait for room behind it.
        failed = true;
        failure ??= error;
        wake(true);
      };
      return {
        async part(index, blob) {
          if (closed) throw new Error('MD5 session is closed');
          if (asked.has(index) || waiting.has(index) || index < nextFeed) throw new Error(`piece ${index} was already hashed in this session`);
          asked.add(index);
          unfed += 1;
          if (fused || blob.size > PIECE_BYTES_LIMIT) {
            const hex = new Promise<string>((resolve, reject) => waiting.set(index, { blob, resolve, reject }));
            drain();
            try {
              return await hex;
            } catch (error) {
              fail(error);
              throw error;
            }
          }
          let answer: { hex: string; bytes?: ArrayBuffer };
          try {
            answer = await call((id) => ({ id, type: 'part', blob }));
          } catch (error) {
            fail(error);
            throw error;
          }
          if (!answer.bytes) {
            const error = new Error(`MD5 of piece ${index} came back without its bytes`);
            fail(error);
            throw error;
          }
          waiting.set(index, { bytes: answer.bytes });
          drain();
          return answer.hex;
        },
        room(pieces) {
          if (failed || closed || unfed < pieces) return Promise.resolve();
          return new Promise<void>((resolve) => waiters.push({ below: pieces, resolve }));
        },
        async digest(pieces) {
          if (nextFeed !== pieces) throw new Error(`MD5 of ${pieces} pieces asked, ${nextFeed} in order so far`);
          await tail;
          if (failed) throw failure;
          return (await call((id) => ({ id, type: 'digest', session }), 'session')).hex;
        },
        close() {
          if (closed) return;
          closed = true;
          for (const piece of waiting.values()) if ('reject' in piece) piece.reject(new Error('MD5 session is closed'));
          waiting.clear();
          wake(true);
          enqueue((id) => ({ id, type: 'close', session }));
        },
      };
    },
    dispose: onDispose,
  };
}

/**
 * Hashing on the calling thread (hash-wasm). The hashing code loads on the first digest: in browsers the
 * workers do the hashing, so the page downloads this only where no worker can start.
 */
export function createMainThreadHasher(): Md5Hasher {
  let service: Promise<ReturnType<typeof createMd5Service>> | undefined;
  const load = () => import('../workers/md5-service.ts');
  const hasher = hasherOver(async (request) => {
    service ??= load().then((m) => m.createMd5Service());
    return (await service).handle(request);
  }, () => undefined, true);
  // One-off digests need no request bookkeeping.
  return { ...hasher, md5: async (blob) => (await load()).md5OfBlob(blob) };
}

/** Minimal view of a Worker, so the client is testable with a fake. */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

interface Slot {
  worker: WorkerLike;
  pending: Map<number, (response: Md5Response) => void>;
  broken: string | null;
}

function slotFor(worker: WorkerLike): Slot {
  const slot: Slot = { worker, pending: new Map(), broken: null };
  worker.addEventListener('message', (event) => {
    if (!isMd5Response(event.data)) return;
    const resolve = slot.pending.get(event.data.id);
    slot.pending.delete(event.data.id);
    resolve?.(event.data);
  });
  worker.addEventListener('error', (event) => {
    slot.broken = 'message' in event && typeof event.message === 'string' && event.message ? event.message : 'the MD5 worker stopped';
    for (const [id, resolve] of slot.pending) resolve({ id, ok: false, message: slot.broken });
    slot.pending.clear();
  });
  return slot;
}

/**
 * Hashing in Web Workers: `first`, plus up to `pool.size - 1` more started on demand (when every worker
 * is busy). Whole-file state lives in the first; pieces and one-off digests go to the least busy of the
 * others (to the first too only when there is no pool), so the serial whole-file MD5 never queues behind
 * pieces. A worker crash fails its pending requests (it never hangs them).
 */
export function createWorkerHasher(first: WorkerLike, pool?: { spawn: () => WorkerLike; size: number }): Md5Hasher {
  const slots: Slot[] = [slotFor(first)];
  const pick = (lane: Lane): Slot | string => {
    const home = slots[0];
    if (!home) return 'no MD5 worker';
    if (lane === 'session') return home.broken ?? home;
    // The home worker carries every whole-file MD5: pieces go to the others when there can be others.
    const others = pool && pool.size > 1 ? slots.slice(1) : slots;
    let best: Slot | undefined;
    for (const slot of others) if (slot.broken === null && (!best || slot.pending.size < best.pending.size)) best = slot;
    if ((!best || best.pending.size > 0) && pool && slots.length < pool.size) {
      try {
        const slot = slotFor(pool.spawn());
        slots.push(slot);
        return slot;
      } catch {
        // No more workers can start: share the ones there are.
      }
    }
    return best ?? home.broken ?? 'the MD5 worker stopped';
  };
  const transport: Transport = (request, lane) =>
    new Promise((resolve) => {
      const slot = pick(lane);
      if (typeof slot === 'string') {
        resolve({ id: request.id, ok: false, message: slot });
        return;
      }
      slot.pending.set(request.id, resolve);
      slot.worker.postMessage(request, request.type === 'feed' && request.data instanceof ArrayBuffer ? [request.data] : []);
    });
  return hasherOver(
    transport,
    () => {
      for (const slot of slots) slot.worker.terminate();
    },
    !pool || pool.size <= 1,
  );
}

/**
 * Workers for hashing: one on a machine of up to two cores, where it reads each piece once and computes
 * both MD5s from that read (a second hashing thread would take the core the browser's network code, and a
 * local server, need: measured with bench/multipart-upload.ts); else one per core but one, at most four,
 * with pieces spread over all of them but the whole-file worker.
 */
export function md5PoolSize(cores: number | undefined): number {
  const n = Math.floor(cores ?? 2);
  return n <= 2 ? 1 : Math.min(4, n - 1);
}

/** The worker pool in browsers that can start it, else the calling thread. */
export function createMd5Hasher(): Md5Hasher {
  if (typeof Worker === 'undefined') return createMainThreadHasher();
  const spawn = (): WorkerLike => new Worker(new URL('../workers/md5.worker.ts', import.meta.url), { type: 'module', name: 'md5' });
  try {
    return createWorkerHasher(spawn(), { spawn, size: md5PoolSize(globalThis.navigator?.hardwareConcurrency) });
  } catch {
    // A CSP without worker-src or a browser without module workers: hash on this thread instead.
    return createMainThreadHasher();
  }
}
