/**
 * MD5 of large request bodies on a worker thread (Node only). Hashing a GiB takes about 1.3 s of one core;
 * on the main thread that time is lost to reading the socket and writing the body file, on a worker it
 * overlaps with them. A body is hashed inline until it passes HANDOFF bytes (most requests are small and
 * a round trip to the worker would cost more than hashing them), then its bytes go to the worker in
 * batches of about BATCH bytes (one copy each, transferred without another).
 */
type NodeCrypto = typeof import('node:crypto');
type WorkerThreads = typeof import('node:worker_threads');
type NodeWorker = InstanceType<WorkerThreads['Worker']>;
type NodeHash = ReturnType<NodeCrypto['createHash']>;

const HANDOFF = 4 * 1024 * 1024;
const BATCH = 1024 * 1024;
/** Bytes sent to the worker and not hashed yet, at most: past it the body waits (the copies are memory). */
const MAX_IN_FLIGHT = 4 * 1024 * 1024;
/** Every batch buffer has this size (a batch is sent once it reaches BATCH; a chunk is at most 256 KiB here). */
const BUFFER_SIZE = BATCH + 256 * 1024;
const MAX_FREE = 6;

/**
 * The worker's whole program: one MD5 per job id (no require/import: it runs as CommonJS or as a module).
 * Each buffer goes back to be filled again after it is hashed, so no garbage piles up on either thread.
 */
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { createHash } = process.getBuiltinModule('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  if (m.kind === 'data') {
    let hash = jobs.get(m.id);
    if (!hash) { hash = createHash('md5'); jobs.set(m.id, hash); }
    hash.update(new Uint8Array(m.data, 0, m.length));
    parentPort.postMessage({ id: m.id, acked: m.length, data: m.data }, [m.data]);
  } else if (m.kind === 'end') {
    const hash = jobs.get(m.id) ?? createHash('md5');
    jobs.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: hash.digest('hex') });
  } else if (m.kind === 'cancel') {
    jobs.delete(m.id);
  }
});
`;

/** An MD5 fed chunk by chunk while a body arrives. */
export interface StreamingMd5 {
  /** A promise when the caller should wait before feeding more (the worker is behind). */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** Lowercase hex of everything fed; call once. */
  digest(): Promise<string>;
  /** Drops the job (the body was refused or cut off). */
  cancel(): void;
}

interface Pool {
  worker: NodeWorker;
  waiting: Map<number, { resolve: (hex: string) => void; reject: (error: Error) => void }>;
  /** Per job: called with the bytes the worker has hashed. */
  acks: Map<number, (bytes: number) => void>;
  /** Batch buffers back from the worker, to be filled again. */
  free: ArrayBuffer[];
  nextId: number;
  /** Jobs not yet digested or cancelled; the worker keeps the process alive only while there are some. */
  open: number;
}

let pool: Pool | undefined;

function workerPool(threads: WorkerThreads): Pool {
  if (pool) return pool;
  const worker = new threads.Worker(WORKER_SOURCE, { eval: true });
  const created: Pool = { worker, waiting: new Map(), acks: new Map(), free: [], nextId: 1, open: 0 };
  worker.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null || !('id' in message)) return;
    if ('acked' in message) {
      if ('data' in message && message.data instanceof ArrayBuffer && message.data.byteLength === BUFFER_SIZE && created.free.length < MAX_FREE) {
        created.free.push(message.data);
      }
      if (typeof message.id === 'number' && typeof message.acked === 'number') created.acks.get(message.id)?.(message.acked);
      return;
    }
    if (!('hex' in message)) return;
    const waiter = typeof message.id === 'number' ? created.waiting.get(message.id) : undefined;
    if (waiter && typeof message.hex === 'string') {
      created.waiting.delete(Number(message.id));
      waiter.resolve(message.hex);
    }
  });
  const fail = (error: Error): void => {
    for (const waiter of created.waiting.values()) waiter.reject(error);
    created.waiting.clear();
    if (pool === created) pool = undefined;
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the MD5 worker stopped (exit ${code})`)));
  // After the listeners (attaching one refs the worker again): an idle worker never keeps the process alive.
  worker.unref();
  pool = created;
  return created;
}

/** Starts the worker now (a server does at start, so that its memory is part of the idle footprint). */
export function startMd5Worker(threads: WorkerThreads): void {
  workerPool(threads);
}

/**
 * A streaming MD5. The first HANDOFF bytes are only kept (by reference): a body that ends before that is
 * hashed inline at digest(); a larger one goes to the worker, those first bytes included. Without
 * worker_threads everything is hashed inline.
 */
export function streamingMd5(crypto: NodeCrypto, threads: WorkerThreads | undefined): StreamingMd5 {
  let held: Uint8Array[] = [];
  let fed = 0;
  let local: NodeHash | undefined = threads ? undefined : crypto.createHash('md5');
  let job: { pool: Pool; id: number } | undefined;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  let inFlight = 0;
  let resume: (() => void) | undefined;
  const acked = (bytes: number): void => {
    inFlight -= bytes;
    if (resume && inFlight <= MAX_IN_FLIGHT / 2) {
      const go = resume;
      resume = undefined;
      go();
    }
  };
  const backpressure = (): Promise<void> | undefined =>
    inFlight > MAX_IN_FLIGHT ? new Promise<void>((resolve) => (resume = resolve)) : undefined;

  const send = (): void => {
    if (!job || batchBytes === 0) return;
    const length = batchBytes;
    const buffer = length <= BUFFER_SIZE ? (job.pool.free.pop() ?? new ArrayBuffer(BUFFER_SIZE)) : new ArrayBuffer(length);
    const data = new Uint8Array(buffer);
    let at = 0;
    for (const chunk of batch) {
      data.set(chunk, at);
      at += chunk.byteLength;
    }
    batch = [];
    batchBytes = 0;
    inFlight += length;
    job.pool.worker.postMessage({ kind: 'data', id: job.id, data: buffer, length }, [buffer]);
  };

  const release = (): void => {
    if (!job) return;
    job.pool.acks.delete(job.id);
    resume?.();
    resume = undefined;
    job.pool.open -= 1;
    if (job.pool.open === 0) job.pool.worker.unref();
    job = undefined;
  };

  return {
    update(chunk) {
      fed += chunk.byteLength;
      if (local) {
        local.update(chunk);
        return undefined;
      }
      if (!job) {
        held.push(chunk);
        if (fed <= HANDOFF || !threads) return undefined;
        const p = workerPool(threads);
        if (p.open === 0) p.worker.ref();
        p.open += 1;
        job = { pool: p, id: p.nextId++ };
        p.acks.set(job.id, acked);
        batch = held;
        batchBytes = fed;
        held = [];
        send();
        return backpressure();
      }
      batch.push(chunk);
      batchBytes += chunk.byteLength;
      if (batchBytes >= BATCH) send();
      return backpressure();
    },
    async digest() {
      if (!job) {
        const hash = local ?? crypto.createHash('md5');
        for (const chunk of held) hash.update(chunk);
        held = [];
        local = undefined;
        return hash.digest('hex');
      }
      send();
      const current = job;
      const result = new Promise<string>((resolve, reject) => current.pool.waiting.set(current.id, { resolve, reject }));
      current.pool.worker.postMessage({ kind: 'end', id: current.id });
      try {
        return await result;
      } finally {
        release();
      }
    },
    cancel() {
      held = [];
      local = undefined;
      if (job) {
        job.pool.worker.postMessage({ kind: 'cancel', id: job.id });
        release();
      }
    },
  };
}
