import { useMemo } from 'react';
import { isSameOriginPath, matchPath, safeDecode, useLocation, useParams } from '../lib/router.tsx';
import { ROUTE_PATHS } from './route-paths.ts';

/**
 * The URL owns navigation state (README.md, "Architecture"): zone and bucket are path segments, the prefix,
 * the filter and the object whose details are open are query parameters. Keys can hold any
 * character (`?`, `#`, `%`, `+`, `..`), so they never go into the path, where URL parsing would
 * rewrite dot segments; in the query only the encoding below is needed.
 *
 *   /                                         bucket list (all zones)
 *   /connect                                  connect screen (endpoint mode)
 *   /buckets/<zone>/<bucket>?prefix=a/b/&filter=x&flat=1&object=a/b/c.txt
 *
 * `flat=1` lists every key below the prefix without folders (no delimiter).
 */
export { ROUTE_PATHS } from './route-paths.ts';

export interface BrowseLocation {
  zone: string;
  bucket: string;
  prefix: string;
  filter: string;
  flat: boolean;
  object: string | null;
}

/** encodeURIComponent keeps the query unambiguous; '/' is legal in a query and stays readable. */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/g, '/');
}

export function bucketPath(zone: string, bucket: string): string {
  return `/buckets/${encodeURIComponent(zone)}/${encodeURIComponent(bucket)}`;
}

/** A bucket's settings page (access, CORS, policy, statistics). */
export function bucketSettingsPath(zone: string, bucket: string): string {
  return `${bucketPath(zone, bucket)}/settings`;
}

export function browseHref(location: Pick<BrowseLocation, 'zone' | 'bucket'> & Partial<BrowseLocation>): string {
  const params: string[] = [];
  if (location.prefix) params.push(`prefix=${encodeQueryValue(location.prefix)}`);
  if (location.filter) params.push(`filter=${encodeQueryValue(location.filter)}`);
  if (location.flat) params.push('flat=1');
  if (location.object !== undefined && location.object !== null) params.push(`object=${encodeQueryValue(location.object)}`);
  const base = bucketPath(location.zone, location.bucket);
  return params.length ? `${base}?${params.join('&')}` : base;
}

/** The Connect screen, returning to `next` (a path of this app) once connected. */
export function connectHref(next?: string): string {
  return next && next !== '/' ? `/connect?next=${encodeQueryValue(next)}` : '/connect';
}

/**
 * `next` from the Connect URL, only when it is a same-origin path of one of the console's own screens
 * (never another origin, never the Connect screen itself); anything else is null.
 */
export function safeNextPath(search: string): string | null {
  const next = readQueryParam(search, 'next');
  if (next === null || !isSameOriginPath(next)) return null;
  const pathname = new URL(next, 'http://console.invalid').pathname;
  const targets = [ROUTE_PATHS.home, ROUTE_PATHS.bucket, ROUTE_PATHS.uploads, ROUTE_PATHS.allUploads, ROUTE_PATHS.settings];
  return targets.some((pattern) => matchPath(pattern, pathname) !== null) ? next : null;
}

/** Parent "folder" of a prefix: 'a/b/' → 'a/', 'a/' → ''. */
export function parentPrefix(prefix: string): string {
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}

/** Reads a query parameter without URLSearchParams' form semantics ('+' is a literal plus here). */
export function readQueryParam(search: string, name: string): string | null {
  const query = search.startsWith('?') ? search.slice(1) : search;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    if (safeDecode(rawName) !== name) continue;
    return eq < 0 ? '' : safeDecode(part.slice(eq + 1));
  }
  return null;
}

export function useBrowseLocation(): BrowseLocation {
  const params = useParams();
  const { search } = useLocation();
  return useMemo(
    () => ({
      zone: params['zone'] ?? '',
      bucket: params['bucket'] ?? '',
      prefix: readQueryParam(search, 'prefix') ?? '',
      filter: readQueryParam(search, 'filter') ?? '',
      flat: readQueryParam(search, 'flat') === '1',
      object: readQueryParam(search, 'object'),
    }),
    [params, search],
  );
}
