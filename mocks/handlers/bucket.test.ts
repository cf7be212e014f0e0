import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, jsonOf, md5Base64, md5Hex, OWNER, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

let em: Emulator;
beforeEach(async () => {
  em = await testEmulator();
});

describe('PutBucket (ref §9.2)', () => {
  it('creates in the host zone with 201, path style and virtual-host style', async () => {
    const path = await send(em, 'PUT', 'https://pek3a.qingstor.com/photos-path');
    expect(path.status).toBe(201);
    const vhost = await send(em, 'PUT', 'https://photos-vhost.sh1a.qingstor.com/');
    expect(vhost.status).toBe(201);
    expect(em.store.getBucket('photos-path')).toMatchObject({ zone: 'pek3a', ownerId: OWNER.id });
    expect(em.store.getBucket('photos-vhost')).toMatchObject({ zone: 'sh1a', ownerId: OWNER.id });
  });

  it('refuses taken names (409), invalid names (400), anonymous callers (403) and the global host (404)', async () => {
    await createBucket(em, 'taken-name');
    expect(await errorOf(await send(em, 'PUT', '/taken-name', { as: READER }))).toMatchObject({ status: 409, code: 'bucket_already_exists' });
    for (const bad of ['short', 'Upper-case', '-leading', 'trailing-', 'under_score', 'a'.repeat(64)]) {
      expect(await errorOf(await send(em, 'PUT', `/${bad}`))).toMatchObject({ status: 400, code: 'invalid_bucket_name' });
    }
    expect(await errorOf(await send(em, 'PUT', '/anon-bucket', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'PUT', 'https://qingstor.com/global-bucket'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'PUT', 'https://mars1.qingstor.com/mars-bucket'))).toMatchObject({ status: 400, code: 'invalid_location' });
    // Boundary lengths: 6 and 63 characters are fine.
    expect((await send(em, 'PUT', '/abcdef')).status).toBe(201);
    expect((await send(em, 'PUT', `/${'b'.repeat(63)}`)).status).toBe(201);
  });

  it('puts buckets on hosts outside the domains into defaultZone when acceptAnyHost is on', async () => {
    const any = await testEmulator({ acceptAnyHost: true, defaultZone: 'sh1a' });
    expect((await send(any, 'PUT', 'http://127.0.0.1:9000/local-bucket')).status).toBe(201);
    expect(any.store.getBucket('local-bucket').zone).toBe('sh1a');
  });

  it('reaches buckets of every zone from hosts outside the domains (no zone in the host to compare)', async () => {
    const any = await testEmulator({ acceptAnyHost: true });
    await createBucket(any, 'far-away', 'sh1a');
    expect((await send(any, 'HEAD', 'http://127.0.0.1:9000/far-away')).status).toBe(200);
    expect(await jsonOf(await send(any, 'GET', 'http://127.0.0.1:9000/'))).toMatchObject({ count: 1, buckets: [{ name: 'far-away', location: 'sh1a', url: 'http://127.0.0.1:9000/far-away' }] });
  });

  it('reports too_many_buckets (403) from the store quota', async () => {
    const { Store } = await import('../store/index.ts');
    const { createHandlers, handleEmulatorRequest, resolveOptions } = await import('./index.ts');
    const store = await Store.create({ maxBucketsPerOwner: 1 });
    const options = { store, users: em.users, domains: ['qingstor.com'], defaultZone: 'pek3a' };
    const limited: Emulator = { store, users: em.users, handlers: createHandlers(options), respond: (request) => handleEmulatorRequest(request, resolveOptions(options)) };
    expect((await send(limited, 'PUT', '/first-bucket')).status).toBe(201);
    expect(await errorOf(await send(limited, 'PUT', '/second-bucket'))).toMatchObject({ status: 403, code: 'too_many_buckets' });
  });
});

describe('bucket zone and host rules (ref §1.1, §11.18)', () => {
  it('hides a bucket from other zones and from the global host', async () => {
    await createBucket(em, 'pek-bucket', 'pek3a');
    expect((await send(em, 'HEAD', 'https://pek3a.qingstor.com/pek-bucket')).status).toBe(200);
    expect((await send(em, 'HEAD', 'https://pek-bucket.pek3a.qingstor.com/')).status).toBe(200);
    expect(await errorOf(await send(em, 'GET', 'https://sh1a.qingstor.com/pek-bucket'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'GET', 'https://pek-bucket.sh1a.qingstor.com/'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/pek-bucket'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });

  it('serves several domains at once', async () => {
    await createBucket(em, 'two-domains');
    expect((await send(em, 'HEAD', 'http://pek3a.qingstor.local:9000/two-domains')).status).toBe(200);
    expect((await send(em, 'HEAD', 'http://two-domains.pek3a.qingstor.local:9000/')).status).toBe(200);
  });
});

describe('DeleteBucket and HeadBucket (ref §9.3, §9.4)', () => {
  it('deletes an empty bucket with 204 (in-progress uploads do not block)', async () => {
    await createBucket(em, 'to-delete');
    await send(em, 'POST', '/to-delete/big?uploads');
    expect((await send(em, 'DELETE', '/to-delete')).status).toBe(204);
    expect(em.store.findBucket('to-delete')).toBeUndefined();
  });

  it('refuses non-empty buckets (409), missing ones (404) and non-owners (403)', async () => {
    await createBucket(em, 'full-bucket');
    await putText(em, 'full-bucket', 'a.txt', 'x');
    em.store.putBucketAcl('full-bucket', [{ grantee: { type: 'user', id: WRITER.id }, permission: 'FULL_CONTROL' }]);
    expect(await errorOf(await send(em, 'DELETE', '/full-bucket'))).toMatchObject({ status: 409, code: 'bucket_not_empty' });
    expect(await errorOf(await send(em, 'DELETE', '/no-such-bucket'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'DELETE', '/full-bucket', { as: WRITER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('HEAD answers 200 for owner and grantees, 403 without access, 404 when missing, never a body', async () => {
    await createBucket(em, 'head-bucket');
    em.store.putBucketAcl('head-bucket', [{ grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    const ok = await send(em, 'HEAD', '/head-bucket');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    expect((await send(em, 'HEAD', '/head-bucket', { as: READER })).status).toBe(200);
    expect((await send(em, 'HEAD', '/head-bucket', { as: STRANGER })).status).toBe(403);
    expect((await send(em, 'HEAD', '/head-bucket', { as: 'anonymous' })).status).toBe(403);
    const missing = await send(em, 'HEAD', '/missing-bucket');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('');
  });
});

describe('ListObjects (ref §9.5)', () => {
  beforeEach(async () => {
    await createBucket(em, 'list-bucket');
    for (const key of ['a.txt', 'b/1.txt', 'b/2.txt', 'b/sub/3.txt', 'c/', 'c/x.txt', 'd.txt']) await putText(em, 'list-bucket', key, key);
  });

  it('returns the documented shape: quoted etag, unix modified, ISO created, owner', async () => {
    const r = await send(em, 'GET', '/list-bucket?prefix=a');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    const body = await jsonOf(r);
    expect(body).toEqual({
      name: 'list-bucket',
      owner: { id: OWNER.id, name: 'owner' },
      prefix: 'a',
      delimiter: '',
      limit: 100,
      marker: '',
      next_marker: 'a.txt',
      has_more: false,
      common_prefixes: [],
      keys: [
        {
          key: 'a.txt',
          size: 5,
          etag: `"${md5Hex('a.txt')}"`,
          mime_type: 'application/octet-stream',
          created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          modified: expect.any(Number),
          encrypted: false,
          storage_class: 'STANDARD',
        },
      ],
    });
  });

  it('groups by delimiter into common prefixes that share the limit, and pages with marker', async () => {
    const first = await jsonOf(await send(em, 'GET', '/list-bucket?delimiter=/&limit=2'));
    expect(first).toMatchObject({ has_more: true, next_marker: 'b/', common_prefixes: ['b/'], keys: [{ key: 'a.txt' }], limit: 2 });
    const second = await jsonOf(await send(em, 'GET', '/list-bucket?delimiter=/&limit=2&marker=b/'));
    expect(second).toMatchObject({ marker: 'b/', common_prefixes: ['c/'], keys: [{ key: 'd.txt' }], has_more: false });
    const inside = await jsonOf(await send(em, 'GET', '/list-bucket?prefix=b/&delimiter=/'));
    expect(inside).toMatchObject({ common_prefixes: ['b/sub/'], keys: [{ key: 'b/1.txt' }, { key: 'b/2.txt' }] });
    const folder = await jsonOf(await send(em, 'GET', '/list-bucket?prefix=c/&delimiter=/'));
    expect(folder).toMatchObject({ keys: [{ key: 'c/', size: 2 }, { key: 'c/x.txt' }] });
  });

  it('works in virtual-host style and clamps limit to the configured maximum', async () => {
    const body = await jsonOf(await send(em, 'GET', 'https://list-bucket.pek3a.qingstor.com/?limit=5000'));
    expect(body).toMatchObject({ name: 'list-bucket', limit: 100, has_more: false });
    const small = await testEmulator({ listLimitMax: 2 });
    await createBucket(small, 'clamp-bucket');
    for (const k of ['1', '2', '3']) await putText(small, 'clamp-bucket', k, k);
    expect(await jsonOf(await send(small, 'GET', '/clamp-bucket?limit=1000'))).toMatchObject({ limit: 2, has_more: true, next_marker: '2' });
  });

  it('refuses a malformed limit, anonymous callers even on public-read buckets, and users without READ', async () => {
    expect(await errorOf(await send(em, 'GET', '/list-bucket?limit=abc'))).toMatchObject({ status: 400, code: 'invalid_argument' });
    em.store.putBucketAcl('list-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]);
    expect(await errorOf(await send(em, 'GET', '/list-bucket', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'GET', '/list-bucket', { as: STRANGER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('GetBucketStatistics (ref §9.6)', () => {
  it('reports counts and sizes per storage class for the owner only', async () => {
    await createBucket(em, 'stats-bucket');
    await putText(em, 'stats-bucket', 'a', '12345');
    await putText(em, 'stats-bucket', 'b', '123', { 'x-qs-storage-class': 'STANDARD_IA' });
    const body = await jsonOf(await send(em, 'GET', '/stats-bucket?stats'));
    expect(body).toEqual({
      count: 2,
      size: 8,
      status: 'active',
      name: 'stats-bucket',
      created: expect.stringMatching(/\.\d{3}Z$/),
      url: 'stats-bucket.pek3a.qingstor.com',
      location: 'pek3a',
      storage_classes: { STANDARD: { count: 1, size: 5, billing_size: 5 }, STANDARD_IA: { count: 1, size: 3, billing_size: 3 } },
    });
    em.store.putBucketAcl('stats-bucket', [{ grantee: { type: 'user', id: READER.id }, permission: 'FULL_CONTROL' }]);
    expect(await errorOf(await send(em, 'GET', '/stats-bucket?stats', { as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('DeleteMultipleObjects (ref §5.9)', () => {
  const body = (keys: string[], quiet?: boolean) => JSON.stringify({ ...(quiet === undefined ? {} : { quiet }), objects: keys.map((key) => ({ key })) });

  beforeEach(async () => {
    await createBucket(em, 'multi-delete');
    for (const k of ['a', 'dir/中文.txt']) await putText(em, 'multi-delete', k, k);
  });

  it('deletes listed keys, reports missing ones as deleted, and honours quiet', async () => {
    const payload = body(['a', 'dir/中文.txt', 'missing']);
    const r = await send(em, 'POST', '/multi-delete?delete', { body: payload, headers: { 'content-md5': md5Base64(payload), 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
    expect(await jsonOf(r)).toEqual({ deleted: [{ key: 'a' }, { key: 'dir/中文.txt' }, { key: 'missing' }], errors: [] });
    expect(em.store.findObject('multi-delete', 'a')).toBeUndefined();
    const quiet = body(['x'], true);
    const q = await send(em, 'POST', 'https://multi-delete.pek3a.qingstor.com/?delete', { body: quiet, headers: { 'content-md5': md5Base64(quiet), 'content-type': 'application/json' } });
    expect(await jsonOf(q)).toEqual({ errors: [] });
  });

  it('needs Content-MD5 (400 invalid_request), checks it (bad_digest), parses JSON and caps at 1000 keys', async () => {
    const payload = body(['a']);
    const json = { 'content-type': 'application/json' };
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: payload, headers: json }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: payload, headers: { ...json, 'content-md5': md5Base64('other') } }))).toMatchObject({ status: 400, code: 'bad_digest' });
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: '{nope', headers: { ...json, 'content-md5': md5Base64('{nope') } }))).toMatchObject({ status: 400, code: 'invalid_json' });
    const wrongShape = '{"objects": "a"}';
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: wrongShape, headers: { ...json, 'content-md5': md5Base64(wrongShape) } }))).toMatchObject({ status: 400, code: 'invalid_request' });
    const many = body(Array.from({ length: 1001 }, (_, i) => `k${i}`));
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: many, headers: { ...json, 'content-md5': md5Base64(many) } }))).toMatchObject({ status: 400, code: 'too_many_objects' });
    const thousand = body(Array.from({ length: 1000 }, (_, i) => `k${i}`));
    expect((await send(em, 'POST', '/multi-delete?delete', { body: thousand, headers: { ...json, 'content-md5': md5Base64(thousand) } })).status).toBe(200);
    expect(em.store.findObject('multi-delete', 'a')).toBeDefined();
  });

  it('needs WRITE and never admits anonymous callers', async () => {
    const payload = body(['a']);
    const headers = { 'content-md5': md5Base64(payload), 'content-type': 'application/json' };
    em.store.putBucketAcl('multi-delete', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'FULL_CONTROL' }, { grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: payload, headers, as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'POST', '/multi-delete?delete', { body: payload, headers, as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(em.store.findObject('multi-delete', 'a')).toBeDefined();
  });
});

describe('ListMultipartUploads (ref §8.7)', () => {
  it('lists in-progress uploads with both marker spellings and pages', async () => {
    await createBucket(em, 'uploads-bucket');
    const ids: string[] = [];
    for (const key of ['a/one', 'a/two', 'b']) {
      const init = await jsonOf(await send(em, 'POST', `/uploads-bucket/${key}?uploads`));
      expect(init).toMatchObject({ bucket: 'uploads-bucket', key, upload_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
      if (typeof init === 'object' && init !== null && 'upload_id' in init && typeof init.upload_id === 'string') ids.push(init.upload_id);
    }
    const page = await jsonOf(await send(em, 'GET', '/uploads-bucket?uploads&limit=2'));
    expect(page).toMatchObject({
      name: 'uploads-bucket',
      limit: 2,
      has_more: true,
      next_key_marker: 'a/two',
      next_upload_id_marker: ids[1],
      uploads: [{ key: 'a/one', upload_id: ids[0], created: expect.stringMatching(/\.\d{3}Z$/) }, { key: 'a/two' }],
    });
    const rest = await jsonOf(await send(em, 'GET', `/uploads-bucket?uploads&key_marker=a/two&upload_id_marker=${ids[1] ?? ''}`));
    expect(rest).toMatchObject({ key_marker: 'a/two', marker: 'a/two', has_more: false, uploads: [{ key: 'b' }] });
    const grouped = await jsonOf(await send(em, 'GET', '/uploads-bucket?uploads&delimiter=/'));
    expect(grouped).toMatchObject({ common_prefixes: ['a/'], uploads: [{ key: 'b' }] });
    expect(await errorOf(await send(em, 'GET', '/uploads-bucket?uploads', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});
