import { createMD5 } from 'hash-wasm';
import type { Md5Request, Md5Response } from './md5-protocol.ts';

/**
 * The hashing itself, independent of where it runs: inside md5.worker.ts in the browser, or directly on
 * the calling thread (Node tests, browsers without module workers). Blobs are read in 1 MiB chunks, so
 * memory stays bounded whatever the size of a part.
 */

const CHUNK = 1024 * 1024;

type Hasher = Awaited<ReturnType<typeof createMD5>>;

async function feed(blob: Blob, hashers: readonly Hasher[]): Promise<void> {
  for (let offset = 0; offset < blob.size; offset += CHUNK) {
    const chunk = new Uint8Array(await blob.slice(offset, offset + CHUNK).arrayBuffer());
    for (const h of hashers) h.update(chunk);
  }
}

export async function md5OfBlob(blob: Blob): Promise<string> {
  const hasher = await createMD5();
  hasher.init();
  await feed(blob, [hasher]);
  return hasher.digest('hex');
}

/** Sessions keyed by id; requests of one session must arrive in order (the caller serialises them). */
export function createMd5Service(): { handle(request: Md5Request): Promise<Md5Response> } {
  const sessions = new Map<number, { whole: Hasher; part: Hasher }>();

  async function run(request: Md5Request): Promise<string> {
    switch (request.type) {
      case 'md5':
        return md5OfBlob(request.blob);
      case 'open': {
        const [whole, part] = await Promise.all([createMD5(), createMD5()]);
        whole.init();
        sessions.set(request.session, { whole, part });
        return '';
      }
      case 'part': {
        const session = sessions.get(request.session);
        if (!session) throw new Error(`MD5 session ${request.session} is not open`);
        session.part.init();
        await feed(request.blob, [session.part, session.whole]);
        return session.part.digest('hex');
      }
      case 'digest': {
        const session = sessions.get(request.session);
        if (!session) throw new Error(`MD5 session ${request.session} is not open`);
        // save/load keeps the running state usable after reading the digest.
        const state = session.whole.save();
        const hex = session.whole.digest('hex');
        session.whole.load(state);
        return hex;
      }
      case 'close':
        sessions.delete(request.session);
        return '';
    }
  }

  return {
    async handle(request) {
      try {
        return { id: request.id, ok: true, hex: await run(request) };
      } catch (error) {
        return { id: request.id, ok: false, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    },
  };
}
