import { createHash } from 'node:crypto';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUser } from '../../mocks/auth/signature.ts';
import { setupEmulatorServer } from '../../mocks/node.ts';
import { getBucketAcl, putBucketAcl } from './acl/operations.ts';
import { bucketAclQuery } from './acl/queries.ts';
import { deleteBucket, getBucketStatistics, headBucket, putBucket } from './buckets/operations.ts';
import { createClient } from './client.ts';
import type { Connection } from './connection.ts';
import { deleteBucketCors, getBucketCors, putBucketCors } from './cors/operations.ts';
import { ApiError } from './errors.ts';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  initiateMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadPart,
} from './multipart/operations.ts';
import { listMultipartUploadsInfiniteQuery, listPartsInfiniteQuery } from './multipart/queries.ts';
import { contentMd5 } from './objects/md5.ts';
import { listObjects } from './objects/operations.ts';
import { getObject, getObjectUrl, headObject } from './objects/read.ts';
import { appendObject, copyObject, createFolder, deleteMultipleObjects, deleteObject, moveObject, putObject } from './objects/write.ts';
import { deleteObjectMutation, headObjectQuery, listObjectsInfiniteQuery, putObjectMutation } from './objects/queries.ts';
import { postObject } from './post-object/operations.ts';
import { getLocations, listBuckets } from './service/operations.ts';

/**
 * Every operation of src/api through the real client against the real emulator handlers (msw
 * setupServer, in-process): URL building, signing, parsing and error mapping meet the server side.
 */

// Test-only key pairs; they exist nowhere but in this file.
const OWNER: MockUser = { id: 'usr-apiown01', name: 'api-owner', accessKeyId: 'APITESTOWNERKEY00001', secretAccessKey: 'apiOwnerSecretKey000000000000000000000000' };
const OTHER: MockUser = { id: 'usr-apioth01', name: 'api-other', accessKeyId: 'APITESTOTHERKEY00001', secretAccessKey: 'apiOtherSecretKey000000000000000000000000' };
const MIN_PART = 8;

const base: Omit<Connection, 'credentials'> = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a' };
const owner = createClient({ ...base, credentials: { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey } });
const ownerVhost = createClient({ ...base, style: 'virtual-host', credentials: { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey } });
const other = createClient({ ...base, credentials: { accessKeyId: OTHER.accessKeyId, secretAccessKey: OTHER.secretAccessKey } });
const anonymous = createClient(base);
const wrongSecret = createClient({ ...base, credentials: { accessKeyId: OWNER.accessKeyId, secretAccessKey: 'not-the-secret' } });

const BUCKET = 'api-objects';
const SH1A_BUCKET = 'api-sh1a-bucket';

// acceptAnyHost: like the standalone emulator, other hosts (127.0.0.1:9000) are served path style.
const { server } = await setupEmulatorServer({ seed: 'empty', users: [OWNER, OTHER], domains: ['qingstor.com', 'qingstor.invalid'], minPartSize: MIN_PART, acceptAnyHost: true });

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  await putBucket(owner, { bucket: BUCKET });
});
afterAll(() => server.close());

function md5Hex(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('service and buckets', () => {
  it('creates buckets in zones, lists them globally and per zone, heads and deletes them', async () => {
    await putBucket(owner, { zone: 'sh1a', bucket: SH1A_BUCKET });
    const all = await listBuckets(owner);
    expect(all.buckets.map((b) => [b.name, b.location])).toEqual(expect.arrayContaining([[BUCKET, 'pek3a'], [SH1A_BUCKET, 'sh1a']]));
    const sh1a = await listBuckets(owner, { location: 'sh1a' });
    expect(sh1a.buckets.map((b) => b.name)).toEqual([SH1A_BUCKET]);

    await expect(headBucket(owner, { zone: 'sh1a', bucket: SH1A_BUCKET })).resolves.toMatchObject({ requestId: expect.stringMatching(/\S/) });
    // A bucket must be addressed in its own zone (ref §1.1).
    const wrongZone = await failure(headBucket(owner, { zone: 'pek3a', bucket: SH1A_BUCKET }));
    expect(wrongZone).toMatchObject({ status: 404, code: 'not_found', fromBody: false });

    const taken = await failure(putBucket(other, { zone: 'sh1a', bucket: SH1A_BUCKET }));
    expect(taken).toMatchObject({ status: 409, code: 'bucket_already_exists', fromBody: true });
    expect(taken.requestId).not.toBe('');

    await deleteBucket(owner, { zone: 'sh1a', bucket: SH1A_BUCKET });
    expect((await listBuckets(owner)).buckets.map((b) => b.name)).not.toContain(SH1A_BUCKET);
  });

  it('lists locations anonymously and refuses anonymous ListBuckets', async () => {
    const { locations } = await getLocations(anonymous);
    expect(locations.map((l) => l.id)).toEqual(expect.arrayContaining(['pek3a', 'sh1a']));
    expect(await failure(listBuckets(anonymous))).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('rejects a wrong secret with signature_not_matched', async () => {
    expect(await failure(listBuckets(wrongSecret))).toMatchObject({ status: 401, code: 'signature_not_matched' });
  });

  it('reports statistics and refuses deleting a non-empty bucket', async () => {
    await putBucket(owner, { bucket: 'api-stats-bucket' });
    await putObject(owner, { bucket: 'api-stats-bucket', key: 'a', body: 'abc' });
    const stats = await getBucketStatistics(owner, { bucket: 'api-stats-bucket' });
    expect(stats).toMatchObject({ count: 1, size: 3, name: 'api-stats-bucket', location: 'pek3a' });
    expect(await failure(deleteBucket(owner, { bucket: 'api-stats-bucket' }))).toMatchObject({ status: 409, code: 'bucket_not_empty' });
    expect(await failure(getBucketStatistics(other, { bucket: 'api-stats-bucket' }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('objects', () => {
  const key = 'docs/中文 (draft)!.txt';

  it('puts with metadata and Content-MD5, then HEAD and GET return the same object', async () => {
    const body = 'hello world';
    const put = await putObject(owner, {
      bucket: BUCKET,
      key,
      body,
      contentMd5: true,
      storageClass: 'STANDARD_IA',
      metadata: { standard: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=60', 'content-disposition': 'inline' }, custom: { author: 'Alice', 'project-id': '42' } },
    });
    expect(put.etag).toBe(`"${md5Hex(body)}"`);

    const head = await headObject(owner, { bucket: BUCKET, key });
    expect(head).toMatchObject({
      size: 11,
      contentType: 'text/plain; charset=utf-8',
      etag: put.etag,
      storageClass: 'STANDARD_IA',
      metadata: { standard: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=60', 'content-disposition': 'inline' }, custom: { author: 'Alice', 'project-id': '42' } },
    });
    expect(head.lastModified).toBeInstanceOf(Date);
    expect(head.requestId).not.toBe('');

    const got = await getObject(owner, { bucket: BUCKET, key, range: 'bytes=0-4' });
    expect(got.status).toBe(206);
    expect(got.contentRange).toBe('bytes 0-4/11');
    expect(await got.body.text()).toBe('hello');
  });

  it('maps a wrong Content-MD5 to bad_digest and a missing object on HEAD to not_found', async () => {
    const bad = await failure(putObject(owner, { bucket: BUCKET, key: 'x', body: 'abc', contentMd5: await contentMd5('other') }));
    expect(bad).toMatchObject({ status: 400, code: 'bad_digest', operation: 'PutObject' });
    const missing = await failure(headObject(owner, { bucket: BUCKET, key: 'does/not/exist' }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found', fromBody: false, operation: 'HeadObject' });
    expect(missing.requestId).not.toBe('');
    const getMissing = await failure(getObject(owner, { bucket: BUCKET, key: 'does/not/exist' }));
    expect(getMissing).toMatchObject({ status: 404, code: 'object_not_exists', fromBody: true });
  });

  it('pre-signed download links work without headers, expire, and carry the download name', async () => {
    const url = await getObjectUrl(owner, { bucket: BUCKET, key, expiresIn: 300, downloadName: '报告.txt' });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello world');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${encodeURIComponent('报告.txt')}"; filename*=utf-8''${encodeURIComponent('报告.txt')}`);

    const past = createClient(owner.connection, { now: () => new Date(Date.now() - 3600_000) });
    const expired = await fetch(await getObjectUrl(past, { bucket: BUCKET, key, expiresIn: 60 }));
    expect(expired.status).toBe(403);
    const unsigned = await fetch(owner.url({ bucket: BUCKET, key }).url);
    expect(unsigned.status).toBe(403);
  });

  it('lists with prefix/delimiter and pages with markers through the infinite query', async () => {
    await createFolder(owner, { bucket: BUCKET, prefix: 'list/sub' });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await putObject(owner, { bucket: BUCKET, key: `list/${name}.txt`, body: name });
    const top = await listObjects(owner, { bucket: BUCKET, prefix: 'list/', delimiter: '/' });
    expect(top.common_prefixes).toEqual(['list/sub/']);
    expect(top.keys.map((k) => k.key)).toEqual(['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/d.txt', 'list/e.txt']);
    expect(top.keys[0]).toMatchObject({ size: 1, etag: `"${md5Hex('a')}"` });

    const queryClient = new QueryClient();
    const options = listObjectsInfiniteQuery(owner, { bucket: BUCKET, prefix: 'list/', delimiter: '/', limit: 2 });
    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: 10 });
    const items = data.pages.flatMap((p) => [...p.keys.map((k) => k.key), ...p.common_prefixes]);
    expect(items.sort()).toEqual(['list/a.txt', 'list/b.txt', 'list/c.txt', 'list/d.txt', 'list/e.txt', 'list/sub/']);
    expect(data.pages).toHaveLength(3);
    expect(data.pages.at(-1)?.has_more).toBe(false);
    expect(options.queryKey).toEqual(['qs', expect.any(String), 'bucket', BUCKET, 'objects', { prefix: 'list/', delimiter: '/', limit: 2 }]);
  });

  it('copies with COPY (metadata kept) and REPLACE (metadata replaced), honouring source conditions', async () => {
    const source = { bucket: BUCKET, key };
    const copied = await copyObject(owner, { bucket: BUCKET, key: 'copies/keep.txt', source, directive: 'COPY' });
    const keep = await headObject(owner, { bucket: BUCKET, key: 'copies/keep.txt' });
    expect(keep.metadata.custom).toEqual({ author: 'Alice', 'project-id': '42' });
    expect(keep.contentType).toBe('text/plain; charset=utf-8');
    expect(copied.etag).toBe(keep.etag);

    const head = await headObject(owner, source);
    await copyObject(owner, {
      bucket: BUCKET,
      key,
      source,
      directive: 'REPLACE',
      metadata: { standard: { 'content-type': 'text/markdown' }, custom: { author: 'Bob' } },
      conditions: { ifMatch: head.etag, ifUnmodifiedSince: head.lastModifiedRaw },
    });
    const replaced = await headObject(owner, source);
    expect(replaced.metadata).toEqual({ standard: { 'content-type': 'text/markdown' }, custom: { author: 'Bob' } });
    expect(replaced.contentType).toBe('text/markdown');

    const conflict = await failure(copyObject(owner, { bucket: BUCKET, key, source, directive: 'REPLACE', metadata: { standard: {}, custom: {} }, conditions: { ifMatch: '"00000000000000000000000000000000"' } }));
    expect(conflict).toMatchObject({ status: 412, code: 'precondition_failed', operation: 'CopyObject' });
  });

  it('moves (metadata kept, source gone) and deletes idempotently', async () => {
    await putObject(owner, { bucket: BUCKET, key: 'move/src.bin', body: new Uint8Array([1, 2, 3]), metadata: { standard: {}, custom: { tag: 'm' } } });
    await moveObject(owner, { bucket: BUCKET, key: 'move/dst 名.bin', source: { bucket: BUCKET, key: 'move/src.bin' } });
    expect((await headObject(owner, { bucket: BUCKET, key: 'move/dst 名.bin' })).metadata.custom).toEqual({ tag: 'm' });
    expect(await failure(headObject(owner, { bucket: BUCKET, key: 'move/src.bin' }))).toMatchObject({ status: 404 });

    await deleteObject(owner, { bucket: BUCKET, key: 'move/dst 名.bin' });
    await expect(deleteObject(owner, { bucket: BUCKET, key: 'move/dst 名.bin' })).resolves.toMatchObject({ requestId: expect.any(String) });
    expect(await failure(deleteObject(anonymous, { bucket: BUCKET, key: 'x' }))).toMatchObject({ status: 403 });
  });

  it('appends at the right position and reports the next one', async () => {
    const first = await appendObject(owner, { bucket: BUCKET, key: 'log.txt', position: 0, body: 'line1\n', contentType: 'text/plain', contentMd5: true });
    expect(first.nextPosition).toBe(6);
    const second = await appendObject(owner, { bucket: BUCKET, key: 'log.txt', position: first.nextPosition, body: 'line2\n' });
    expect(second.nextPosition).toBe(12);
    const head = await headObject(owner, { bucket: BUCKET, key: 'log.txt' });
    expect(head).toMatchObject({ objectType: 'appendable', nextAppendPosition: 12, size: 12, contentType: 'text/plain' });
    expect(await failure(appendObject(owner, { bucket: BUCKET, key: 'log.txt', position: 3, body: 'x' }))).toMatchObject({ status: 400, code: 'invalid_argument' });
  });

  it('deletes many objects with a Content-MD5 body', async () => {
    await putObject(owner, { bucket: BUCKET, key: 'bulk/1', body: '1' });
    await putObject(owner, { bucket: BUCKET, key: 'bulk/中文', body: '2' });
    const result = await deleteMultipleObjects(owner, { bucket: BUCKET, keys: ['bulk/1', 'bulk/中文'] });
    expect(result.deleted.map((d) => d.key).sort()).toEqual(['bulk/1', 'bulk/中文']);
    expect(result.errors).toEqual([]);
    expect((await listObjects(owner, { bucket: BUCKET, prefix: 'bulk/' })).keys).toEqual([]);
  });

  it('works the same in virtual-host style with hostile keys', async () => {
    const hostile = `vh/<img src=x onerror=alert(1)>/"quotes'/emoji 😀/a+b=c&d?e#f%g`;
    const put = await putObject(ownerVhost, { bucket: BUCKET, key: hostile, body: 'v' });
    expect((await headObject(ownerVhost, { bucket: BUCKET, key: hostile })).etag).toBe(put.etag);
    const listed = await listObjects(ownerVhost, { bucket: BUCKET, prefix: 'vh/' });
    expect(listed.keys.map((k) => k.key)).toEqual([hostile]);
    // Both styles name the same object.
    expect((await headObject(owner, { bucket: BUCKET, key: hostile })).size).toBe(1);
  });
});

describe('other endpoints', () => {
  const ownerCredentials = { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey };

  it('an IP endpoint without zone labels reaches the same buckets; virtual-host falls back to path style', async () => {
    await putObject(owner, { bucket: BUCKET, key: 'ip/a.txt', body: 'ip' });
    for (const style of ['path', 'virtual-host'] as const) {
      const ip = createClient({ endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style, defaultZone: 'pek3a', credentials: ownerCredentials });
      expect(ip.url({ bucket: BUCKET, key: 'ip/a.txt' }).url.href).toBe(`http://127.0.0.1:9000/${BUCKET}/ip/a.txt`);
      expect((await listObjects(ip, { bucket: BUCKET, prefix: 'ip/' })).keys.map((k) => k.key)).toEqual(['ip/a.txt']);
      expect((await headObject(ip, { bucket: BUCKET, key: 'ip/a.txt' })).size).toBe(2);
    }
  });

  it('the demo domain works in virtual-host style with zones in the host', async () => {
    const demo = createClient({ endpoint: 'https://qingstor.invalid', zoneInHost: true, style: 'virtual-host', defaultZone: 'pek3a', credentials: ownerCredentials });
    expect(demo.url({ bucket: BUCKET, key: 'ip/a.txt' }).url.host).toBe(`${BUCKET}.pek3a.qingstor.invalid`);
    expect(await (await getObject(demo, { bucket: BUCKET, key: 'ip/a.txt' })).body.text()).toBe('ip');
    expect((await listBuckets(demo)).buckets.map((b) => b.name)).toContain(BUCKET);
  });
});

describe('query and mutation factories', () => {
  it('a mutation refreshes the listings and details it touched, not other buckets', async () => {
    const queryClient = new QueryClient();
    const list = listObjectsInfiniteQuery(owner, { bucket: BUCKET, prefix: 'mut/' });
    const otherList = listObjectsInfiniteQuery(owner, { bucket: 'api-public-bucket', prefix: 'mut/' });
    queryClient.setQueryData(otherList.queryKey, { pages: [], pageParams: [] });
    expect((await queryClient.fetchInfiniteQuery(list)).pages[0]?.keys).toEqual([]);

    await new MutationObserver(queryClient, putObjectMutation(owner, queryClient)).mutate({ bucket: BUCKET, key: 'mut/new.txt', body: 'n' });
    // The active-less cached listing is marked stale and refetches with the new key on next use.
    expect(queryClient.getQueryState(list.queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(otherList.queryKey)?.isInvalidated).toBe(false);
    expect((await queryClient.fetchInfiniteQuery(list)).pages[0]?.keys.map((k) => k.key)).toEqual(['mut/new.txt']);

    const head = await queryClient.fetchQuery(headObjectQuery(owner, { bucket: BUCKET, key: 'mut/new.txt' }));
    expect(head.size).toBe(1);
    await new MutationObserver(queryClient, deleteObjectMutation(owner, queryClient)).mutate({ bucket: BUCKET, key: 'mut/new.txt' });
    expect(queryClient.getQueryState(headObjectQuery(owner, { bucket: BUCKET, key: 'mut/new.txt' }).queryKey)?.isInvalidated).toBe(true);
  });
});

describe('multipart', () => {
  const key = 'big/file.bin';
  const parts = ['A'.repeat(MIN_PART), 'B'.repeat(MIN_PART), 'C'.repeat(MIN_PART), 'tail'];

  it('initiates, uploads parts, pages parts and uploads, completes with an ETag', async () => {
    const init = await initiateMultipartUpload(owner, {
      bucket: BUCKET,
      key,
      storageClass: 'STANDARD',
      metadata: { standard: { 'content-type': 'application/x-test' }, custom: { origin: 'multipart' } },
    });
    expect(init).toMatchObject({ bucket: BUCKET, key });
    const uploadId = init.upload_id;

    const etags: string[] = [];
    for (const [i, data] of parts.entries()) {
      const progress: number[] = [];
      const uploaded = await uploadPart(owner, {
        bucket: BUCKET,
        key,
        uploadId,
        partNumber: i,
        body: new Blob([data]),
        contentMd5: await contentMd5(data),
        onProgress: (p) => progress.push(p.loaded),
      });
      expect(uploaded.etag.replace(/"/g, '')).toBe(md5Hex(data));
      expect(progress.at(-1)).toBe(data.length);
      etags.push(uploaded.etag);
    }

    const page = await listParts(owner, { bucket: BUCKET, key, uploadId, limit: 2 });
    expect(page.object_parts.map((p) => p.part_number)).toEqual([0, 1]);
    expect(page.count).toBe(4);

    const queryClient = new QueryClient();
    const partsData = await queryClient.fetchInfiniteQuery({ ...listPartsInfiniteQuery(owner, { bucket: BUCKET, key, uploadId }, 2), pages: 10 });
    expect(partsData.pages.flatMap((p) => p.object_parts.map((x) => x.part_number))).toEqual([0, 1, 2, 3]);
    expect(partsData.pages.flatMap((p) => p.object_parts.map((x) => x.size))).toEqual([MIN_PART, MIN_PART, MIN_PART, 4]);

    const uploads = await listMultipartUploads(owner, { bucket: BUCKET, prefix: 'big/' });
    expect(uploads.uploads.map((u) => [u.key, u.upload_id])).toEqual([[key, uploadId]]);
    const uploadsData = await queryClient.fetchInfiniteQuery({ ...listMultipartUploadsInfiniteQuery(owner, { bucket: BUCKET, limit: 1 }), pages: 5 });
    expect(uploadsData.pages.flatMap((p) => p.uploads.map((u) => u.upload_id))).toEqual([uploadId]);

    const finalEtag = md5Hex(parts.join(''));
    await completeMultipartUpload(owner, { bucket: BUCKET, key, uploadId, parts: parts.map((_, i) => ({ partNumber: i, etag: etags[i] })), etag: finalEtag });
    const head = await headObject(owner, { bucket: BUCKET, key });
    expect(head).toMatchObject({ size: 3 * MIN_PART + 4, etag: `"${finalEtag}"`, contentType: 'application/x-test', metadata: { custom: { origin: 'multipart' } } });
    expect(await (await getObject(owner, { bucket: BUCKET, key })).body.text()).toBe(parts.join(''));
    expect((await listMultipartUploads(owner, { bucket: BUCKET, prefix: 'big/' })).uploads).toEqual([]);
  });

  it('aborts idempotently; listing an aborted upload is upload_not_exists', async () => {
    const { upload_id: uploadId } = await initiateMultipartUpload(owner, { bucket: BUCKET, key: 'big/aborted.bin' });
    await uploadPart(owner, { bucket: BUCKET, key: 'big/aborted.bin', uploadId, partNumber: 1, body: new Uint8Array(MIN_PART) });
    await abortMultipartUpload(owner, { bucket: BUCKET, key: 'big/aborted.bin', uploadId });
    await expect(abortMultipartUpload(owner, { bucket: BUCKET, key: 'big/aborted.bin', uploadId })).resolves.toBeDefined();
    expect(await failure(listParts(owner, { bucket: BUCKET, key: 'big/aborted.bin', uploadId }))).toMatchObject({ status: 404, code: 'upload_not_exists' });
    expect(() => listParts(owner, { bucket: BUCKET, key: 'k', uploadId, limit: 1001 })).toThrow(RangeError);
  });
});

describe('ACL, CORS and PostObject', () => {
  const PUBLIC = 'api-public-bucket';

  it('reads and replaces the ACL; a public-read grant opens GET but not ListObjects to anonymous users', async () => {
    await putBucket(owner, { bucket: PUBLIC });
    await putObject(owner, { bucket: PUBLIC, key: 'hello.txt', body: 'hi' });
    const initial = await getBucketAcl(owner, { bucket: PUBLIC });
    expect(initial.owner?.id).toBe(OWNER.id);
    expect(initial.acl[0]).toMatchObject({ grantee: { type: 'user', id: OWNER.id }, permission: 'FULL_CONTROL' });
    expect(await failure(getObject(anonymous, { bucket: PUBLIC, key: 'hello.txt' }))).toMatchObject({ status: 403 });

    await putBucketAcl(owner, { bucket: PUBLIC }, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }, { grantee: { type: 'user', id: OTHER.id }, permission: 'WRITE' }]);
    const queryClient = new QueryClient();
    const acl = await queryClient.fetchQuery(bucketAclQuery(owner, { bucket: PUBLIC }));
    expect(acl.acl).toEqual(expect.arrayContaining([
      { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' },
      expect.objectContaining({ grantee: expect.objectContaining({ type: 'user', id: OTHER.id }), permission: 'WRITE' }),
    ]));

    expect(await (await getObject(anonymous, { bucket: PUBLIC, key: 'hello.txt' })).body.text()).toBe('hi');
    expect((await fetch(await getObjectUrl(anonymous, { bucket: PUBLIC, key: 'hello.txt', expiresIn: 60 }))).status).toBe(200);
    expect(await failure(listObjects(anonymous, { bucket: PUBLIC }))).toMatchObject({ status: 403, code: 'permission_denied' });
    await expect(putObject(other, { bucket: PUBLIC, key: 'from-other.txt', body: 'o' })).resolves.toMatchObject({ etag: `"${md5Hex('o')}"` });
    expect(await failure(getBucketAcl(other, { bucket: PUBLIC }))).toMatchObject({ status: 403 });
  });

  it('gets, puts and deletes CORS rules', async () => {
    expect(await getBucketCors(owner, { bucket: BUCKET })).toEqual({ cors_rules: [] });
    const rule = { allowed_origin: 'http://localhost:5173', allowed_methods: ['GET', 'PUT'] as Array<'GET' | 'PUT'>, allowed_headers: ['*'], expose_headers: ['ETag', 'x-qs-request-id'], max_age_seconds: 300 };
    await putBucketCors(owner, { bucket: BUCKET }, { cors_rules: [rule] });
    expect((await getBucketCors(owner, { bucket: BUCKET })).cors_rules).toEqual([rule]);
    await deleteBucketCors(owner, { bucket: BUCKET });
    expect((await getBucketCors(owner, { bucket: BUCKET })).cors_rules).toEqual([]);
  });

  it('uploads a signed form with ${filename} and metadata, and an anonymous form to a public-write bucket', async () => {
    const file = new File(['form body'], 'photo 1.txt', { type: 'text/plain' });
    const progress: number[] = [];
    const result = await postObject(owner, {
      bucket: BUCKET,
      key: 'forms/${filename}',
      file,
      metadata: { standard: { 'cache-control': 'no-cache' }, custom: { batch: '7' } },
      onProgress: (p) => progress.push(p.loaded),
    });
    expect(result).toMatchObject({ key: 'forms/photo 1.txt', etag: `"${md5Hex('form body')}"` });
    expect(progress.length).toBeGreaterThan(0);
    const head = await headObject(owner, { bucket: BUCKET, key: 'forms/photo 1.txt' });
    expect(head).toMatchObject({ size: 9, contentType: 'text/plain', metadata: { standard: { 'cache-control': 'no-cache' }, custom: { batch: '7' } } });

    await putBucketAcl(owner, { bucket: PUBLIC }, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    const anon = await postObject(anonymous, { bucket: PUBLIC, key: 'anon/${filename}', file: new Blob(['x']), filename: 'a.bin' });
    expect(anon.key).toBe('anon/a.bin');
    expect((await headObject(owner, { bucket: PUBLIC, key: 'anon/a.bin' })).size).toBe(1);
  });
});
