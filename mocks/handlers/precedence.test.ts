/**
 * Error precedence (ref §4: auth/time/signature → bucket existence → permission → request validation →
 * object existence) and the parts of the access matrix (ref §10) that access.test.ts does not walk:
 * owner-only APIs for every kind of non-owner, Complete, Move and Copy across buckets.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MockUser } from '../auth/signature.ts';
import type { Emulator } from '../emulator.ts';
import { errorOf, md5Base64, OWNER, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

let em: Emulator;
const P = 'prec-private';
const PUB = 'prec-public';

beforeAll(async () => {
  em = await testEmulator();
  em.store.createBucket({ name: P, zone: 'pek3a', ownerId: OWNER.id });
  em.store.createBucket({ name: PUB, zone: 'pek3a', ownerId: OWNER.id });
  em.store.putBucketAcl(P, [
    { grantee: { type: 'user', id: READER.id }, permission: 'FULL_CONTROL' },
    { grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' },
  ]);
  em.store.putBucketAcl(PUB, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'FULL_CONTROL' }]);
  await putText(em, P, 'obj', 'object');
  await putText(em, PUB, 'obj', 'object');
});

describe('precedence (ref §4)', () => {
  const k1024 = 'k'.repeat(1024);
  const cases: Array<[string, string, string, { body?: string; headers?: Record<string, string> }]> = [
    ['overlong key', 'PUT', `/${P}/${k1024}`, { body: 'x' }],
    ['bad storage class', 'PUT', `/${P}/x`, { body: 'x', headers: { 'x-qs-storage-class': 'GLACIER' } }],
    ['invalid JSON ACL', 'PUT', `/${P}?acl`, { body: '{' }],
    ['malformed limit', 'GET', `/${P}?limit=abc`, {}],
    ['bad Range on a missing object', 'GET', `/${P}/missing`, { headers: { range: 'bytes=5-2' } }],
    ['unimplemented sub-resource', 'GET', `/${P}?notification`, {}],
    ['misplaced sub-resource', 'DELETE', `/${P}?upload_id=1`, {}],
    ['malformed copy source', 'PUT', `/${P}/x`, { headers: { 'x-qs-copy-source': 'nonsense' } }],
    ['missing Content-MD5 on delete', 'POST', `/${P}?delete`, { body: '{"objects":[]}' }],
  ];

  for (const [what, method, url, options] of cases) {
    it(`${what}: bad credentials 401, missing bucket 404, no permission 403 — all before the validation error`, async () => {
      const forged: MockUser = { ...STRANGER, secretAccessKey: 'not-the-secret' };
      expect((await errorOf(await send(em, method, url, { ...options, as: forged }))).status).toBe(401);
      const missing = url.replace(P, 'prec-missing-bucket');
      expect(await errorOf(await send(em, method, missing, { ...options, as: STRANGER }))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
      expect(await errorOf(await send(em, method, url, { ...options, as: STRANGER }))).toMatchObject({ status: 403, code: 'permission_denied' });
      expect(await errorOf(await send(em, method, url, { ...options, as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    });
  }

  it('validation comes before object existence (copy with a bad directive from a missing source ⇒ 400)', async () => {
    const r = await send(em, 'PUT', `/${P}/x`, { headers: { 'x-qs-copy-source': `/${P}/missing`, 'x-qs-metadata-directive': 'MERGE' } });
    expect(await errorOf(r)).toMatchObject({ status: 400, code: 'invalid_argument' });
  });

  it('a caller with access gets the validation error itself', async () => {
    expect(await errorOf(await send(em, 'GET', `/${P}?notification`, { as: WRITER }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await send(em, 'GET', `/${PUB}?notification`, { as: 'anonymous' }))).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('owner-only APIs (ref §10) refuse every non-owner, FULL_CONTROL and public buckets included', () => {
  const ownerOnly: Array<[string, string, string, string | undefined]> = [
    ['GetBucketStatistics', 'GET', '?stats', undefined],
    ['GetBucketAcl', 'GET', '?acl', undefined],
    ['PutBucketAcl', 'PUT', '?acl', '{"acl":[]}'],
    ['GetBucketCors', 'GET', '?cors', undefined],
    ['PutBucketCors', 'PUT', '?cors', '{"cors_rules":[]}'],
    ['DeleteBucketCors', 'DELETE', '?cors', undefined],
    ['GetBucketPolicy', 'GET', '?policy', undefined],
    ['PutBucketPolicy', 'PUT', '?policy', '{"statement":[]}'],
    ['DeleteBucketPolicy', 'DELETE', '?policy', undefined],
    ['DeleteBucket', 'DELETE', '', undefined],
  ];
  const who: Array<[string, MockUser | 'anonymous', string]> = [
    ['FULL_CONTROL grantee', READER, P],
    ['WRITE grantee', WRITER, P],
    ['stranger', STRANGER, P],
    ['anonymous on a QS_ALL_USERS FULL_CONTROL bucket', 'anonymous', PUB],
    ['stranger on a QS_ALL_USERS FULL_CONTROL bucket', STRANGER, PUB],
  ];
  for (const [label, as, bucket] of who) {
    it(`${label}: 403 permission_denied on all ten, and the bucket is unchanged`, async () => {
      const before = JSON.stringify(em.store.getBucket(bucket));
      const outcome: Record<string, unknown> = {};
      for (const [op, method, query, body] of ownerOnly) {
        outcome[op] = await errorOf(await send(em, method, `/${bucket}${query}`, { as, ...(body !== undefined ? { body } : {}) }));
      }
      const expected = Object.fromEntries(ownerOnly.map(([op]) => [op, { status: 403, code: 'permission_denied', requestIdMatches: true }]));
      expect(outcome).toEqual(expected);
      expect(JSON.stringify(em.store.getBucket(bucket))).toBe(before);
    });
  }
});

describe('Complete, Move and cross-bucket Copy permissions (ref §10)', () => {
  async function initiate(bucket: string): Promise<string> {
    return em.store.initiateMultipartUpload(bucket, 'mp', {}).uploadId;
  }

  it('Complete needs WRITE: a stranger is refused and the upload survives; anonymous completes on a public-write bucket', async () => {
    const id = await initiate(P);
    em.store.uploadPart(P, 'mp', id, 1, { body: new TextEncoder().encode('x') });
    const body = '{"object_parts":[{"part_number":1}]}';
    expect(await errorOf(await send(em, 'POST', `/${P}/mp?upload_id=${id}`, { as: STRANGER, body }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(em.store.getUpload(P, 'mp', id).uploadId).toBe(id);
    expect((await send(em, 'POST', `/${P}/mp?upload_id=${id}`, { as: WRITER, body })).status).toBe(201);
    const pubId = await initiate(PUB);
    em.store.uploadPart(PUB, 'mp', pubId, 1, { body: new TextEncoder().encode('x') });
    expect((await send(em, 'POST', `/${PUB}/mp?upload_id=${pubId}`, { as: 'anonymous', body })).status).toBe(201);
  });

  it('Move and Copy need READ on the source and WRITE on the destination; a refused move leaves the source', async () => {
    await putText(em, P, 'm-src', 'move me');
    // WRITER has WRITE but no READ on P: reading the source is refused.
    expect(await errorOf(await send(em, 'PUT', `/${P}/m-dst`, { as: WRITER, headers: { 'x-qs-move-source': `/${P}/m-src` } }))).toMatchObject({ status: 403 });
    expect(await errorOf(await send(em, 'PUT', `/${P}/c-dst`, { as: WRITER, headers: { 'x-qs-copy-source': `/${P}/m-src` } }))).toMatchObject({ status: 403 });
    // anonymous may read and write PUB but has no right at all on P.
    expect(await errorOf(await send(em, 'PUT', `/${PUB}/m-dst`, { as: 'anonymous', headers: { 'x-qs-move-source': `/${P}/m-src` } }))).toMatchObject({ status: 403 });
    expect(em.store.findObject(P, 'm-src')).toBeDefined();
    expect(em.store.findObject(P, 'm-dst')).toBeUndefined();
    expect(em.store.findObject(PUB, 'm-dst')).toBeUndefined();
    // READER (FULL_CONTROL on P) copies within P; into PUB it is judged as itself, and QS_ALL_USERS grants
    // are for anonymous callers only (ref §10), so it may not write there.
    expect((await send(em, 'PUT', `/${P}/c-dst`, { as: READER, headers: { 'x-qs-copy-source': `/${P}/m-src` } })).status).toBe(201);
    expect(await errorOf(await send(em, 'PUT', `/${PUB}/c-dst`, { as: READER, headers: { 'x-qs-copy-source': `/${P}/m-src` } }))).toMatchObject({ status: 403 });
    expect(em.store.findObject(PUB, 'c-dst')).toBeUndefined();
  });

  it('DeleteMultipleObjects by a READ-only caller is refused and deletes nothing', async () => {
    const body = JSON.stringify({ objects: [{ key: 'obj' }] });
    const r = await send(em, 'POST', `/${PUB}?delete`, { as: 'anonymous', body, headers: { 'content-md5': md5Base64(body) } });
    expect(await errorOf(r)).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(em.store.findObject(PUB, 'obj')).toBeDefined();
  });
});

describe('a suspended bucket (ref §4 bucket_not_active, §9.3)', () => {
  const S = 'prec-suspended';
  const A = 'prec-active-dst';
  beforeAll(async () => {
    em.store.createBucket({ name: S, zone: 'pek3a', ownerId: OWNER.id });
    em.store.createBucket({ name: A, zone: 'pek3a', ownerId: OWNER.id });
    await putText(em, S, 'obj', 'object');
    em.store.setBucketStatus(S, 'suspended');
  });

  it('refuses deletion and every write with 403 bucket_not_active, changing nothing', async () => {
    const del = JSON.stringify({ objects: [{ key: 'obj' }] });
    const writes: Array<[string, string, { body?: string; headers?: Record<string, string> }]> = [
      ['DELETE', `/${S}`, {}],
      ['PUT', `/${S}?acl`, { body: '{"acl":[]}' }],
      ['PUT', `/${S}?cors`, { body: '{"cors_rules":[]}' }],
      ['DELETE', `/${S}?policy`, {}],
      ['POST', `/${S}?delete`, { body: del, headers: { 'content-md5': md5Base64(del) } }],
      ['PUT', `/${S}/new`, { body: 'x' }],
      ['POST', `/${S}/app?append&position=0`, { body: 'x' }],
      ['POST', `/${S}/mp?uploads`, {}],
      ['DELETE', `/${S}/obj`, {}],
      ['PUT', `/${S}/copy`, { headers: { 'x-qs-copy-source': `/${S}/obj` } }],
      ['PUT', `/${A}/moved`, { headers: { 'x-qs-move-source': `/${S}/obj` } }],
    ];
    for (const [method, url, options] of writes) {
      expect({ method, url, ...(await errorOf(await send(em, method, url, options))) }).toEqual({ method, url, status: 403, code: 'bucket_not_active', requestIdMatches: true });
    }
    expect(em.store.listObjects(S, {}).keys.map((o) => o.key)).toEqual(['obj']);
    expect(em.store.findObject(A, 'moved')).toBeUndefined();
  });

  it('still serves reads, so a console can show the bucket and its status; copying out is allowed', async () => {
    expect((await send(em, 'GET', `/${S}/obj`)).status).toBe(200);
    expect((await send(em, 'GET', `/${S}`)).status).toBe(200);
    const stats = await send(em, 'GET', `/${S}?stats`);
    expect(((await stats.json()) as { status: string }).status).toBe('suspended');
    expect((await send(em, 'PUT', `/${A}/copied`, { headers: { 'x-qs-copy-source': `/${S}/obj` } })).status).toBe(201);
  });

  it('permission is still decided first: a stranger gets 403 permission_denied', async () => {
    expect(await errorOf(await send(em, 'PUT', `/${S}/new`, { as: STRANGER, body: 'x' }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});
