import type { IHasher } from 'hash-wasm';
import { QsError } from '../errors.ts';

type NodeCrypto = typeof import('node:crypto');
type NodeHash = ReturnType<NodeCrypto['createHash']>;

function loadNodeCrypto(): NodeCrypto | undefined {
  if (typeof process === 'undefined' || typeof process.getBuiltinModule !== 'function') return undefined;
  return process.getBuiltinModule('node:crypto');
}

const nodeCrypto = loadNodeCrypto();


/**
 * Where an appendable object's MD5 stands, so that the next append hashes only its own bytes: a live
 * node:crypto Hash (copied, never finished) in Node, hash-wasm's saved state in the browser.
 */
export type Md5State = { readonly kind: 'node'; readonly hash: NodeHash } | { readonly kind: 'wasm'; readonly bytes: Uint8Array };

/** An MD5 fed chunk by chunk while a body arrives. */
export interface StreamingMd5 {
  /** Hashes one more chunk (synchronously: node:crypto's native MD5 on the thread that reads the body). */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** Lowercase hex of everything fed; call once. */
  digest(): Promise<string>;
  /** Drops the hash (the body was refused or cut off). */
  cancel(): void;
}

/**
 * MD5 for ETags and Content-MD5 checks. In Node it is node:crypto (native; hash-wasm took 2.4 s per
 * GiB). In the browser (the msw worker runs the same store) there is no node:crypto and Web Crypto has
 * no MD5, so hash-wasm is loaded once (async, Store.create) and then used synchronously: every Store
 * method stays synchronous.
 */
export class Md5 {
  private readonly wasm: IHasher | undefined;

  private constructor(wasm: IHasher | undefined) {
    this.wasm = wasm;
  }

  /**
   * Starts loading hash-wasm without waiting for it (the browser demo calls this first, so the download and
   * compile run beside its other start-up steps; `create` then finds the module loaded).
   */
  static preload(): void {
    if (!nodeCrypto) void import('hash-wasm').catch(() => undefined);
  }

  static async create(): Promise<Md5> {
    if (nodeCrypto) return new Md5(undefined);
    const { createMD5 } = await import('hash-wasm');
    return new Md5(await createMD5());
  }

  private hasher(): IHasher {
    if (!this.wasm) throw new Error('md5: no hash-wasm hasher');
    return this.wasm;
  }

  /** Lowercase hex MD5 of the concatenated chunks. */
  hex(chunks: readonly Uint8Array[]): string {
    if (nodeCrypto) {
      const hash = nodeCrypto.createHash('md5');
      for (const chunk of chunks) hash.update(chunk);
      return hash.digest('hex');
    }
    const hasher = this.hasher();
    hasher.init();
    for (const chunk of chunks) hasher.update(chunk);
    return hasher.digest('hex');
  }

  /**
   * An MD5 to feed while a body streams in, or undefined in the browser: hash-wasm's one hasher is shared
   * by synchronous calls and must not be held across awaits (the store hashes the whole body there).
   *
   * In Node each chunk is hashed as it arrives, on the thread that reads it. Hashing on a worker thread
   * instead (as this once did for bodies above 4 MiB) cost a copy of every byte into a transfer buffer, a
   * message per MiB and the garbage of those buffers: about 1 CPU-s more per GiB than a server that only
   * hashes what it receives, and no faster on a 2-core machine whose other core is busy sending the body.
   */
  static incremental(): StreamingMd5 | undefined {
    if (!nodeCrypto) return undefined;
    let hash: NodeHash | undefined = nodeCrypto.createHash('md5');
    return {
      update(chunk) {
        hash?.update(chunk);
        return undefined;
      },
      digest() {
        const hex = hash?.digest('hex') ?? '';
        hash = undefined;
        return Promise.resolve(hex);
      },
      cancel() {
        hash = undefined;
      },
    };
  }

  /**
   * Continues a saved state (or starts one) with more chunks; returns the MD5 of everything so
   * far and the state to continue from next time.
   */
  extend(state: Md5State | null, chunks: readonly Uint8Array[]): { hex: string; state: Md5State } {
    if (nodeCrypto) {
      const hash = state?.kind === 'node' ? state.hash.copy() : nodeCrypto.createHash('md5');
      for (const chunk of chunks) hash.update(chunk);
      const next: Md5State = { kind: 'node', hash: hash.copy() };
      return { hex: hash.digest('hex'), state: next };
    }
    const hasher = this.hasher();
    if (state?.kind === 'wasm') hasher.load(state.bytes);
    else hasher.init();
    for (const chunk of chunks) hasher.update(chunk);
    const next: Md5State = { kind: 'wasm', bytes: hasher.save() };
    return { hex: hasher.digest('hex'), state: next };
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
