/**
 * Messages between the engine and the MD5 workers. Both sides validate what they receive with the
 * guards below (structured clone carries no types).
 *
 * - `md5`: one-off digest of a Blob (fingerprints, form uploads).
 * - `part`: MD5 of one piece of a file, on any worker of the pool. A piece up to `PIECE_BYTES_LIMIT` is
 *   read once, whole, and its bytes come back with the answer (transferred, not copied) so the same
 *   bytes can be sent and fed to the whole-file MD5 without reading the file again.
 * - `open` / `feed` / `partfeed` / `digest` / `close`: the whole-file MD5 of a session, on one worker. `feed`
 *   gives the next piece in file order as the bytes `part` read; `partfeed` gives the next piece as a Blob
 *   too large to hold: it is read once, in chunks, each chunk feeding both the piece's own MD5 (answered)
 *   and the whole-file MD5.
 */
export type Md5Request =
  | { id: number; type: 'md5'; blob: Blob }
  | { id: number; type: 'part'; blob: Blob }
  | { id: number; type: 'open'; session: number }
  | { id: number; type: 'feed'; session: number; data: ArrayBuffer }
  | { id: number; type: 'partfeed'; session: number; blob: Blob }
  | { id: number; type: 'digest'; session: number }
  | { id: number; type: 'close'; session: number };

export type Md5Response = { id: number; ok: true; hex: string; bytes?: ArrayBuffer } | { id: number; ok: false; message: string };

/** Pieces up to this size are read whole and answered with their bytes; larger ones are read in chunks (`partfeed`). */
export const PIECE_BYTES_LIMIT = 32 * 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isMd5Request(value: unknown): value is Md5Request {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  switch (value['type']) {
    case 'md5':
    case 'part':
      return value['blob'] instanceof Blob;
    case 'feed':
      return typeof value['session'] === 'number' && value['data'] instanceof ArrayBuffer;
    case 'partfeed':
      return typeof value['session'] === 'number' && value['blob'] instanceof Blob;
    case 'open':
    case 'digest':
    case 'close':
      return typeof value['session'] === 'number';
    default:
      return false;
  }
}

export function isMd5Response(value: unknown): value is Md5Response {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  if (value['ok'] === false) return typeof value['message'] === 'string';
  return value['ok'] === true && typeof value['hex'] === 'string' && (value['bytes'] === undefined || value['bytes'] instanceof ArrayBuffer);
}
