/**
 * MD5 digests for Content-MD5 (base64 of the 16 raw bytes, RFC 1864, ref §3) and for comparing local
 * parts with part ETags (lower-case hex, ref §8.4). Blobs are hashed in slices so memory stays
 * bounded for multi-gigabyte parts.
 *
 * hash-wasm loads on the first digest: screens that never hash (Connect, the bucket list) do not
 * download it, although they import the object operations.
 */

const BLOB_CHUNK = 4 * 1024 * 1024;

export type Md5Input = string | Uint8Array | ArrayBuffer | Blob;

export async function md5Hex(data: Md5Input): Promise<string> {
  const { createMD5, md5 } = await import('hash-wasm');
  if (typeof data === 'string') return md5(new TextEncoder().encode(data));
  if (data instanceof Uint8Array) return md5(data);
  if (data instanceof ArrayBuffer) return md5(new Uint8Array(data));
  const hasher = await createMD5();
  hasher.init();
  for (let offset = 0; offset < data.size; offset += BLOB_CHUNK) {
    const chunk = new Uint8Array(await data.slice(offset, offset + BLOB_CHUNK).arrayBuffer());
    hasher.update(chunk);
  }
  return hasher.digest('hex');
}

export function hexToBase64(hex: string): string {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new TypeError('not a hex string');
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
}

/** Content-MD5 header value for `data`. */
export async function contentMd5(data: Md5Input): Promise<string> {
  return hexToBase64(await md5Hex(data));
}

