/**
 * HMAC-SHA256 for the emulator's signature checks, over BYTES.
 *
 * In Node the emulator uses node:crypto (a synchronous HMAC costs about 2 µs; Web Crypto's async sign with
 * its key import and promise hops costs 5-55 µs per call). The same module runs in the browser's service
 * worker, where there is no node:crypto, so it is reached through `process.getBuiltinModule` (no static
 * import for the bundler to resolve) and Web Crypto is the fallback.
 */
import { bytesToBase64, hmacSha256Base64 } from '../../src/api/signing.ts';

type NodeCrypto = typeof import('node:crypto');

function loadNodeCrypto(): NodeCrypto | undefined {
  if (typeof process === 'undefined' || typeof process.getBuiltinModule !== 'function') return undefined;
  return process.getBuiltinModule('node:crypto');
}

const nodeCrypto = loadNodeCrypto();

const webKeys = new Map<string, Promise<CryptoKey>>();

function webKey(secret: string): Promise<CryptoKey> {
  let key = webKeys.get(secret);
  if (!key) {
    key = globalThis.crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (webKeys.size >= 16) {
      const oldest = webKeys.keys().next().value;
      if (oldest !== undefined) webKeys.delete(oldest);
    }
    webKeys.set(secret, key);
  }
  return key;
}

// In the browser every Web Crypto call is answered on another thread. A listing's pages signed in the same
// second carry the same string to sign (paging parameters are not signed, ref §2.3), so the last few results
// are kept: HMAC is a function of its inputs, a kept result is the one Web Crypto would give again.
const recentWebMacs = new Map<string, string>();
const latin1 = new TextDecoder('latin1');

/** Base64(HMAC-SHA256(UTF-8 secret, message bytes)). */
export async function hmacBase64(secret: string, message: Uint8Array): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHmac('sha256', secret).update(message).digest('base64');
  const id = `${secret}\n${latin1.decode(message)}`;
  const known = recentWebMacs.get(id);
  if (known !== undefined) return known;
  const mac = bytesToBase64(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await webKey(secret), new Uint8Array(message))));
  if (recentWebMacs.size >= 64) {
    const oldest = recentWebMacs.keys().next().value;
    if (oldest !== undefined) recentWebMacs.delete(oldest);
  }
  recentWebMacs.set(id, mac);
  return mac;
}

/** Base64(HMAC-SHA256(UTF-8 secret, UTF-8 text)), e.g. a PostObject policy. */
export function hmacTextBase64(secret: string, text: string): Promise<string> {
  if (nodeCrypto) return Promise.resolve(nodeCrypto.createHmac('sha256', secret).update(text, 'utf8').digest('base64'));
  return hmacSha256Base64(secret, text);
}

/**
 * The bytes of a string whose characters are all byte values (a header value: HTTP header values are
 * octets, and both node:http and the Fetch `Headers` hand them over one character per byte).
 */
export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}
