import { isMd5Response, type Md5Request, type Md5Response } from '../workers/md5-protocol.ts';
import type { createMd5Service } from '../workers/md5-service.ts';

/**
 * MD5 for the engine, behind an interface: a Web Worker in the browser (hashing gigabytes must not block
 * the UI), the same code on the calling thread where workers are unavailable (Node tests) or fail to start.
 */

export interface Md5Session {
  /** MD5 (hex) of the next consecutive piece of the file; also feeds the whole-file digest. Calls are serialised. */
  part(blob: Blob): Promise<string>;
  /** MD5 (hex) of all pieces so far, in order. */
  digest(): Promise<string>;
  close(): void;
}

export interface Md5Hasher {
  md5(blob: Blob): Promise<string>;
  session(): Md5Session;
  dispose(): void;
}

/** Serialises session calls so pieces reach the running digest in file order whatever the callers do. */
function serialized<T>(chain: { tail: Promise<unknown> }, task: () => Promise<T>): Promise<T> {
  const result = chain.tail.then(task, task);
  chain.tail = result.catch(() => undefined);
  return result;
}

type Transport = (request: Md5Request) => Promise<Md5Response>;

function hasherOver(transport: Transport, onDispose: () => void): Md5Hasher {
  let nextId = 1;
  let nextSession = 1;
  async function call(build: (id: number) => Md5Request): Promise<string> {
    const response = await transport(build(nextId++));
    if (!response.ok) throw new Error(`MD5 failed: ${response.message}`);
    return response.hex;
  }
  return {
    md5: (blob) => call((id) => ({ id, type: 'md5', blob })),
    session() {
      const session = nextSession++;
      const chain: { tail: Promise<unknown> } = { tail: call((id) => ({ id, type: 'open', session })) };
      let closed = false;
      return {
        part: (blob) => serialized(chain, () => call((id) => ({ id, type: 'part', session, blob }))),
        digest: () => serialized(chain, () => call((id) => ({ id, type: 'digest', session }))),
        close() {
          if (closed) return;
          closed = true;
          void serialized(chain, () => call((id) => ({ id, type: 'close', session })));
        },
      };
    },
    dispose: onDispose,
  };
}

/**
 * Hashing on the calling thread (hash-wasm). The hashing code loads on the first digest: in browsers the
 * worker does the hashing, so the page downloads this only where no worker can start.
 */
export function createMainThreadHasher(): Md5Hasher {
  let service: Promise<ReturnType<typeof createMd5Service>> | undefined;
  const load = () => import('../workers/md5-service.ts');
  const hasher = hasherOver(async (request) => {
    service ??= load().then((m) => m.createMd5Service());
    return (await service).handle(request);
  }, () => undefined);
  // One-off digests need no request bookkeeping.
  return { ...hasher, md5: async (blob) => (await load()).md5OfBlob(blob) };
}

/** Minimal view of a Worker, so the client is testable with a fake. */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

/** Hashing in a Web Worker; a worker crash fails the pending requests (it never hangs them). */
export function createWorkerHasher(worker: WorkerLike): Md5Hasher {
  const pending = new Map<number, (response: Md5Response) => void>();
  let broken: string | null = null;
  worker.addEventListener('message', (event) => {
    if (!isMd5Response(event.data)) return;
    const resolve = pending.get(event.data.id);
    pending.delete(event.data.id);
    resolve?.(event.data);
  });
  worker.addEventListener('error', (event) => {
    broken = 'message' in event && typeof event.message === 'string' && event.message ? event.message : 'the MD5 worker stopped';
    for (const [id, resolve] of pending) resolve({ id, ok: false, message: broken });
    pending.clear();
  });
  const transport: Transport = (request) =>
    new Promise((resolve) => {
      if (broken !== null) {
        resolve({ id: request.id, ok: false, message: broken });
        return;
      }
      pending.set(request.id, resolve);
      worker.postMessage(request);
    });
  return hasherOver(transport, () => worker.terminate());
}

/** The worker in browsers that can start it, else the calling thread. */
export function createMd5Hasher(): Md5Hasher {
  if (typeof Worker === 'undefined') return createMainThreadHasher();
  try {
    const worker = new Worker(new URL('../workers/md5.worker.ts', import.meta.url), { type: 'module', name: 'md5' });
    return createWorkerHasher(worker);
  } catch {
    // A CSP without worker-src or a browser without module workers: hash on this thread instead.
    return createMainThreadHasher();
  }
}
