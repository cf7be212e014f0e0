/**
 * Conditional requests (ref §5.4 and §5.2/§5.3 for the copy/move source variants).
 * Precedence follows RFC 7232 (ref §5.4, inferred): If-Match, If-Unmodified-Since, If-None-Match,
 * If-Modified-Since. Dates compare at second precision because Last-Modified has no sub-seconds (ref §3).
 */

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

function bareEtag(value: string): string {
  let v = value.trim();
  if (v.startsWith('W/')) v = v.slice(2);
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  return v;
}

function etagListMatches(list: string, etag: string | undefined): boolean {
  const items = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.includes('*')) return true;
  if (etag === undefined) return false;
  const own = bareEtag(etag);
  return items.some((item) => bareEtag(item) === own);
}

/**
 * The three HTTP-date forms (RFC 9110 §5.6.7): IMF-fixdate, obsolete RFC 850 and asctime. Only these are
 * parsed, because `Date.parse` alone is lenient (it reads "0" as the year 2000), and RFC 9110 §13.1.3 says an
 * If-*-Since value that is not a valid HTTP-date is ignored.
 */
const HTTP_DATE_FORMS = [
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

export function parseHttpDate(value: string | null): number | null {
  if (value === null) return null;
  const v = value.trim();
  const form = HTTP_DATE_FORMS.findIndex((re) => re.test(v));
  if (form < 0) return null;
  // asctime carries no zone; it is GMT by definition.
  const ms = Date.parse(form === 2 ? `${v} GMT` : v);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

export function evaluateConditions(c: Conditions, target: ConditionalTarget): ConditionOutcome {
  const modified = Math.floor(target.lastModified.getTime() / 1000);
  if (c.ifMatch !== null) {
    if (!etagListMatches(c.ifMatch, target.etag)) return 'precondition_failed';
  } else {
    const since = parseHttpDate(c.ifUnmodifiedSince);
    if (since !== null && modified > since) return 'precondition_failed';
  }
  if (c.ifNoneMatch !== null) {
    if (etagListMatches(c.ifNoneMatch, target.etag)) return 'not_modified';
  } else {
    const since = parseHttpDate(c.ifModifiedSince);
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
