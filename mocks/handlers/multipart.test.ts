import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, jsonOf, md5Base64, md5Hex, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

let em: Emulator;
beforeEach(async () => {
  // testEmulator() sets minPartSize 5 bytes so the tests need not upload 4 MiB parts (ref §8.5).
  em = await testEmulator();
  await createBucket(em, 'mp-bucket');
});

const initSchema = z.object({ upload_id: z.string(), bucket: z.string(), key: z.string() });
const partsSchema = z.object({
  count: z.number(),
  object_parts: z.array(z.object({ part_number: z.number(), size: z.number(), created: z.string(), etag: z.string() })),
});

async function initiate(key: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await send(em, 'POST', `/mp-bucket/${key}?uploads`, { headers });
  expect(r.status).toBe(200);
  return initSchema.parse(await jsonOf(r)).upload_id;
}

function uploadPart(key: string, id: string, n: number, data: string, headers: Record<string, string> = {}): Promise<Response> {
  return send(em, 'PUT', `/mp-bucket/${key}?upload_id=${id}&part_number=${n}`, { body: new TextEncoder().encode(data), headers });
}

function complete(key: string, id: string, parts: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return send(em, 'POST', `/mp-bucket/${key}?upload_id=${id}`, { body: JSON.stringify(parts), headers: { 'content-type': 'application/json', ...headers } });
}

describe('multipart lifecycle (ref §8)', () => {
  it('initiates, uploads parts in any order, lists them, completes with the ETag header and serves the object', async () => {
    const id = await initiate('big.bin', { 'content-type': 'video/mp4', 'x-qs-meta-camera': 'X100' });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const p2 = await uploadPart('big.bin', id, 2, 'world');
    expect(p2.status).toBe(201);
    expect(p2.headers.get('etag')).toBe(`"${md5Hex('world')}"`);
    expect((await uploadPart('big.bin', id, 1, 'hello', { 'content-md5': md5Base64('hello') })).status).toBe(201);
    // Invisible until completed (ref §11.16).
    expect((await send(em, 'HEAD', '/mp-bucket/big.bin')).status).toBe(404);

    const listed = partsSchema.parse(await jsonOf(await send(em, 'GET', `/mp-bucket/big.bin?upload_id=${id}`)));
    expect(listed.count).toBe(2);
    expect(listed.object_parts.map((p) => [p.part_number, p.size, p.etag])).toEqual([[1, 5, md5Hex('hello')], [2, 5, md5Hex('world')]]);
    expect(listed.object_parts[0]?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const done = await complete('big.bin', id, { object_parts: [{ part_number: 1, etag: md5Hex('hello') }, { part_number: 2, etag: `"${md5Hex('world')}"` }] }, { etag: '"client-etag"' });
    expect(done.status).toBe(201);
    const get = await send(em, 'GET', '/mp-bucket/big.bin');
    expect(await get.text()).toBe('helloworld');
    expect(get.headers.get('etag')).toBe('"client-etag"');
    expect(get.headers.get('content-type')).toBe('video/mp4');
    expect(get.headers.get('x-qs-meta-camera')).toBe('X100');
    // The upload is gone afterwards.
    expect(await errorOf(await send(em, 'GET', `/mp-bucket/big.bin?upload_id=${id}`))).toMatchObject({ status: 404, code: 'upload_not_exists' });
  });

  it('completes without ETag header into an object without ETag, discarding unlisted parts', async () => {
    const id = await initiate('gappy');
    await uploadPart('gappy', id, 0, 'aaaaa');
    await uploadPart('gappy', id, 3, 'bbbbb');
    await uploadPart('gappy', id, 7, 'c');
    const done = await complete('gappy', id, { object_parts: [{ part_number: 0 }, { part_number: 7 }] });
    expect(done.status).toBe(201);
    const get = await send(em, 'GET', '/mp-bucket/gappy');
    expect(await get.text()).toBe('aaaaac');
    expect(get.headers.get('etag')).toBeNull();
  });

  it('replaces a re-uploaded part', async () => {
    const id = await initiate('re');
    await uploadPart('re', id, 1, 'first');
    await uploadPart('re', id, 1, 'again');
    await complete('re', id, { object_parts: [{ part_number: 1 }] });
    expect(await (await send(em, 'GET', '/mp-bucket/re')).text()).toBe('again');
  });

  it('aborts idempotently (204), also for unknown ids; 404 only for a missing bucket', async () => {
    const id = await initiate('ab');
    await uploadPart('ab', id, 1, 'x');
    expect((await send(em, 'DELETE', `/mp-bucket/ab?upload_id=${id}`)).status).toBe(204);
    expect((await send(em, 'DELETE', `/mp-bucket/ab?upload_id=${id}`)).status).toBe(204);
    expect((await send(em, 'DELETE', '/mp-bucket/ab?upload_id=ffffffffffffffffffffffffffffffff')).status).toBe(204);
    expect(await errorOf(await send(em, 'DELETE', `/missing-bkt/ab?upload_id=${id}`))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await uploadPart('ab', id, 2, 'y'))).toMatchObject({ status: 404, code: 'upload_not_exists' });
  });
});

describe('Complete validation (ref §8.5)', () => {
  it('refuses missing parts, ETag mismatches, wrong order, small parts, bad JSON and unknown ids', async () => {
    const id = await initiate('v');
    await uploadPart('v', id, 1, 'abc');
    await uploadPart('v', id, 2, 'defgh');
    await uploadPart('v', id, 3, 'ijklm');
    expect(await errorOf(await complete('v', id, { object_parts: [{ part_number: 4 }] }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await complete('v', id, { object_parts: [{ part_number: 2, etag: 'deadbeef' }] }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await complete('v', id, { object_parts: [{ part_number: 3 }, { part_number: 2 }] }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    // Part 1 has 3 bytes < minPartSize 5 and is not the last part.
    expect(await errorOf(await complete('v', id, { object_parts: [{ part_number: 1 }, { part_number: 2 }] }))).toMatchObject({ status: 400, code: 'entity_too_small' });
    expect(await errorOf(await send(em, 'POST', `/mp-bucket/v?upload_id=${id}`, { body: '{', headers: { 'content-type': 'application/json' } }))).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(await errorOf(await complete('v', id, { parts: [] }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await errorOf(await complete('v', 'ffffffffffffffffffffffffffffffff', { object_parts: [{ part_number: 2 }] }))).toMatchObject({ status: 404, code: 'upload_not_exists' });
    expect(em.store.findObject('mp-bucket', 'v')).toBeUndefined();
    // The small part is fine as the last one.
    expect((await complete('v', id, { object_parts: [{ part_number: 2 }, { part_number: 3 }] })).status).toBe(201);
  });

  it('uses the real 4 MiB minimum unless configured otherwise', async () => {
    const real = await testEmulator({ minPartSize: undefined, seed: 'empty' });
    await createBucket(real, 'real-min');
    const init = initSchema.parse(await jsonOf(await send(real, 'POST', '/real-min/k?uploads')));
    await send(real, 'PUT', `/real-min/k?upload_id=${init.upload_id}&part_number=1`, { body: new Uint8Array(1024) });
    await send(real, 'PUT', `/real-min/k?upload_id=${init.upload_id}&part_number=2`, { body: new Uint8Array(1) });
    const r = await send(real, 'POST', `/real-min/k?upload_id=${init.upload_id}`, { body: JSON.stringify({ object_parts: [{ part_number: 1 }, { part_number: 2 }] }), headers: { 'content-type': 'application/json' } });
    expect(await errorOf(r)).toMatchObject({ status: 400, code: 'entity_too_small' });
  });
});

describe('UploadMultipart validation (ref §8.2)', () => {
  it('checks part_number range, Content-MD5 and the upload id', async () => {
    const id = await initiate('u');
    expect((await uploadPart('u', id, 10000, 'x')).status).toBe(201);
    expect(await errorOf(await uploadPart('u', id, 10001, 'x'))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await send(em, 'PUT', `/mp-bucket/u?upload_id=${id}&part_number=-1`, { body: new Uint8Array(1) }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await uploadPart('u', id, 1, 'x', { 'content-md5': md5Base64('y') }))).toMatchObject({ status: 400, code: 'bad_digest' });
    expect(await errorOf(await uploadPart('u', 'ffffffffffffffffffffffffffffffff', 1, 'x'))).toMatchObject({ status: 404, code: 'upload_not_exists' });
    expect(await errorOf(await uploadPart('other-key', id, 1, 'x'))).toMatchObject({ status: 404, code: 'upload_not_exists' });
  });

  it('copies a part from another object with x-qs-copy-range (ref §8.3)', async () => {
    await putText(em, 'mp-bucket', 'source.txt', '0123456789');
    const id = await initiate('pc');
    const r = await send(em, 'PUT', `/mp-bucket/pc?upload_id=${id}&part_number=1`, { headers: { 'x-qs-copy-source': '/mp-bucket/source.txt', 'x-qs-copy-range': 'bytes=2-6' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('23456')}"`);
    expect(r.headers.get('x-qs-content-copy-range')).toBe('bytes 2-6/10');
    const whole = await send(em, 'PUT', `/mp-bucket/pc?upload_id=${id}&part_number=2`, { headers: { 'x-qs-copy-source': '/mp-bucket/source.txt' } });
    expect(whole.status).toBe(201);
    expect(await errorOf(await send(em, 'PUT', `/mp-bucket/pc?upload_id=${id}&part_number=1`, { headers: { 'x-qs-copy-source': '/mp-bucket/source.txt', 'x-qs-copy-source-if-match': '"x"' } }))).toMatchObject({ status: 412, code: 'precondition_failed' });
    await complete('pc', id, { object_parts: [{ part_number: 1 }, { part_number: 2 }] });
    expect(await (await send(em, 'GET', '/mp-bucket/pc')).text()).toBe('234560123456789');
  });
});

describe('ListMultipart (ref §8.4)', () => {
  it('answers 404 upload_not_exists for an unknown upload id (ref §12)', async () => {
    expect(await errorOf(await send(em, 'GET', '/mp-bucket/k?upload_id=0123456789abcdef0123456789abcdef'))).toMatchObject({ status: 404, code: 'upload_not_exists' });
    expect(await errorOf(await send(em, 'GET', '/missing-bkt/k?upload_id=0123456789abcdef0123456789abcdef'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });

  it('pages with part_number_marker and limit, ordered by part number, count = all parts', async () => {
    const id = await initiate('paged');
    for (const n of [5, 1, 3, 2, 4, 10]) await uploadPart('paged', id, n, `p${n}`);
    const page = async (query: string) => partsSchema.parse(await jsonOf(await send(em, 'GET', `/mp-bucket/paged?upload_id=${id}${query}`)));
    const first = await page('&limit=2');
    expect(first.count).toBe(6);
    expect(first.object_parts.map((p) => p.part_number)).toEqual([1, 2]);
    const second = await page('&limit=2&part_number_marker=2');
    expect(second.object_parts.map((p) => p.part_number)).toEqual([3, 4]);
    const last = await page('&limit=2&part_number_marker=4');
    expect(last.object_parts.map((p) => p.part_number)).toEqual([5, 10]);
    const after = await page('&part_number_marker=10');
    expect(after.object_parts).toEqual([]);
    expect(await errorOf(await send(em, 'GET', `/mp-bucket/paged?upload_id=${id}&limit=x`))).toMatchObject({ status: 400, code: 'invalid_argument' });
  });

  it('clamps limit to 1000', async () => {
    const id = await initiate('many');
    for (let n = 1; n <= 1005; n++) em.store.uploadPart('mp-bucket', 'many', id, n, { body: new Uint8Array([n & 0xff]) });
    const body = partsSchema.parse(await jsonOf(await send(em, 'GET', `/mp-bucket/many?upload_id=${id}&limit=5000`)));
    expect(body.count).toBe(1005);
    expect(body.object_parts).toHaveLength(1000);
  });

  it('needs READ: anonymous on public-read, refused for users without a grant even there', async () => {
    const id = await initiate('acl');
    await uploadPart('acl', id, 1, 'x');
    expect(await errorOf(await send(em, 'GET', `/mp-bucket/acl?upload_id=${id}`, { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('mp-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }, { grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    expect((await send(em, 'GET', `/mp-bucket/acl?upload_id=${id}`, { as: 'anonymous' })).status).toBe(200);
    expect((await send(em, 'GET', `/mp-bucket/acl?upload_id=${id}`, { as: READER })).status).toBe(200);
    expect(await errorOf(await send(em, 'GET', `/mp-bucket/acl?upload_id=${id}`, { as: STRANGER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('Initiate (ref §8.1, §6)', () => {
  it('takes metadata of exactly 2048 bytes and refuses 2049', async () => {
    expect((await send(em, 'POST', '/mp-bucket/edge?uploads', { headers: { 'x-qs-meta-a': 'v'.repeat(2047) } })).status).toBe(200);
    expect(await errorOf(await send(em, 'POST', '/mp-bucket/edge-over?uploads', { headers: { 'x-qs-meta-ab': 'v'.repeat(2047) } }))).toMatchObject({ status: 400, code: 'metadata_too_large' });
    expect(em.store.listMultipartUploads('mp-bucket', {}).uploads.map((u) => u.key)).toEqual(['edge']);
  });

  it('validates metadata and writes nothing when refused', async () => {
    expect(await errorOf(await send(em, 'POST', '/mp-bucket/m?uploads', { headers: { 'x-qs-meta-a': 'v'.repeat(2048) } }))).toMatchObject({ status: 400, code: 'metadata_too_large' });
    expect(await errorOf(await send(em, 'POST', '/mp-bucket/m?uploads', { headers: { 'x-qs-storage-class': 'COLD' } }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(em.store.listMultipartUploads('mp-bucket', {}).uploads).toEqual([]);
  });

  it('needs WRITE', async () => {
    expect(await errorOf(await send(em, 'POST', '/mp-bucket/m?uploads', { as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('mp-bucket', [{ grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' }]);
    expect((await send(em, 'POST', '/mp-bucket/m?uploads', { as: WRITER })).status).toBe(200);
  });
});
