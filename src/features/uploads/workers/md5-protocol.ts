/**
 * Messages between the engine and the MD5 worker. Both sides validate what they receive with the
 * guards below (structured clone carries no types).
 *
 * - `md5`: one-off digest of a Blob (fingerprints).
 * - `open` / `part` / `digest` / `close`: a session over consecutive pieces of one file. Each `part`
 *   answers the piece's MD5 (Content-MD5, comparison with part ETags) and also feeds a running
 *   whole-file MD5 that `digest` returns, so the object's ETag costs no second pass over the file.
 */
export type Md5Request =
  | { id: number; type: 'md5'; blob: Blob }
  | { id: number; type: 'open'; session: number }
  | { id: number; type: 'part'; session: number; blob: Blob }
  | { id: number; type: 'digest'; session: number }
  | { id: number; type: 'close'; session: number };

export type Md5Response = { id: number; ok: true; hex: string } | { id: number; ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isMd5Request(value: unknown): value is Md5Request {
  if (!isRecord(value) || typeof value['id'] !== 'number') return false;
  switch (value['type']) {
    case 'md5':
      return value['blob'] instanceof Blob;
    case 'part':
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
  return value['ok'] === true ? typeof value['hex'] === 'string' : value['ok'] === false && typeof value['message'] === 'string';
}
