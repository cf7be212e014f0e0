import { describe, expect, it } from 'vitest';
import { canReadHeader, hiddenHeaders, saveWouldBeIncomplete, visibilityFromCors } from './visibility.ts';

const rule = (origin: string, expose: string[]) => ({ allowed_origin: origin, allowed_methods: ['GET' as const], expose_headers: expose });
const ORIGIN = 'http://console.test';

describe('visibilityFromCors', () => {
  it('sees everything only when the first rule matching the origin exposes *', () => {
    expect(visibilityFromCors({ cors_rules: [rule('*', ['ETag', '*'])] }, ORIGIN)).toEqual({ kind: 'all', reason: 'wildcard' });
    expect(visibilityFromCors({ cors_rules: [rule('http://*.test', ['ETag', 'X-QS-Meta-Author'])] }, ORIGIN)).toEqual({ kind: 'listed', exposed: ['etag', 'x-qs-meta-author'] });
    expect(visibilityFromCors({ cors_rules: [rule('http://other.test', ['*'])] }, ORIGIN)).toEqual({ kind: 'no-rule' });
    expect(visibilityFromCors({ cors_rules: [rule('http://*.test', ['etag']), rule('*', ['*'])] }, ORIGIN)).toEqual({ kind: 'listed', exposed: ['etag'] });
  });
});

describe('canReadHeader', () => {
  it('safelisted headers are always readable, others only when exposed; unknown rules give no answer', () => {
    const listed = { kind: 'listed', exposed: ['etag'] } as const;
    expect(canReadHeader(listed, 'Cache-Control')).toBe(true);
    expect(canReadHeader(listed, 'last-modified')).toBe(true);
    expect(canReadHeader(listed, 'ETag')).toBe(true);
    expect(canReadHeader(listed, 'content-disposition')).toBe(false);
    expect(canReadHeader(listed, 'content-encoding')).toBe(false);
    expect(canReadHeader({ kind: 'unknown' }, 'etag')).toBeUndefined();
    expect(canReadHeader({ kind: 'unknown' }, 'expires')).toBe(true);
    expect(canReadHeader({ kind: 'no-rule' }, 'etag')).toBe(false);
    expect(canReadHeader({ kind: 'all', reason: 'same-origin' }, 'x-qs-meta-anything')).toBe(true);
  });
});

describe('hiddenHeaders', () => {
  it('the rule from the user report (ETag and x-qs-request-id only) hides Content-Disposition, Content-Encoding and every custom key', () => {
    const visibility = visibilityFromCors({ cors_rules: [rule(ORIGIN, ['ETag', 'x-qs-request-id'])] }, ORIGIN);
    const hidden = hiddenHeaders(visibility);
    expect(hidden).toEqual({ standard: ['content-disposition', 'content-encoding'], custom: { exposedKeys: [] }, etag: false, lastModified: false });
    expect(saveWouldBeIncomplete(hidden)).toBe(true);
  });

  it('x-qs-meta-* in a rule is a literal name to browsers, not a pattern', () => {
    const visibility = visibilityFromCors({ cors_rules: [rule(ORIGIN, ['etag', 'content-disposition', 'content-encoding', 'x-qs-meta-*', 'x-qs-meta-author'])] }, ORIGIN);
    expect(hiddenHeaders(visibility).custom).toEqual({ exposedKeys: ['author'] });
  });

  it('a header present in the response is readable whatever the rule says; absent ones stay hidden under an unknown rule', () => {
    const hidden = hiddenHeaders({ kind: 'unknown' }, new Set(['etag', 'content-disposition']));
    expect(hidden.standard).toEqual(['content-encoding']);
    expect(hidden.etag).toBe(false);
    expect(hidden.custom).toEqual({ exposedKeys: [] });
  });

  it('nothing is hidden in demo mode, behind the proxy, or under *', () => {
    for (const reason of ['demo', 'same-origin', 'wildcard'] as const) {
      expect(saveWouldBeIncomplete(hiddenHeaders({ kind: 'all', reason }))).toBe(false);
    }
  });
});
