/**
 * Web Worker that computes MD5s off the main thread (hashing a multi-gigabyte file on the UI thread
 * would freeze the console). engine/hasher.ts starts a small pool of these with
 * `new Worker(new URL('../workers/md5.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { isMd5Request } from './md5-protocol.ts';
import { createMd5Service } from './md5-service.ts';

const service = createMd5Service();

// Requests are handled strictly one after another: one piece at a time per worker (the pool gives the
// parallelism), and a session's `feed`s reach its digest in the order they were sent.
let queue: Promise<void> = Promise.resolve();

addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (!isMd5Request(request)) {
    const id = typeof request === 'object' && request !== null && 'id' in request && typeof request.id === 'number' ? request.id : -1;
    postMessage({ id, ok: false, message: 'Malformed MD5 worker request' });
    return;
  }
  queue = queue.then(async () => {
    const response = await service.handle(request);
    // The piece's bytes move back to the page without a copy.
    postMessage(response, { transfer: response.ok && response.bytes ? [response.bytes] : [] });
  });
});
