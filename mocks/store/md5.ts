import { createMD5 } from 'hash-wasm';
import type { IHasher } from 'hash-wasm';
import { QsError } from '../errors.ts';

/**
 * MD5 for ETags and Content-MD5 checks. node:crypto does not exist in the browser (the msw worker
 * runs the same store), and Web Crypto has no MD5, so the store uses hash-wasm. Its hasher is
 * created once (async, Store.create) and then used synchronously: init/update/digest never await,
 * which keeps every Store method synchronous. Incremental hashing over chunks avoids concatenation;
 * save()/load() let appendable objects extend their MD5 without rereading old bytes.
 */
export class Md5 {
  private readonly hasher: IHasher;

  private constructor(hasher: IHasher) {
    this.hasher = hasher;
  }

  static async create(): Promise<Md5> {
    return new Md5(await createMD5());
  }

  /** Lowercase hex MD5 of the concatenated chunks. */
  hex(chunks: readonly Uint8Array[]): string {
    this.hasher.init();
    for (const chunk of chunks) this.hasher.update(chunk);
    return this.hasher.digest('hex');
  }

  /**
   * Continues a saved state (or starts one) with more chunks; returns the MD5 of everything so
   * far and the state to continue from next time.
   */
  extend(state: Uint8Array | null, chunks: readonly Uint8Array[]): { hex: string; state: Uint8Array } {
    if (state === null) this.hasher.init();
    else this.hasher.load(state);
    for (const chunk of chunks) this.hasher.update(chunk);
    const next = this.hasher.save();
    return { hex: this.hasher.digest('hex'), state: next };
  }
}

/** base64 (Content-MD5 header, RFC 1864) of a hex digest. */
export function hexToBase64(hex: string): string {
  let binary = '';
  for (let i = 0; i + 1 < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
}

/** Throws bad_digest when a Content-MD5 value (base64) does not match the computed hex digest (ref §5.1, §11.12). */
export function checkContentMd5(contentMd5: string | undefined, hex: string): void {
  if (contentMd5 === undefined) return;
  if (contentMd5.trim() !== hexToBase64(hex)) throw new QsError('bad_digest');
}
