import { describe, expect, it } from 'vitest';
import { putBucketCorsBodySchema } from './schemas.ts';
import { buildCorsRule, mergeCorsRules } from './rule.ts';
import { visibilityFromCors } from './visibility.ts';

describe('buildCorsRule', () => {
  it('allows the console origin, its methods and request headers, and exposes what it reads', () => {
    const rule = buildCorsRule('http://127.0.0.1:4173', ['Author', 'title']);
    expect(rule.allowed_origin).toBe('http://127.0.0.1:4173');
    expect(rule.allowed_methods).toEqual(['GET', 'PUT', 'POST', 'DELETE', 'HEAD']);
    for (const header of ['authorization', 'content-type', 'content-md5', 'x-qs-date', 'x-qs-*']) {
      expect(rule.allowed_headers).toContain(header);
    }
    for (const header of ['etag', 'x-qs-request-id', 'x-qs-meta-author', 'x-qs-meta-title', 'content-disposition', 'last-modified']) {
      expect(rule.expose_headers).toContain(header);
    }
    // The browser may keep the answer to a write's preflight for ten minutes (ref §5.7).
    expect(rule.max_age_seconds).toBe(600);
    // What PUT ?cors accepts on the wire.
    expect(putBucketCorsBodySchema.safeParse({ cors_rules: [rule] }).success).toBe(true);
  });
});

describe('mergeCorsRules', () => {
  it('puts the console\'s rule first, keeps the rules of other origins in their order and replaces the rule of this origin', () => {
    const other = { allowed_origin: 'https://app.example.com', allowed_methods: ['GET' as const] };
    const old = { allowed_origin: 'http://127.0.0.1:4173', allowed_methods: ['GET' as const] };
    const wildcard = { allowed_origin: '*', allowed_methods: ['GET' as const, 'HEAD' as const], expose_headers: ['ETag'] };
    const rule = buildCorsRule('http://127.0.0.1:4173');
    expect(mergeCorsRules([other, old, wildcard], rule)).toEqual([rule, other, wildcard]);
  });

  it('behind a wildcard rule that hides headers, the merged set lets the console read every header (the first matching rule decides)', () => {
    const origin = 'http://127.0.0.1:4173';
    const wildcard = { allowed_origin: '*', allowed_methods: ['GET' as const, 'HEAD' as const, 'PUT' as const], allowed_headers: ['*'], expose_headers: ['ETag'] };
    expect(visibilityFromCors({ cors_rules: [wildcard] }, origin)).toEqual({ kind: 'listed', exposed: ['etag'] });
    const merged = mergeCorsRules([wildcard], buildCorsRule(origin));
    expect(visibilityFromCors({ cors_rules: merged }, origin)).toEqual({ kind: 'all', reason: 'wildcard' });
    // Another origin is still answered by the wildcard rule, as before.
    expect(visibilityFromCors({ cors_rules: merged }, 'https://elsewhere.example')).toEqual({ kind: 'listed', exposed: ['etag'] });
  });
});
