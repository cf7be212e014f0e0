/**
 * Conditional requests (ref §5.4 and §5.2/§5.3 for the copy/move source variants).
 * Precedence follows RFC 7232 (ref §5.4, inferred): If-Match, If-Unmodified-Since, If-None-Match,
 * If-Modified-Since. Dates compare at second precision because Last-Modified has no sub-seconds (ref §3).
 */
import { unquoteEtag } from '../../src/api/protocol/etag.ts';
import { parseHttpDate } from '../../src/api/protocol/http-date.ts';

export interface ConditionalTarget {
  /** Quoted or bare ETag; undefined for objects completed without one (ref §8.5). */
  etag: string | undefined;
  lastModified: Date;
}

export interface Conditions {
  ifMatch: string | null;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  ifUnmodifiedSince: string | null;
}

export type ConditionOutcome = 'ok' | 'not_modified' | 'precondition_failed';

function etagListMatches(list: string, etag: string | undefined): boolean {
  const items = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.includes('*')) return true;
  if (etag === undefined) return false;
  const own = unquoteEtag(etag);
  return items.some((item) => unquoteEtag(item) === own);
}

/** Seconds since the epoch of an If-*-Since value; null when it is no HTTP-date (RFC 9110 §13.1.3: then ignored). */
function sinceSeconds(value: string | null): number | null {
  const date = value === null ? null : parseHttpDate(value.trim());
  return date === null ? null : Math.floor(date.getTime() / 1000);
}

export function evaluateConditions(c: Conditions, target: ConditionalTarget): ConditionOutcome {
  const modified = Math.floor(target.lastModified.getTime() / 1000);
  if (c.ifMatch !== null) {
    if (!etagListMatches(c.ifMatch, target.etag)) return 'precondition_failed';
  } else {
    const since = sinceSeconds(c.ifUnmodifiedSince);
    if (since !== null && modified > since) return 'precondition_failed';
  }
  if (c.ifNoneMatch !== null) {
    if (etagListMatches(c.ifNoneMatch, target.etag)) return 'not_modified';
  } else {
    const since = sinceSeconds(c.ifModifiedSince);
    if (since !== null && modified <= since) return 'not_modified';
  }
  return 'ok';
}

/** GET/HEAD conditionals from the standard headers. */
export function requestConditions(headers: Headers): Conditions {
  return {
    ifMatch: headers.get('if-match'),
    ifNoneMatch: headers.get('if-none-match'),
    ifModifiedSince: headers.get('if-modified-since'),
    ifUnmodifiedSince: headers.get('if-unmodified-since'),
  };
}

/** `x-qs-copy-source-if-*` / `x-qs-move-source-if-*`: every failure is 412 (ref §5.2). */
export function sourceConditions(headers: Headers, prefix: 'x-qs-copy-source' | 'x-qs-move-source'): Conditions {
  return {
    ifMatch: headers.get(`${prefix}-if-match`),
    ifNoneMatch: headers.get(`${prefix}-if-none-match`),
    ifModifiedSince: headers.get(`${prefix}-if-modified-since`),
    ifUnmodifiedSince: headers.get(`${prefix}-if-unmodified-since`),
  };
}
