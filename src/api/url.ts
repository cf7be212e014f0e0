import type { Connection } from './connection.ts';

/**
 * URL building for QingStor requests (ref §1). The path produced here is exactly the path that is
 * signed (ref §2.3 signs the raw, percent-encoded path), so encoding decisions live in one place.
 */

/** encodeURIComponent plus RFC 3986 reserved sub-delims it leaves alone, uppercase hex (ref §1.3). */
export function encodeStrict(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Thrown for keys that no browser can put into a URL path unchanged. */
export class UnaddressableKeyError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`The object key ${JSON.stringify(key)} cannot be addressed in a URL path: "." and ".." are rewritten by URL parsers`);
    this.name = 'UnaddressableKeyError';
    this.key = key;
  }
}

/**
 * Object key → URL path fragment (without the leading slash).
 *
 * ref §1.3: each '/'-separated segment is encoded with encodeURIComponent, `! ' ( ) *` are escaped
 * too, '/' is kept so paths stay readable. WHATWG URL parsing removes "." / ".." segments (also their
 * %2E spellings), which would silently address a different key; the server decodes `%2F` to '/'
 * (ref §1.3: `a%2Fb` and `a/b` name the same key), so for such keys every '/' is sent as `%2F` and
 * the whole key becomes one segment. Only a key that is exactly "." or ".." remains impossible.
 */
export function encodeKey(key: string): string {
  const segments = key.split('/');
  const hasDotSegment = segments.some((s) => s === '.' || s === '..');
  if (!hasDotSegment) return segments.map(encodeStrict).join('/');
  if (key === '.' || key === '..') throw new UnaddressableKeyError(key);
  return encodeStrict(key);
}

/**
 * Query values: `null` renders a bare name (`?acl`, `?uploads`: sub-resources without value, ref
 * §2.3); `undefined` omits the parameter; everything else is stringified and percent-encoded.
 */
export type QueryValue = string | number | boolean | null | undefined;
export type QueryInput = Readonly<Record<string, QueryValue>>;

export function encodeQuery(query: QueryInput | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(value === null ? encodeStrict(name) : `${encodeStrict(name)}=${encodeStrict(String(value))}`);
  }
  return parts.join('&');
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** IP literal hosts cannot carry a bucket label (GO SDK refuses virtual-host for IPs, ref §1.2). */
export function isIpHost(hostname: string): boolean {
  return IPV4.test(hostname) || hostname.startsWith('[') || hostname.includes(':');
}

export interface UrlInput {
  connection: Connection;
  /** Zone id; `undefined` = connection.defaultZone; `null` = the global host (service level only). */
  zone?: string | null;
  bucket?: string;
  /** Object key, unencoded. Empty or absent ⇒ bucket-level resource. */
  key?: string;
  query?: QueryInput;
}

export interface BuiltUrl {
  /** The URL the request is sent to (through the proxy when the connection has one). */
  url: URL;
  /**
   * The direct URL whose path and query are signed. Differs from `url` only with a proxy: the
   * QingStor server behind it receives the direct path (src/serve/proxy.ts contract, ref §2.3).
   */
  signingUrl: URL;
  /** Set when the bucket travels in the host (virtual-host style); the signer prefixes `/<bucket>`. */
  bucketInHost?: string;
}

/** Which addressing style a request will actually use (virtual-host falls back to path for IPs). */
export function effectiveStyle(connection: Connection): Connection['style'] {
  if (connection.style === 'virtual-host' && isIpHost(new URL(connection.endpoint).hostname)) return 'path';
  return connection.style;
}

function pageHref(): string | undefined {
  return typeof location !== 'undefined' && typeof location.href === 'string' ? location.href : undefined;
}

/** `<proxy>/<host><path>?<query>`: the proxy strips `<proxy>/<host>` and forwards the rest byte for byte. */
export function viaProxy(direct: URL, proxy: string): URL {
  const base = new URL(proxy.endsWith('/') ? proxy : `${proxy}/`, pageHref());
  return new URL(`${base.origin}${base.pathname}${direct.host}${direct.pathname}${direct.search}`);
}

export function buildUrl(input: UrlInput): BuiltUrl {
  const { connection, bucket } = input;
  const endpoint = new URL(connection.endpoint);
  const zone = input.zone === undefined ? connection.defaultZone : input.zone;

  let host = endpoint.host;
  if (connection.zoneInHost && zone !== null) host = `${zone}.${host}`;

  const key = input.key ?? '';
  const vhost = bucket !== undefined && effectiveStyle(connection) === 'virtual-host';
  let path: string;
  if (bucket === undefined) {
    path = '/';
  } else if (vhost) {
    host = `${bucket}.${host}`;
    path = `/${key === '' ? '' : encodeKey(key)}`;
  } else {
    // Path style bucket resource is `/<bucket>` without trailing slash (ref §2.3: `/mybucket`).
    path = key === '' ? `/${bucket}` : `/${bucket}/${encodeKey(key)}`;
  }

  const search = encodeQuery(input.query);
  const signingUrl = new URL(`${endpoint.protocol}//${host}${path}${search ? `?${search}` : ''}`);
  const url = connection.proxy ? viaProxy(signingUrl, connection.proxy) : signingUrl;
  return vhost && bucket !== undefined ? { url, signingUrl, bucketInHost: bucket } : { url, signingUrl };
}
