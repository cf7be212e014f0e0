import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, jsonOf, OWNER, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

let em: Emulator;
beforeEach(async () => {
  em = await testEmulator();
  await createBucket(em, 'cfg-bucket');
});

const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

describe('bucket ACL (ref §9.7)', () => {
  it('lists the owner first with names; PUT replaces the grants with 200', async () => {
    const empty = await send(em, 'GET', '/cfg-bucket?acl');
    expect(empty.status).toBe(200);
    expect(await jsonOf(empty)).toEqual({
      owner: { id: OWNER.id, name: 'owner' },
      acl: [{ grantee: { type: 'user', id: OWNER.id, name: 'owner' }, permission: 'FULL_CONTROL' }],
    });
    const put = await send(em, 'PUT', '/cfg-bucket?acl', json({
      acl: [
        { grantee: { type: 'user', id: OWNER.id }, permission: 'FULL_CONTROL' },
        { grantee: { type: 'user', id: READER.id }, permission: 'READ' },
        { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' },
      ],
    }));
    expect(put.status).toBe(200);
    expect(await put.text()).toBe('');
    expect(await jsonOf(await send(em, 'GET', 'https://cfg-bucket.pek3a.qingstor.com/?acl'))).toEqual({
      owner: { id: OWNER.id, name: 'owner' },
      acl: [
        { grantee: { type: 'user', id: OWNER.id, name: 'owner' }, permission: 'FULL_CONTROL' },
        { grantee: { type: 'user', id: READER.id, name: 'reader' }, permission: 'READ' },
        { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' },
      ],
    });
    expect((await send(em, 'PUT', '/cfg-bucket?acl', json({ acl: [] }))).status).toBe(200);
    expect(em.store.getBucket('cfg-bucket').acl).toEqual([]);
  });

  it('refuses invalid bodies and non-owners, even with FULL_CONTROL', async () => {
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?acl', json({ acl: [{ grantee: { type: 'group', name: 'EVERYONE' }, permission: 'READ' }] })))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?acl', json({ acl: [{ grantee: { type: 'user', id: READER.id }, permission: 'OWN' }] })))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?acl', { body: 'not json', headers: { 'content-type': 'application/json' } }))).toMatchObject({ status: 400, code: 'invalid_json' });
    em.store.putBucketAcl('cfg-bucket', [{ grantee: { type: 'user', id: WRITER.id }, permission: 'FULL_CONTROL' }]);
    expect(await errorOf(await send(em, 'GET', '/cfg-bucket?acl', { as: WRITER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?acl', { ...json({ acl: [] }), as: WRITER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'GET', '/cfg-bucket?acl', { as: 'anonymous' }))).toMatchObject({ status: 403 });
    expect(await errorOf(await send(em, 'GET', '/no-such-bucket?acl'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });
});

const RULES = {
  resp_vary: 'enabled',
  cors_rules: [
    { allowed_origin: 'http://*.example.com', allowed_methods: ['GET', 'PUT'], allowed_headers: ['x-qs-*', 'content-type', 'authorization'], expose_headers: ['ETag', 'x-qs-request-id'], max_age_seconds: 400 },
    { allowed_origin: 'https://console.test', allowed_methods: ['*'], allowed_headers: ['*'], expose_headers: ['ETag'] },
  ],
};

describe('bucket CORS configuration (ref §9.9)', () => {
  it('answers an empty rule list before configuration, stores and deletes rules', async () => {
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?cors'))).toEqual({ cors_rules: [] });
    const put = await send(em, 'PUT', '/cfg-bucket?cors', json(RULES));
    expect(put.status).toBe(200);
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?cors'))).toEqual(RULES);
    const del = await send(em, 'DELETE', '/cfg-bucket?cors');
    expect(del.status).toBe(204);
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?cors'))).toEqual({ cors_rules: [] });
  });

  it('validates rules and is owner-only', async () => {
    const bad = [
      { cors_rules: [{ allowed_methods: ['GET'] }] },
      { cors_rules: [{ allowed_origin: '*', allowed_methods: ['PATCH'] }] },
      { cors_rules: [{ allowed_origin: '*', allowed_methods: [] }] },
      { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET'], max_age_seconds: -1 }] },
      { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET'] }], resp_vary: 'sometimes' },
      { rules: [] },
    ];
    for (const body of bad) expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?cors', json(body)))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await send(em, 'PUT', '/cfg-bucket?cors', json({ cors_rules: [{ allowed_origin: '*', allowed_methods: ['get'] }], resp_vary: 'Enable' }))).status).toBe(200);
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?cors', { ...json(RULES), as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'DELETE', '/cfg-bucket?cors', { as: STRANGER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('CORS preflight and actual responses (ref §5.7, §9.9)', () => {
  beforeEach(async () => {
    await send(em, 'PUT', '/cfg-bucket?cors', json(RULES));
    await putText(em, 'cfg-bucket', 'file.txt', 'x');
  });
  const preflight = (origin: string, method: string, headers?: string, url = '/cfg-bucket/file.txt') =>
    send(em, 'OPTIONS', url, {
      as: 'anonymous',
      headers: { origin, 'access-control-request-method': method, ...(headers ? { 'access-control-request-headers': headers } : {}) },
    });

  it('answers a matching preflight without auth: origin echoed, methods, requested headers, expose, max-age, vary', async () => {
    const r = await preflight('http://app.example.com', 'PUT', 'content-type, x-qs-date, X-QS-Meta-Author');
    expect(r.status).toBe(200);
    expect(Object.fromEntries([...r.headers].filter(([k]) => k.startsWith('access-control') || k === 'vary'))).toEqual({
      'access-control-allow-origin': 'http://app.example.com',
      'access-control-allow-methods': 'GET, PUT',
      'access-control-allow-headers': 'content-type, x-qs-date, X-QS-Meta-Author',
      'access-control-expose-headers': 'ETag, x-qs-request-id',
      'access-control-max-age': '400',
      vary: 'Origin',
    });
    expect(r.headers.get('x-qs-request-id')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('falls through to the next rule and expands "*" methods', async () => {
    const r = await preflight('https://console.test', 'DELETE', 'authorization, x-custom');
    expect(r.headers.get('access-control-allow-origin')).toBe('https://console.test');
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, PUT, POST, DELETE, HEAD');
    expect(r.headers.get('access-control-max-age')).toBeNull();
  });

  it('answers 200 without CORS headers when nothing matches (origin, method or header)', async () => {
    for (const r of [
      await preflight('http://evil.test', 'GET'),
      await preflight('http://app.example.com', 'DELETE'),
      await preflight('http://app.example.com', 'PUT', 'x-custom'),
      await preflight('http://example.com', 'GET'),
    ]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('refuses non-matching preflights with 403 in strict mode, and malformed ones with 400', async () => {
    const strict = await testEmulator({ strictCors: true });
    await createBucket(strict, 'strict-bucket');
    await send(strict, 'PUT', '/strict-bucket?cors', json(RULES));
    const refused = await send(strict, 'OPTIONS', '/strict-bucket/x', { as: 'anonymous', headers: { origin: 'http://evil.test', 'access-control-request-method': 'GET' } });
    expect(await errorOf(refused)).toMatchObject({ status: 403, code: 'permission_denied' });
    const allowed = await send(strict, 'OPTIONS', '/strict-bucket/x', { as: 'anonymous', headers: { origin: 'http://a.example.com', 'access-control-request-method': 'GET' } });
    expect(allowed.status).toBe(200);
    expect(await errorOf(await send(em, 'OPTIONS', '/cfg-bucket/file.txt', { as: 'anonymous', headers: { origin: 'http://a.example.com' } }))).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('adds CORS headers to actual responses carrying Origin, including errors', async () => {
    const ok = await send(em, 'GET', '/cfg-bucket/file.txt', { headers: { origin: 'http://app.example.com' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://app.example.com');
    expect(ok.headers.get('access-control-expose-headers')).toBe('ETag, x-qs-request-id');
    expect(ok.headers.get('vary')).toBe('Origin');
    const missing = await send(em, 'GET', '/cfg-bucket/none', { headers: { origin: 'http://app.example.com' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('http://app.example.com');
    const noOrigin = await send(em, 'GET', '/cfg-bucket/file.txt');
    expect(noOrigin.headers.get('access-control-allow-origin')).toBeNull();
    const other = await send(em, 'GET', '/cfg-bucket/file.txt', { headers: { origin: 'http://evil.test' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps CORS headers on a DeleteBucket response although the bucket is gone afterwards', async () => {
    await send(em, 'DELETE', '/cfg-bucket/file.txt');
    const r = await send(em, 'DELETE', '/cfg-bucket', { headers: { origin: 'https://console.test' } });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://console.test');
  });

  it('refuses actual requests from disallowed origins in strict mode before they run', async () => {
    const strict = await testEmulator({ strictCors: true });
    await createBucket(strict, 'strict-bucket');
    await send(strict, 'PUT', '/strict-bucket?cors', json(RULES));
    const r = await send(strict, 'PUT', '/strict-bucket/x', { body: new Uint8Array([1]), headers: { origin: 'http://evil.test' } });
    expect(await errorOf(r)).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(strict.store.findObject('strict-bucket', 'x')).toBeUndefined();
    expect((await send(strict, 'PUT', '/strict-bucket/x', { body: new Uint8Array([1]), headers: { origin: 'http://a.example.com' } })).status).toBe(201);
    expect((await send(strict, 'PUT', '/strict-bucket/y', { body: new Uint8Array([1]) })).status).toBe(201);
  });

  it('opens service-level endpoints to any origin and exposes what a console reads (ref §12)', async () => {
    const pre = await send(em, 'OPTIONS', 'https://qingstor.com/', { as: 'anonymous', headers: { origin: 'https://anything.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-qs-date' } });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://anything.test');
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, x-qs-date');
    const list = await send(em, 'GET', 'https://qingstor.com/', { headers: { origin: 'https://anything.test' } });
    expect(list.headers.get('access-control-allow-origin')).toBe('https://anything.test');
    expect(list.headers.get('access-control-expose-headers')).toContain('x-qs-request-id');
  });
});

describe('bucket policy (ref §9.8)', () => {
  const policy = {
    statement: [
      { id: 'allow-all-get', user: '*', action: ['get_object'], effect: 'allow', resource: ['cfg-bucket/*'], condition: { string_like: { Referer: ['*.example.com'] } } },
      { id: 'deny-one', user: 'usr-x', action: 'delete_object', effect: 'deny', resource: 'cfg-bucket/keep/*' },
    ],
  };

  it('stores and returns the document verbatim; DELETE answers 204', async () => {
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?policy'))).toEqual({ statement: [] });
    expect((await send(em, 'PUT', '/cfg-bucket?policy', json(policy))).status).toBe(200);
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?policy'))).toEqual(policy);
    expect((await send(em, 'DELETE', '/cfg-bucket?policy')).status).toBe(204);
    expect(await jsonOf(await send(em, 'GET', '/cfg-bucket?policy'))).toEqual({ statement: [] });
  });

  it('validates statements and is owner-only', async () => {
    const one = policy.statement[0];
    const bad = [
      { statement: [{ ...one, effect: 'maybe' }] },
      { statement: [{ ...one, id: 'x'.repeat(101) }] },
      { statement: [one, one] },
      { statement: [{ ...one, action: [] }] },
      { statements: [] },
    ];
    for (const body of bad) expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?policy', json(body)))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'PUT', '/cfg-bucket?policy', { body: '{', headers: { 'content-type': 'application/json' } }))).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(await errorOf(await send(em, 'GET', '/cfg-bucket?policy', { as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('enforces a stored policy before the ACL', async () => {
    await putText(em, 'cfg-bucket', 'secret/plan.txt', 's');
    await putText(em, 'cfg-bucket', 'open.txt', 'o');
    em.store.putBucketAcl('cfg-bucket', [{ grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    expect((await send(em, 'GET', '/cfg-bucket', { as: 'anonymous' })).status).toBe(403);
    await send(em, 'PUT', '/cfg-bucket?policy', json({
      statement: [
        { id: 'no-secrets', user: READER.id, action: 'get_object', effect: 'deny', resource: 'cfg-bucket/secret/*' },
        { id: 'public-list', user: '*', action: 'list_objects', effect: 'allow', resource: 'cfg-bucket' },
      ],
    }));
    expect((await send(em, 'GET', '/cfg-bucket', { as: 'anonymous' })).status).toBe(200);
    expect(await errorOf(await send(em, 'GET', '/cfg-bucket/secret/plan.txt', { as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect((await send(em, 'GET', '/cfg-bucket/open.txt', { as: READER })).status).toBe(200);
    expect((await send(em, 'GET', '/cfg-bucket/secret/plan.txt')).status).toBe(200);
  });
});
