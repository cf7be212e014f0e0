/**
 * What the console can read of an object's headers, and so what a REPLACE save can safely resend.
 *
 * Across origins a browser hands a script only the CORS-safelisted response headers plus the ones the
 * matching CORS rule names in `Access-Control-Expose-Headers` (Fetch standard, "CORS-safelisted response
 * header name"). `*` in that list exposes every header to requests without credentials (the console
 * never sends cookies). Browsers do NOT treat `x-qs-meta-*` as a pattern: it names one header literally.
 * A header that is hidden reads as absent, which is indistinguishable from "not set" — so the console
 * must know, from the rule, which headers it cannot see before it rewrites an object's metadata.
 *
 * Same-origin requests (the serve proxy) and the demo worker are not filtered.
 *
 * Pure functions; the React hook that feeds them lives in src/hooks/use-header-visibility.ts.
 */
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS, type StandardHeader } from '../protocol/headers.ts';
import { globMatch } from '../protocol/glob.ts';
import type { BucketCors } from './schemas.ts';

/** Response headers any cross-origin script may read (Fetch standard), lower-case. */
export const SAFELISTED_RESPONSE_HEADERS: readonly string[] = [
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
];

export type HeaderVisibility =
  /** Nothing is filtered: demo mode, the same-origin proxy, or a rule exposing `*`. */
  | { kind: 'all'; reason: 'demo' | 'same-origin' | 'wildcard' }
  /** Cross-origin under a matching rule that exposes exactly these names (lower-case). */
  | { kind: 'listed'; exposed: readonly string[] }
  /** Cross-origin and no rule for this origin: only the safelisted headers could be read. */
  | { kind: 'no-rule' }
  /** Cross-origin, and the bucket's CORS configuration could not be read (not the owner, or blocked). */
  | { kind: 'unknown' }
  | { kind: 'checking' };

function originMatches(pattern: string, origin: string): boolean {
  return globMatch(pattern.trim().toLowerCase(), origin.toLowerCase());
}

/** Which headers a page at `origin` may read under `cors` (the first rule whose origin matches wins). */
export function visibilityFromCors(cors: BucketCors, origin: string): HeaderVisibility {
  const rule = cors.cors_rules.find((r) => originMatches(r.allowed_origin, origin));
  if (!rule) return { kind: 'no-rule' };
  const exposed = [...new Set((rule.expose_headers ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean))];
  if (exposed.includes('*')) return { kind: 'all', reason: 'wildcard' };
  return { kind: 'listed', exposed };
}

/** true = readable, false = hidden, undefined = cannot tell (configuration unknown or still loading). */
export function canReadHeader(visibility: HeaderVisibility, name: string): boolean | undefined {
  const header = name.toLowerCase();
  if (visibility.kind === 'all') return true;
  if (SAFELISTED_RESPONSE_HEADERS.includes(header)) return true;
  switch (visibility.kind) {
    case 'listed':
      return visibility.exposed.includes(header);
    case 'no-rule':
      return false;
    case 'unknown':
    case 'checking':
      return undefined;
  }
}

/** What a response showed: names of the headers actually present (lower-case). */
export interface ObservedHeaders {
  has(name: string): boolean;
}

/**
 * Which of the headers a metadata save depends on the browser cannot see, for one object.
 * - `standard`: standard headers a REPLACE save resends that are (or may be) hidden. A header present
 *   in the response is readable whatever the rule says.
 * - `custom`: null when every custom key is readable; otherwise the keys (without prefix) the rule
 *   exposes by name — any other key the object may have is invisible.
 * - `etag` / `lastModified`: whether the guard's headers are hidden (the guard falls back between them).
 */
export interface HiddenHeaders {
  standard: StandardHeader[];
  custom: { exposedKeys: string[] } | null;
  etag: boolean;
  lastModified: boolean;
}

export function hiddenHeaders(visibility: HeaderVisibility, observed?: ObservedHeaders): HiddenHeaders {
  const hidden = (name: string) => observed?.has(name) !== true && canReadHeader(visibility, name) !== true;
  const standard = STANDARD_METADATA_HEADERS.filter(hidden);
  let custom: HiddenHeaders['custom'] = null;
  if (visibility.kind !== 'all') {
    const exposedKeys = visibility.kind === 'listed'
      ? visibility.exposed
        .filter((h) => h.startsWith(CUSTOM_METADATA_PREFIX) && !h.includes('*'))
        .map((h) => h.slice(CUSTOM_METADATA_PREFIX.length))
      : [];
    custom = { exposedKeys };
  }
  return { standard, custom, etag: hidden('etag'), lastModified: hidden('last-modified') };
}

/** True when a REPLACE save could drop something: a hidden standard header or hidden custom keys. */
export function saveWouldBeIncomplete(hidden: HiddenHeaders): boolean {
  return hidden.standard.length > 0 || hidden.custom !== null;
}

/** The parts of a HEAD answer that tell which headers were actually present. */
export interface HeadLike {
  metadata: { standard: Partial<Record<StandardHeader, string>> };
  etag?: string | undefined;
  lastModifiedRaw?: string | undefined;
}

/** hiddenHeaders for one object: what its HEAD answer carried is readable whatever the rule says. */
export function hiddenHeadersOf(visibility: HeaderVisibility, head: HeadLike): HiddenHeaders {
  const present = new Set<string>(STANDARD_METADATA_HEADERS.filter((h) => head.metadata.standard[h] !== undefined));
  if (head.etag !== undefined) present.add('etag');
  if (head.lastModifiedRaw !== undefined) present.add('last-modified');
  return hiddenHeaders(visibility, present);
}
