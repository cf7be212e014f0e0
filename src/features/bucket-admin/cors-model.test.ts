import { describe, expect, it } from 'vitest';
import { buildCorsRule } from '../../api/cors/rule.ts';
import { EMPTY_RULE_FORM, ruleFromForm, sameRule } from './cors-model.ts';

describe('CORS rule form', () => {
  it('builds the wire rule from the fields', () => {
    expect(ruleFromForm({ origin: ' https://a.example ', methods: ['HEAD', 'GET'], allowedHeaders: 'authorization, x-qs-*', exposeHeaders: 'etag', maxAge: '600' })).toEqual({
      rule: { allowed_origin: 'https://a.example', allowed_methods: ['GET', 'HEAD'], allowed_headers: ['authorization', 'x-qs-*'], expose_headers: ['etag'], max_age_seconds: 600 },
    });
    expect(ruleFromForm({ ...EMPTY_RULE_FORM, origin: '*', allowedHeaders: '' })).toEqual({ rule: { allowed_origin: '*', allowed_methods: ['GET', 'HEAD'] } });
  });
  it('names every field that is wrong', () => {
    expect(ruleFromForm({ origin: 'has space', methods: [], allowedHeaders: 'bad header:', exposeHeaders: 'é', maxAge: '-1' })).toEqual({
      problems: {
        origin: 'admin.cors.problem.origin',
        methods: 'admin.cors.problem.methods',
        allowedHeaders: 'admin.cors.problem.header',
        exposeHeaders: 'admin.cors.problem.header',
        maxAge: 'admin.cors.problem.maxAge',
      },
    });
  });
  it('recognises the console rule whatever the order of its lists', () => {
    const rule = buildCorsRule('http://127.0.0.1:4317');
    expect(sameRule(rule, { ...rule, allowed_methods: [...rule.allowed_methods].reverse() })).toBe(true);
    expect(sameRule(rule, { ...rule, allowed_methods: ['GET'] })).toBe(false);
    expect(sameRule(rule, buildCorsRule('http://other.example'))).toBe(false);
  });
});
