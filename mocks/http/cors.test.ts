import { describe, expect, it } from 'vitest';
import { corsHeadersForRule, findCorsRule, parseHeaderList, type CorsConfigLike } from './cors.ts';

const config: CorsConfigLike = {
  cors_rules: [
    { allowed_origin: 'http://*.example.com', allowed_methods: ['GET'], allowed_headers: ['x-qs-*'] },
    { allowed_origin: 'https://*.a.*.test', allowed_methods: ['put'] },
    { allowed_origin: '*', allowed_methods: ['*'], allowed_headers: ['*'] },
  ],
};

describe('CORS rule matching (ref §9.9)', () => {
  it('matches origins with * wildcards, case-insensitively', () => {
    expect(findCorsRule(config, 'http://app.EXAMPLE.com', 'GET', [])).toBe(config.cors_rules[0]);
    expect(findCorsRule(config, 'https://x.a.y.test', 'PUT', [])).toBe(config.cors_rules[1]);
    expect(findCorsRule({ cors_rules: [config.cors_rules[0]!] }, 'http://example.com', 'GET', [])).toBeUndefined();
    expect(findCorsRule({ cors_rules: [config.cors_rules[0]!] }, 'https://app.example.com', 'GET', [])).toBeUndefined();
  });

  it('needs the method and every requested header to be covered', () => {
    expect(findCorsRule(config, 'http://app.example.com', 'GET', ['X-QS-Date', 'x-qs-meta-a'])).toBe(config.cors_rules[0]);
    // Not covered by rule 0 ⇒ falls to the catch-all rule.
    expect(findCorsRule(config, 'http://app.example.com', 'GET', ['authorization'])).toBe(config.cors_rules[2]);
    expect(findCorsRule({ cors_rules: config.cors_rules.slice(0, 2) }, 'http://app.example.com', 'DELETE', [])).toBeUndefined();
    expect(findCorsRule(undefined, 'http://a', 'GET', [])).toBeUndefined();
  });

  it('builds headers: vary only when resp_vary is enabled/enable', () => {
    const rule = { allowed_origin: '*', allowed_methods: ['GET', 'HEAD'], expose_headers: ['ETag'], max_age_seconds: 0 };
    expect(corsHeadersForRule({ cors_rules: [rule], resp_vary: 'Enable' }, rule, 'http://o', ['a'])).toEqual({
      'access-control-allow-origin': 'http://o',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'a',
      'access-control-expose-headers': 'ETag',
      'access-control-max-age': '0',
      vary: 'Origin',
    });
    expect(corsHeadersForRule({ cors_rules: [rule], resp_vary: 'disabled' }, rule, 'http://o', undefined)).not.toHaveProperty('vary');
  });

  it('parses header lists', () => {
    expect(parseHeaderList(' a, B ,,c ')).toEqual(['a', 'B', 'c']);
    expect(parseHeaderList(null)).toEqual([]);
  });
});
