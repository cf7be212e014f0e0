/**
 * QingStor request signatures (ref §2): header signature (`Authorization: QS ak:sig`), query-string
 * signature (pre-signed URLs) and the PostObject policy signature (ref §7).
 *
 * Shared by the console (browser) and the emulator (Node 24), so it uses Web Crypto only and keeps no
 * state. The server side (mocks/auth/signature.ts) rebuilds the same string_to_sign from the raw request.
 */
import { formatHttpDate } from './protocol/http-date.ts';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Query parameter names that are part of the CanonicalizedResource. This is the GO v4 SDK list, the
 * superset of the documented one (ref §2.3, §12). The JS SDK's shorter list mis-signs AppendObject.
 */
export const SUB_RESOURCES: ReadonlySet<string> = new Set([
  'acl',
  'append',
  'cname',
  'cors',
  'delete',
  'image',
  'lifecycle',
  'logging',
  'mirror',
  'notification',
  'part_number',
  'policy',
  'position',
  'replication',
  'stats',
  'upload_id',
  'uploads',
  'version_id',
  'versioning',
  'versions',
  'response-expires',
  'response-cache-control',
  'response-content-type',
  'response-content-language',
  'response-content-encoding',
  'response-content-disposition',
]);

/** The three parameters that carry a query signature; they never enter the resource (ref §2.5). */
export const QUERY_AUTH_PARAMS: ReadonlySet<string> = new Set(['access_key_id', 'expires', 'signature']);

/**
 * Percent-decodes one query component. `+` means space in a query (ref §2.5: SDKs always send `%2B`).
 * A malformed escape is kept verbatim instead of throwing, so a bad URL yields a signature mismatch
 * rather than a crash.
 */
export function decodeQueryComponent(raw: string, plusIsSpace = true): string {
  const text = plusIsSpace ? raw.replace(/\+/g, ' ') : raw;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Splits a raw query (without `?`) into decoded name/value pairs (`a` and `a=` both give value ""), keeping each raw part. */
export function parseRawQuery(rawQuery: string): Array<{ name: string; value: string; raw: string }> {
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = decodeQueryComponent(eq < 0 ? part : part.slice(0, eq));
      const value = eq < 0 ? '' : decodeQueryComponent(part.slice(eq + 1));
      return { name, value, raw: part };
    });
}

/**
 * CanonicalizedResource (ref §2.3): `/<bucket>` when the bucket is in the host, then the path exactly as
 * sent (still percent-encoded; empty counts as `/`), then the sub-resources with DECODED values, sorted.
 */
export function canonicalizedResource(i: { rawPath: string; rawQuery: string; bucketInHost?: string }): string {
  let resource = i.rawPath === '' ? '/' : i.rawPath;
  if (i.bucketInHost !== undefined && i.bucketInHost !== '') resource = `/${i.bucketInHost}${resource}`;
  const subResources = parseRawQuery(i.rawQuery)
    .filter(({ name }) => SUB_RESOURCES.has(name))
    // Value-less and empty parameters are signed as the bare name (ref §2.3 step 3).
    .map(({ name, value }) => (value === '' ? name : `${name}=${value}`))
    .sort(compareCodeUnits);
  return subResources.length > 0 ? `${resource}?${subResources.join('&')}` : resource;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * CanonicalizedHeaders (ref §2.2): every `x-qs-*` header as `name:value\n`, lower-case names sorted in
 * byte order, values trimmed. A fetch `Headers` already lower-cases names and comma-joins repeats.
 * No x-qs-* header ⇒ empty string, so string_to_sign gets no blank line (ref §2.2 step 5).
 */
export function canonicalizedHeaders(headers: Headers): string {
  const lines: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.trim().toLowerCase();
    if (lower.startsWith('x-qs-')) lines.push([lower, value.trim()]);
  }
  lines.sort(([a], [b]) => compareCodeUnits(a, b));
  return lines.map(([name, value]) => `${name}:${value}\n`).join('');
}

/**
 * string_to_sign (ref §2.1, §2.5). With `expires` this is the query-signature form (the Date line carries
 * the expiry). Otherwise the Date line is empty when x-qs-date is present (it is signed among the x-qs-*
 * headers instead, ref §2.4), else the Date header value.
 */
export function stringToSign(i: { method: string; headers: Headers; resource: string; expires?: number }): string {
  const h = i.headers;
  const dateLine = i.expires !== undefined ? String(i.expires) : h.has('x-qs-date') ? '' : (h.get('date') ?? '');
  return (
    `${i.method.toUpperCase()}\n` +
    `${h.get('content-md5') ?? ''}\n` +
    `${h.get('content-type') ?? ''}\n` +
    `${dateLine}\n` +
    canonicalizedHeaders(h) +
    i.resource
  );
}

const utf8 = new TextEncoder();

/** Standard base64 with padding of arbitrary bytes (btoa exists in browsers and Node). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so that very large inputs do not overflow the argument list of fromCharCode.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

/** Base64(HMAC-SHA256(key = UTF-8 secret, msg = UTF-8 message)), ref §2.1. */
// Importing the HMAC key costs about as much as signing itself; a console signs with one secret and the
// emulator with a handful, so imported keys are kept, a few at most.
const hmacKeys = new Map<string, Promise<CryptoKey>>();
const HMAC_KEY_CACHE_SIZE = 16;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = globalThis.crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    if (hmacKeys.size >= HMAC_KEY_CACHE_SIZE) {
      const oldest = hmacKeys.keys().next().value;
      if (oldest !== undefined) hmacKeys.delete(oldest);
    }
    hmacKeys.set(secret, key);
  }
  return key;
}

// The same message is signed again and again within a second: a listing's pages share their query
// signature (paging parameters are not signed, ref §2.3), and Web Crypto answers each call on another thread.
const recentMacs = new Map<string, string>();
const RECENT_MACS = 64;

export async function hmacSha256Base64(secret: string, message: string): Promise<string> {
  const id = `${secret}\n${message}`;
  const known = recentMacs.get(id);
  if (known !== undefined) return known;
  const mac = bytesToBase64(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret), utf8.encode(message))));
  if (recentMacs.size >= RECENT_MACS) {
    const oldest = recentMacs.keys().next().value;
    if (oldest !== undefined) recentMacs.delete(oldest);
  }
  recentMacs.set(id, mac);
  return mac;
}


function resourceOf(url: URL, bucketInHost: string | undefined): string {
  return canonicalizedResource({
    rawPath: url.pathname,
    rawQuery: url.search.startsWith('?') ? url.search.slice(1) : url.search,
    bucketInHost,
  });
}

/**
 * Header-signs a request in place: sets `x-qs-date` (browsers drop `Date`, ref §2.4) and
 * `authorization: QS <ak>:<sig>`. `headers` must already hold Content-MD5/Content-Type/x-qs-* exactly as
 * they will be sent; `url` must be the URL that will be fetched (its pathname is signed verbatim).
 */
export async function signRequest(i: {
  method: string;
  url: URL;
  headers: Headers;
  bucketInHost?: string;
  credentials: Credentials;
  now?: Date;
}): Promise<void> {
  i.headers.set('x-qs-date', formatHttpDate(i.now ?? new Date()));
  const message = stringToSign({ method: i.method, headers: i.headers, resource: resourceOf(i.url, i.bucketInHost) });
  const signature = await hmacSha256Base64(i.credentials.secretAccessKey, message);
  i.headers.set('authorization', `QS ${i.credentials.accessKeyId}:${signature}`);
}

/**
 * Pre-signed URL (ref §2.5): appends access_key_id, expires (absolute Unix seconds) and the
 * percent-encoded signature to a copy of `url`. Existing auth parameters are replaced. `headers` are the
 * Content-MD5/Content-Type/x-qs-* headers the eventual request will carry (none for a download link).
 * The caller's query encoding is preserved byte for byte (URLSearchParams would re-encode it).
 */
export async function presignUrl(i: {
  method: string;
  url: URL;
  bucketInHost?: string;
  credentials: Credentials;
  expires: number;
  headers?: Headers;
}): Promise<URL> {
  if (!Number.isSafeInteger(i.expires) || i.expires < 0) {
    throw new RangeError('expires must be a non-negative integer number of Unix seconds');
  }
  const rawQuery = i.url.search.startsWith('?') ? i.url.search.slice(1) : i.url.search;
  const kept = parseRawQuery(rawQuery)
    .filter(({ name }) => !QUERY_AUTH_PARAMS.has(name))
    .map(({ raw }) => raw);
  const base = new URL(i.url.href);
  base.search = kept.join('&');
  const message = stringToSign({
    method: i.method,
    headers: i.headers ?? new Headers(),
    resource: resourceOf(base, i.bucketInHost),
    expires: i.expires,
  });
  const signature = await hmacSha256Base64(i.credentials.secretAccessKey, message);
  const auth =
    `access_key_id=${encodeURIComponent(i.credentials.accessKeyId)}` +
    `&expires=${i.expires}` +
    `&signature=${encodeURIComponent(signature)}`;
  const signed = new URL(base.href);
  signed.search = kept.length > 0 ? `${kept.join('&')}&${auth}` : auth;
  return signed;
}

/** PostObject policy field (ref §7): Base64 of the UTF-8 JSON object (non-ASCII safe). */
export function encodePolicy(policy: Record<string, string>): string {
  return bytesToBase64(utf8.encode(JSON.stringify(policy)));
}

/** PostObject signature (ref §7, vector V5): HMAC over the policy's base64 text as sent, not the JSON. */
export function signPolicy(policyBase64: string, secretAccessKey: string): Promise<string> {
  return hmacSha256Base64(secretAccessKey, policyBase64);
}
