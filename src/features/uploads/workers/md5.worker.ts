/**
 * Web Worker that computes part MD5s off the main thread (hashing a multi-gigabyte file on the
 * UI thread would freeze the console). Started by engine/hasher.ts with
 * `new Worker(new URL('../workers/md5.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { isMd5Request } from './md5-protocol.ts';
import { createMd5Service } from './md5-service.ts';

const service = createMd5Service();

// Requests are handled strictly one after another: session parts must be fed in file order.
let queue: Promise<void> = Promise.resolve();

addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (!isMd5Request(request)) {
    const id = typeof request === 'object' && request !== null && 'id' in request && typeof request.id === 'number' ? request.id : -1;
    postMessage({ id, ok: false, message: 'Malformed MD5 worker request' });
    return;
  }
  queue = queue.then(async () => {
    postMessage(await service.handle(request));
  });
});
