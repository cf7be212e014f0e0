/**
 * Turns a request URL into the QingStor resource it addresses (ref §1.1, §1.3).
 *
 * For a configured domain D: `D` is the global service host, `<zone>.D` a zone host (path style) and
 * `<bucket>.<zone>.D` a virtual host. Hosts outside the domains are path style in `defaultZone` when
 * `acceptAnyHost` is on (the standalone server at http://127.0.0.1:9000/<bucket>/<key>), and are not
 * ours otherwise (the browser worker must let unrelated traffic through).
 */
import { QsError } from '../errors.ts';

export interface HostOptions {
  domains: readonly string[];
  defaultZone: string;
  acceptAnyHost: boolean;
}

/** global = D, zone = <zone>.D, vhost = <bucket>.<zone>.D, other = a host outside the domains. */
export type HostKind = 'global' | 'zone' | 'vhost' | 'other';

interface AddressBase {
  hostKind: HostKind;
  /** Zone named by the host; undefined on the global host (ref §1.1); defaultZone on other hosts. */
  zone: string | undefined;
  /** Bucket label of a virtual-host request; the signer prefixes it to the resource (ref §2.3). */
  bucketInHost: string | undefined;
  /** `url.pathname` exactly as sent, still percent-encoded (ref §1.3: sign the raw path). */
  rawPath: string;
  /** `url.search` without the `?`. */
  rawQuery: string;
  query: URLSearchParams;
}

export type Address =
  | (AddressBase & { level: 'service' })
  | (AddressBase & { level: 'bucket'; bucket: string })
  | (AddressBase & { level: 'object'; bucket: string; key: string });

/** Which host rule matched, before the path is looked at. */
interface HostMatch {
  kind: HostKind;
  zone: string | undefined;
  bucketInHost: string | undefined;
}

function matchHost(hostname: string, options: HostOptions): HostMatch | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const rawDomain of options.domains) {
    const domain = rawDomain.toLowerCase();
    if (host === domain) return { kind: 'global', zone: undefined, bucketInHost: undefined };
    if (!host.endsWith(`.${domain}`)) continue;
    const labels = host.slice(0, -domain.length - 1).split('.');
    if (labels.length === 1 && labels[0]) return { kind: 'zone', zone: labels[0], bucketInHost: undefined };
    if (labels.length === 2 && labels[0] && labels[1]) return { kind: 'vhost', zone: labels[1], bucketInHost: labels[0] };
  }
  return options.acceptAnyHost ? { kind: 'other', zone: options.defaultZone, bucketInHost: undefined } : null;
}

/** Whether the request belongs to the emulator at all (used by the msw predicate). */
export function isEmulatorHost(url: URL, options: HostOptions): boolean {
  return matchHost(url.hostname, options) !== null;
}

function decodeSegment(raw: string, what: 'bucket' | 'key'): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // ref §1.3: the key is the percent-decoded path; a path that is not valid UTF-8 percent-encoding names no key.
    throw new QsError(what === 'key' ? 'invalid_object_name' : 'invalid_bucket_name', `The ${what} in the path is not valid percent-encoded UTF-8.`);
  }
}

/** Returns null when the host is not served by the emulator. Throws QsError for undecodable paths. */
export function resolveAddress(url: URL, options: HostOptions): Address | null {
  const host = matchHost(url.hostname, options);
  if (!host) return null;
  const rawPath = url.pathname === '' ? '/' : url.pathname;
  const rawQuery = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  const base: AddressBase = {
    hostKind: host.kind,
    zone: host.zone,
    bucketInHost: host.bucketInHost,
    rawPath,
    rawQuery,
    query: new URLSearchParams(rawQuery),
  };
  if (host.bucketInHost !== undefined) {
    // Virtual host: `/` is the bucket, `/<key>` the object (ref §1.1).
    const bucket = host.bucketInHost;
    if (rawPath === '/') return { ...base, level: 'bucket', bucket };
    return { ...base, level: 'object', bucket, key: decodeSegment(rawPath.slice(1), 'key') };
  }
  if (rawPath === '/') return { ...base, level: 'service' };
  const rest = rawPath.slice(1);
  const slash = rest.indexOf('/');
  if (slash < 0) return { ...base, level: 'bucket', bucket: decodeSegment(rest, 'bucket') };
  const bucket = decodeSegment(rest.slice(0, slash), 'bucket');
  const rawKey = rest.slice(slash + 1);
  // ref §1.1 (inferred): `/<bucket>/` with an empty key is the bucket resource.
  if (rawKey === '') return { ...base, level: 'bucket', bucket };
  return { ...base, level: 'object', bucket, key: decodeSegment(rawKey, 'key') };
}
