import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, jsonOf, OWNER, READER, send, STRANGER, testEmulator } from './test-utils.ts';

let em: Emulator;
beforeEach(async () => {
  em = await testEmulator();
});

describe('common response headers (ref §11.1)', () => {
  it('sends Server, Date and a 16-hex x-qs-request-id on success and on errors', async () => {
    for (const r of [await send(em, 'GET', 'https://qingstor.com/'), await send(em, 'GET', '/nosuchbucket1')]) {
      expect(r.headers.get('server')).toBe('QingStor');
      expect(r.headers.get('date')).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(r.headers.get('x-qs-request-id')).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('answers errors with the JSON envelope whose request_id equals the header', async () => {
    const r = await send(em, 'GET', '/nosuchbucket1');
    expect(r.headers.get('content-type')).toBe('application/json');
    const body = await jsonOf(r);
    expect(body).toMatchObject({ code: 'bucket_not_exists', request_id: r.headers.get('x-qs-request-id') });
    expect(body).toHaveProperty('message');
    expect(body).toHaveProperty('url');
  });

  it('answers HEAD errors with the status only', async () => {
    const r = await send(em, 'HEAD', '/nosuchbucket1/key');
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('');
  });

  it('lets requests for other hosts through unless acceptAnyHost is on', async () => {
    const { getResponse } = await import('msw');
    expect(await getResponse(em.handlers, new Request('https://example.com/x'))).toBeUndefined();
    const any = await testEmulator({ acceptAnyHost: true });
    const r = await send(any, 'GET', 'http://127.0.0.1:9000/');
    expect(r.status).toBe(200);
  });

  it('answers unknown methods and sub-resources with QingStor errors, not 500', async () => {
    await createBucket(em, 'mybucket');
    expect(await errorOf(await send(em, 'PATCH', '/mybucket/key'))).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(await errorOf(await send(em, 'DELETE', 'https://qingstor.com/'))).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(await errorOf(await send(em, 'GET', '/mybucket?notification'))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'POST', '/mybucket/key'))).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(await errorOf(await send(em, 'GET', '/nosuchbucket2?notification'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });

  it('refuses sub-resources that do not fit the level and method instead of ignoring them', async () => {
    await createBucket(em, 'mybucket');
    await send(em, 'PUT', '/mybucket/key', { body: new Uint8Array([1]) });
    const misplaced: Array<[string, string]> = [
      ['DELETE', '/mybucket?upload_id=0123'],
      ['DELETE', '/mybucket/key?cors'],
      ['DELETE', '/mybucket/key?policy'],
      ['GET', '/mybucket/key?acl'],
      ['PUT', '/mybucket/key?acl'],
      ['POST', '/mybucket?uploads'],
      ['GET', '/mybucket?append'],
      ['DELETE', '/mybucket?acl'],
    ];
    for (const [method, url] of misplaced) {
      expect({ method, url, ...(await errorOf(await send(em, method, url, { body: method === 'PUT' ? new Uint8Array([2]) : undefined }))) }).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    expect(em.store.findBucket('mybucket')).toBeDefined();
    expect(em.store.getObject('mybucket', 'key').size).toBe(1);
    expect(await errorOf(await send(em, 'DELETE', '/nosuchbucket2?upload_id=1'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });
});

describe('unexpected failures', () => {
  it('turn into a 500 internal_error envelope instead of an unhandled exception', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    em.store.listBuckets = () => {
      throw new Error('boom');
    };
    const r = await send(em, 'GET', 'https://qingstor.com/');
    expect(await errorOf(r)).toEqual({ status: 500, code: 'internal_error', requestIdMatches: true });
    expect(r.headers.get('server')).toBe('QingStor');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});

describe('ListBuckets (ref §9.1)', () => {
  it('lists all zones on the global host and one zone on a zone host, by name', async () => {
    await createBucket(em, 'zeta-bucket', 'pek3a');
    await createBucket(em, 'alpha-bucket', 'sh1a');
    await createBucket(em, 'other-owner', 'pek3a', READER);
    const global = await send(em, 'GET', 'https://qingstor.com/');
    expect(global.status).toBe(200);
    const body = await jsonOf(global);
    expect(body).toEqual({
      count: 2,
      buckets: [
        { name: 'alpha-bucket', location: 'sh1a', url: 'https://alpha-bucket.sh1a.qingstor.com', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
        { name: 'zeta-bucket', location: 'pek3a', url: 'https://zeta-bucket.pek3a.qingstor.com', created: expect.any(String) },
      ],
    });
    const zone = await jsonOf(await send(em, 'GET', 'https://sh1a.qingstor.com/'));
    expect(zone).toMatchObject({ count: 1, buckets: [{ name: 'alpha-bucket' }] });
    const filtered = await jsonOf(await send(em, 'GET', 'https://qingstor.com/', { headers: { location: 'pek3a' } }));
    expect(filtered).toMatchObject({ count: 1, buckets: [{ name: 'zeta-bucket' }] });
  });

  it('pages with offset and limit while count stays the total', async () => {
    for (const n of ['bucket-a1', 'bucket-b2', 'bucket-c3']) await createBucket(em, n);
    const page = await jsonOf(await send(em, 'GET', 'https://qingstor.com/?offset=1&limit=1'));
    expect(page).toMatchObject({ count: 3, buckets: [{ name: 'bucket-b2' }] });
  });

  it('refuses anonymous callers and unknown zones', async () => {
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/', { headers: { location: 'mars1' } }))).toMatchObject({ status: 400, code: 'invalid_location' });
    expect(await errorOf(await send(em, 'GET', 'https://mars1.qingstor.com/'))).toMatchObject({ status: 400, code: 'invalid_location' });
  });

  it('rejects unknown keys and bad signatures before anything else (ref §4)', async () => {
    const unknown = { ...STRANGER, accessKeyId: 'NOSUCHKEY00000000000' };
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/', { as: unknown }))).toMatchObject({ status: 401, code: 'invalid_access_key_id' });
    const wrongSecret = { ...OWNER, secretAccessKey: 'wrong' };
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/', { as: wrongSecret }))).toMatchObject({ status: 401, code: 'signature_not_matched' });
    const old = new Date(Date.now() - 16 * 60 * 1000);
    expect(await errorOf(await send(em, 'GET', 'https://qingstor.com/', { signedAt: old }))).toMatchObject({ status: 403, code: 'request_expired' });
  });
});

describe('GET /?location (ref §1.1)', () => {
  it('lists the zones anonymously, in English or Chinese', async () => {
    const r = await send(em, 'GET', 'https://qingstor.com/?location', { as: 'anonymous' });
    expect(r.status).toBe(200);
    const body = await jsonOf(r);
    expect(body).toMatchObject({ locations: expect.arrayContaining([{ id: 'pek3a', name: 'Beijing 3A', endpoint: 'pek3a.qingstor.com' }]) });
    const zh = await jsonOf(await send(em, 'GET', 'https://qingstor.com/?location&lang=zh-cn', { as: 'anonymous' }));
    expect(zh).toMatchObject({ locations: expect.arrayContaining([{ id: 'sh1a', name: '上海1区-A', endpoint: 'sh1a.qingstor.com' }]) });
    const local = await jsonOf(await send(em, 'GET', 'http://qingstor.local:9000/?location', { as: 'anonymous' }));
    expect(local).toMatchObject({ locations: expect.arrayContaining([{ id: 'gd2', name: 'Guangdong 2', endpoint: 'gd2.qingstor.local:9000' }]) });
    const any = await testEmulator({ acceptAnyHost: true });
    const ip = await jsonOf(await send(any, 'GET', 'http://127.0.0.1:9000/?location', { as: 'anonymous' }));
    expect(ip).toMatchObject({ locations: expect.arrayContaining([{ id: 'pek3a', name: 'Beijing 3A', endpoint: '127.0.0.1:9000' }]) });
  });
});
