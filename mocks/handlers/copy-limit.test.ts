/**
 * The copy limit (ref §5.2, §8.3) with a lowered limit: PUT-copy refuses a larger source with
 * entity_too_large, Upload Part - Copy copies ranges of at most the limit, honours the source conditions
 * and READ on the source, and answers bad ranges with QingStor errors.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCli } from '../server-options.ts';
import { startEmulatorServer } from '../server.ts';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, jsonOf, md5Hex, OWNER, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

const LIMIT = 10;
const BODY = 'abcdefghijklmnopqrstuvwxy'; // 25 bytes: above the limit
const SMALL = '0123456789'; // exactly the limit

let em: Emulator;
beforeEach(async () => {
  em = await testEmulator({ copyLimit: LIMIT, minPartSize: 1 });
  await createBucket(em, 'cl-bucket');
  for (const r of [await putText(em, 'cl-bucket', 'big.txt', BODY, { 'content-type': 'text/plain', 'x-qs-meta-a': '1' }), await putText(em, 'cl-bucket', 'small.txt', SMALL)]) {
    if (r.status !== 201) throw new Error(`setup PUT answered ${r.status}`);
  }
});

const initSchema = z.object({ upload_id: z.string() });

async function initiate(key: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await send(em, 'POST', `/cl-bucket/${key}?uploads`, { headers });
  expect(r.status).toBe(200);
  return initSchema.parse(await jsonOf(r)).upload_id;
}

function partCopy(key: string, id: string, n: number, headers: Record<string, string>, as = OWNER): Promise<Response> {
  return send(em, 'PUT', `/cl-bucket/${key}?upload_id=${id}&part_number=${n}`, { headers: { 'x-qs-copy-source': '/cl-bucket/big.txt', ...headers }, as });
}

describe('PUT-copy above the copy limit', () => {
  it('refuses a self-copy with REPLACE of a source above the limit with entity_too_large and leaves the object as it was', async () => {
    const before = await send(em, 'HEAD', '/cl-bucket/big.txt');
    const r = await send(em, 'PUT', '/cl-bucket/big.txt', {
      headers: { 'x-qs-copy-source': '/cl-bucket/big.txt', 'x-qs-metadata-directive': 'REPLACE', 'content-type': 'text/html' },
    });
    expect(await errorOf(r)).toEqual({ status: 400, code: 'entity_too_large', requestIdMatches: true });
    const after = await send(em, 'HEAD', '/cl-bucket/big.txt');
    expect(after.headers.get('content-type')).toBe('text/plain');
    expect(after.headers.get('x-qs-meta-a')).toBe('1');
    expect(after.headers.get('last-modified')).toBe(before.headers.get('last-modified'));
  });

  it('refuses a copy to another key and a storage-class self-copy above the limit; a source of exactly the limit copies', async () => {
    expect(await errorOf(await send(em, 'PUT', '/cl-bucket/copy.txt', { headers: { 'x-qs-copy-source': '/cl-bucket/big.txt' } }))).toMatchObject({ status: 400, code: 'entity_too_large' });
    expect(await errorOf(await send(em, 'PUT', '/cl-bucket/big.txt', { headers: { 'x-qs-copy-source': '/cl-bucket/big.txt', 'x-qs-storage-class': 'STANDARD_IA' } }))).toMatchObject({ status: 400, code: 'entity_too_large' });
    expect((await send(em, 'HEAD', '/cl-bucket/copy.txt')).status).toBe(404);
    expect((await send(em, 'PUT', '/cl-bucket/copy-small.txt', { headers: { 'x-qs-copy-source': '/cl-bucket/small.txt' } })).status).toBe(201);
  });

  it('a failed source condition is still 412 above the limit (conditions are checked first)', async () => {
    const r = await send(em, 'PUT', '/cl-bucket/big.txt', {
      headers: { 'x-qs-copy-source': '/cl-bucket/big.txt', 'x-qs-metadata-directive': 'REPLACE', 'x-qs-copy-source-if-match': '"nope"' },
    });
    expect(await errorOf(r)).toMatchObject({ status: 412, code: 'precondition_failed' });
  });

  it('defaults to maxObjectSize when no copy limit is given', async () => {
    const plain = await testEmulator({ maxObjectSize: 12 });
    expect(plain.store.copyLimit).toBe(12);
    expect((await testEmulator()).store.copyLimit).toBe(5 * 1024 ** 3);
  });
});

describe('Upload Part - Copy with the copy limit', () => {
  it('copies a large object onto itself in ranges of at most the limit; the completed object has the new metadata and the same body', async () => {
    const etag = md5Hex(BODY);
    const id = await initiate('big.txt', { 'content-type': 'text/markdown', 'x-qs-meta-b': '2' });
    const ranges = ['bytes=0-9', 'bytes=10-19', 'bytes=20-24'];
    for (const [i, range] of ranges.entries()) {
      const r = await partCopy('big.txt', id, i + 1, { 'x-qs-copy-range': range, 'x-qs-copy-source-if-match': `"${etag}"` });
      expect(r.status).toBe(201);
      expect(r.headers.get('x-qs-content-copy-range')).toBe(`${range.replace('=', ' ')}/25`);
      expect(r.headers.get('etag')).toBe(`"${md5Hex(BODY.slice(i * 10, i * 10 + 10))}"`);
    }
    const done = await send(em, 'POST', `/cl-bucket/big.txt?upload_id=${id}`, {
      body: JSON.stringify({ object_parts: [{ part_number: 1 }, { part_number: 2 }, { part_number: 3 }] }),
      headers: { 'content-type': 'application/json', etag: `"${etag}"` },
    });
    expect(done.status).toBe(201);
    const get = await send(em, 'GET', '/cl-bucket/big.txt');
    expect(await get.text()).toBe(BODY);
    expect(get.headers.get('content-type')).toBe('text/markdown');
    expect(get.headers.get('x-qs-meta-b')).toBe('2');
    expect(get.headers.get('x-qs-meta-a')).toBeNull();
  });

  it('refuses a range above the limit, and a whole-object part copy of a source above it, with entity_too_large', async () => {
    const id = await initiate('dest.txt');
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-10' }))).toMatchObject({ status: 400, code: 'entity_too_large' });
    expect(await errorOf(await partCopy('dest.txt', id, 1, {}))).toMatchObject({ status: 400, code: 'entity_too_large' });
    expect((await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-9' })).status).toBe(201);
  });

  it('answers bad ranges with invalid_range (416) or the range it clamped, never a server error', async () => {
    const id = await initiate('dest.txt');
    for (const range of ['bytes=9-2', 'bytes=25-30', 'bytes=abc', 'bytes=0-1,3-4', 'items=0-1', 'bytes=-', '', 'bytes=99999999999999999999999-1']) {
      expect({ range, ...(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': range }))) }).toMatchObject({ range, status: 416, code: 'invalid_range' });
    }
    const clamped = await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=20-99' });
    expect(clamped.status).toBe(201);
    expect(clamped.headers.get('x-qs-content-copy-range')).toBe('bytes 20-24/25');
    const suffix = await partCopy('dest.txt', id, 2, { 'x-qs-copy-range': 'bytes=-3' });
    expect(suffix.headers.get('x-qs-content-copy-range')).toBe('bytes 22-24/25');
    await putText(em, 'cl-bucket', 'empty.txt', '');
    const empty = await send(em, 'PUT', `/cl-bucket/dest.txt?upload_id=${id}&part_number=3`, { headers: { 'x-qs-copy-source': '/cl-bucket/empty.txt', 'x-qs-copy-range': 'bytes=0-0' } });
    expect(await errorOf(empty)).toMatchObject({ status: 416, code: 'invalid_range' });
  });

  it('honours every x-qs-copy-source-if-* condition with 412', async () => {
    const id = await initiate('dest.txt');
    const head = await send(em, 'HEAD', '/cl-bucket/big.txt');
    const etag = head.headers.get('etag') ?? '';
    const lastModified = new Date(head.headers.get('last-modified') ?? '');
    const earlier = new Date(lastModified.getTime() - 60_000).toUTCString();
    const later = new Date(lastModified.getTime() + 60_000).toUTCString();
    const range = { 'x-qs-copy-range': 'bytes=0-9' };
    const failing: Array<Record<string, string>> = [
      { 'x-qs-copy-source-if-match': '"0000"' },
      { 'x-qs-copy-source-if-none-match': etag },
      { 'x-qs-copy-source-if-modified-since': later },
      { 'x-qs-copy-source-if-unmodified-since': earlier },
    ];
    for (const condition of failing) {
      expect({ condition, ...(await errorOf(await partCopy('dest.txt', id, 1, { ...range, ...condition }))) }).toMatchObject({ condition, status: 412, code: 'precondition_failed' });
    }
    const passing: Array<Record<string, string>> = [
      { 'x-qs-copy-source-if-match': etag },
      { 'x-qs-copy-source-if-none-match': '"0000"' },
      { 'x-qs-copy-source-if-modified-since': earlier },
      { 'x-qs-copy-source-if-unmodified-since': later },
    ];
    for (const condition of passing) {
      expect({ condition, status: (await partCopy('dest.txt', id, 1, { ...range, ...condition })).status }).toEqual({ condition, status: 201 });
    }
  });

  it('needs READ on the source bucket and WRITE on the destination', async () => {
    await createBucket(em, 'cl-private');
    await putText(em, 'cl-private', 'secret.txt', SMALL);
    em.store.putBucketAcl('cl-bucket', [
      { grantee: { type: 'user', id: OWNER.id }, permission: 'FULL_CONTROL' },
      { grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' },
      { grantee: { type: 'user', id: READER.id }, permission: 'READ' },
    ]);
    const id = await initiate('dest.txt');
    const fromPrivate = { 'x-qs-copy-source': '/cl-private/secret.txt' };
    // WRITER may write cl-bucket but cannot read cl-private.
    expect(await errorOf(await partCopy('dest.txt', id, 1, fromPrivate, WRITER))).toMatchObject({ status: 403, code: 'permission_denied' });
    // READER may read cl-bucket's source but not write the upload.
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-9' }, READER))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-9' }, STRANGER))).toMatchObject({ status: 403, code: 'permission_denied' });
    // WRITE alone on the bucket that holds the source is not enough: the source needs READ.
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-9' }, WRITER))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('cl-bucket', [
      { grantee: { type: 'user', id: OWNER.id }, permission: 'FULL_CONTROL' },
      { grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' },
      { grantee: { type: 'user', id: WRITER.id }, permission: 'READ' },
    ]);
    expect((await partCopy('dest.txt', id, 1, { 'x-qs-copy-range': 'bytes=0-9' }, WRITER)).status).toBe(201);
  });

  it('a missing source or upload and a malformed source are QingStor errors', async () => {
    const id = await initiate('dest.txt');
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-source': '/cl-bucket/missing.txt' }))).toMatchObject({ status: 404, code: 'object_not_exists' });
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-source': 'no-slash' }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await partCopy('dest.txt', id, 1, { 'x-qs-copy-source': '/cl-bucket/%E0%A4%A' }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await partCopy('dest.txt', 'ffffffffffffffffffffffffffffffff', 1, {}))).toMatchObject({ status: 404, code: 'upload_not_exists' });
  });
});

describe('the copy limit as an option of the standalone server', () => {
  it('parses --copy-limit and refuses nonsense', () => {
    const parsed = parseCli(['--copy-limit', '1048576']);
    expect(parsed !== 'help' && parsed.copyLimit).toBe(1048576);
    const none = parseCli([]);
    expect(none !== 'help' && none.copyLimit).toBeUndefined();
    expect(() => parseCli(['--copy-limit', '0'])).toThrow(/copy-limit/);
    expect(() => parseCli(['--copy-limit', 'lots'])).toThrow(/copy-limit/);
  });

  it('startEmulatorServer passes copyLimit to the store', async () => {
    const running = await startEmulatorServer({ port: 0, seed: 'empty', copyLimit: 1234 });
    try {
      expect(running.store.copyLimit).toBe(1234);
    } finally {
      await running.close();
    }
  });
});
