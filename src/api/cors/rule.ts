import { customMetadataHeader } from '../protocol/headers.ts';
import type { CorsRule as WireCorsRule } from './schemas.ts';

/**
 * The CORS rule a bucket needs so that this console, running at `origin`, can use it from the browser
 * (ref §9.9 "Browser console requirements"). Request headers: what the console signs and sends,
 * including the metadata headers a REPLACE copy carries. Exposed headers: what it reads back.
 */
export type CorsRule = Required<WireCorsRule>;

export const CONSOLE_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'content-md5',
  'x-qs-date',
  'x-qs-*',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'expires',
  'range',
] as const;

/**
 * The response headers the console reads by name (ref §9.9): what a CORS rule must expose for it. The one
 * list of them: the rule below, and the emulator's demo buckets and service-level answers, use it.
 */
export const CONSOLE_READ_HEADERS = [
  'etag',
  'date',
  'x-qs-request-id',
  'last-modified',
  'content-type',
  'content-length',
  'content-range',
  'content-disposition',
  'content-encoding',
  'cache-control',
  'expires',
  'x-qs-storage-class',
  'x-qs-object-type',
  'x-qs-next-append-position',
] as const;

/**
 * `*` comes first: browsers read it as "every header" for requests without credentials (the console
 * sends none), and it is the only way to expose custom metadata keys the console does not know by name
 * (browsers take `x-qs-meta-*` literally, not as a pattern). The names after it keep the rule useful for
 * a client that does not honour `*`.
 */
export const CONSOLE_EXPOSED_HEADERS = ['*', ...CONSOLE_READ_HEADERS] as const;

/**
 * `metaNames`: custom metadata keys (without prefix) the user wants to read, listed by name beside `*`.
 */
export function buildCorsRule(origin: string, metaNames: readonly string[] = []): CorsRule {
  const meta = [...new Set(metaNames.map((n) => customMetadataHeader(n)))].sort();
  return {
    allowed_origin: origin,
    allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
    allowed_headers: [...CONSOLE_REQUEST_HEADERS],
    expose_headers: [...CONSOLE_EXPOSED_HEADERS, ...meta],
    max_age_seconds: 600,
  };
}

/**
 * The console's rule FIRST, then every other rule in its order; a previous rule for exactly this origin is
 * replaced. First, because the first rule that matches a request decides (ref §9.9): behind a wildcard
 * rule (`*`, `http://*.example.com`) that hides headers or refuses a method, an appended rule would
 * never be reached and the save would stay blocked. The console's rule names only its own origin, so
 * every other origin is still matched by the same rules as before.
 */
export function mergeCorsRules<T extends { allowed_origin?: unknown }>(existing: readonly T[], rule: CorsRule): Array<T | CorsRule> {
  return [rule, ...existing.filter((r) => r.allowed_origin !== rule.allowed_origin)];
}
