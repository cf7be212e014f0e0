import { createMD5 } from 'hash-wasm';
import { PIECE_BYTES_LIMIT, type Md5Request, type Md5Response } from './md5-protocol.ts';

/**
 * The hashing itself, independent of where it runs: inside md5.worker.ts in the browser, or directly on
 * the calling thread (Node tests, browsers without module workers). A piece up to PIECE_BYTES_LIMIT is
 * read in one go and its bytes are handed back; anything larger is read in 1 MiB chunks, so memory stays
 * bounded whatever the size of a part.
 */

const CHUNK = 1024 * 1024;

type Hasher = Awaited<ReturnType<typeof createMD5>>;

/** Reads `blob` once, in chunks, each chunk going to every hasher given. */
async function feedBlob(blob: Blob, ...hashers: Hasher[]): Promise<void> {
  for (let offset = 0; offset < blob.size; offset += CHUNK) {
    const chunk = new Uint8Array(await blob.slice(offset, offset + CHUNK).arrayBuffer());
    for (const hasher of hashers) hasher.update(chunk);
  }
}

export async function md5OfBlob(blob: Blob): Promise<string> {
  const hasher = await createMD5();
  hasher.init();
  await feedBlob(blob, hasher);
  return hasher.digest('hex');
}

/** Whole-file sessions keyed by id; `feed` requests of one session must arrive in file order (the caller orders them). */
export function createMd5Service(): { handle(request: Md5Request): Promise<Md5Response> } {
  const sessions = new Map<number, Hasher>();
  let pieceHasher: Promise<Hasher> | undefined;

  function open(session: number): Hasher {
    const hasher = sessions.get(session);
    if (!hasher) throw new Error(`MD5 session ${session} is not open`);
    return hasher;
  }

  async function run(request: Md5Request): Promise<{ hex: string; bytes?: ArrayBuffer }> {
    switch (request.type) {
      case 'md5':
        return { hex: await md5OfBlob(request.blob) };
      case 'part': {
        if (request.blob.size > PIECE_BYTES_LIMIT) return { hex: await md5OfBlob(request.blob) };
        // One read; the hashing after it is synchronous (no await between init and digest), so one MD5
        // state serves every piece.
        const bytes = await request.blob.arrayBuffer();
        pieceHasher ??= createMD5();
        const hasher = await pieceHasher;
        hasher.init();
        hasher.update(new Uint8Array(bytes));
        return { hex: hasher.digest('hex'), bytes };
      }
      case 'partfeed': {
        const whole = open(request.session);
        const own = await createMD5();
        own.init();
        await feedBlob(request.blob, own, whole);
        return { hex: own.digest('hex') };
      }
      case 'open': {
        const whole = await createMD5();
        whole.init();
        sessions.set(request.session, whole);
        return { hex: '' };
      }
      case 'feed': {
        const whole = open(request.session);
        whole.update(new Uint8Array(request.data));
        return { hex: '' };
      }
      case 'digest': {
        const whole = open(request.session);
        // save/load keeps the running state usable after reading the digest.
        const state = whole.save();
        const hex = whole.digest('hex');
        whole.load(state);
        return { hex };
      }
      case 'close':
        sessions.delete(request.session);
        return { hex: '' };
    }
  }

  return {
    async handle(request) {
      try {
        return { id: request.id, ok: true, ...(await run(request)) };
      } catch (error) {
        return { id: request.id, ok: false, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    },
  };
}
