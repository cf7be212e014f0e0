import { describe, it, expect } from 'vitest';
import { bodyToBytes } from './body.ts';
import { BUCKET, codeOf, storeWithBucket, testClock, text } from './test-helpers.ts';

const MD5_ABC = '900150983cd24fb0d6963f7d28e17f72';

describe('initiate / upload part (ref §8.1, §8.2)', () => {
  it('returns a 32-hex upload id with ms creation time; the object stays invisible until completion', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    const upload = store.initiateMultipartUpload(BUCKET, 'big.bin', {});
    expect(upload.uploadId).toMatch(/^[0-9a-f]{32}$/);
    expect(upload.created.toISOString()).toBe('2024-05-01T12:00:00.750Z');
    expect(upload).toMatchObject({ bucket: BUCKET, key: 'big.bin', storageClass: 'STANDARD' });
    store.uploadPart(BUCKET, 'big.bin', upload.uploadId, 1, { body: text('x') });
    expect(codeOf(() => store.getObject(BUCKET, 'big.bin'))).toBe('object_not_exists');
    expect(store.listObjects(BUCKET, {}).keys).toEqual([]);
    const second = store.initiateMultipartUpload(BUCKET, 'big.bin', {});
    expect(second.uploadId).not.toBe(upload.uploadId);
  });

  it('part etag = md5; re-upload replaces; part numbers 0..10000; Content-MD5 checked', async () => {
    const store = await storeWithBucket();
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    expect(store.uploadPart(BUCKET, 'k', uploadId, 0, { body: text('zzz') }).etag).toBe('f3abb86bd34cf4d52698f14c0da1dc60');
    const replaced = store.uploadPart(BUCKET, 'k', uploadId, 0, { body: text('abc') });
    expect(replaced.etag).toBe(MD5_ABC);
    expect(store.uploadPart(BUCKET, 'k', uploadId, 10000, { body: text('a') }).partNumber).toBe(10000);
    expect(codeOf(() => store.uploadPart(BUCKET, 'k', uploadId, 10001, { body: text('a') }))).toBe('invalid_argument');
    expect(codeOf(() => store.uploadPart(BUCKET, 'k', uploadId, -1, { body: text('a') }))).toBe('invalid_argument');
    expect(codeOf(() => store.uploadPart(BUCKET, 'k', uploadId, 1.5, { body: text('a') }))).toBe('invalid_argument');
    expect(codeOf(() => store.uploadPart(BUCKET, 'k', uploadId, 2, { body: text('a'), contentMd5: 'kAFQmDzST7DWlj99KOF/cg==' }))).toBe('bad_digest');
    const listed = store.listParts(BUCKET, 'k', uploadId, {});
    expect(listed.count).toBe(2);
    expect(listed.parts.map((p) => [p.partNumber, p.etag, p.size])).toEqual([
      [0, MD5_ABC, 3],
      [10000, '0cc175b9c0f1b6a831c399e269772661', 1],
    ]);
  });

  it('unknown upload, upload of another key, or missing bucket fail with the right codes', async () => {
    const store = await storeWithBucket();
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    expect(codeOf(() => store.uploadPart(BUCKET, 'k', 'f'.repeat(32), 1, { body: text('a') }))).toBe('upload_not_exists');
    expect(codeOf(() => store.uploadPart(BUCKET, 'other', uploadId, 1, { body: text('a') }))).toBe('upload_not_exists');
    expect(codeOf(() => store.listParts(BUCKET, 'other', uploadId, {}))).toBe('upload_not_exists');
    expect(codeOf(() => store.getUpload(BUCKET, 'k', 'nope'))).toBe('upload_not_exists');
    expect(codeOf(() => store.uploadPart('nothere', 'k', uploadId, 1, { body: text('a') }))).toBe('bucket_not_exists');
    expect(codeOf(() => store.initiateMultipartUpload(BUCKET, '', {}))).toBe('invalid_object_name');
    expect(store.getUpload(BUCKET, 'k', uploadId).uploadId).toBe(uploadId);
  });
});

describe('list parts (ref §8.4)', () => {
  it('pages by part_number_marker in ascending order with count = all parts', async () => {
    const store = await storeWithBucket();
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    for (const n of [7, 3, 10, 1, 5]) store.uploadPart(BUCKET, 'k', uploadId, n, { body: text(String(n)) });
    const first = store.listParts(BUCKET, 'k', uploadId, { limit: 2 });
    expect(first.parts.map((p) => p.partNumber)).toEqual([1, 3]);
    expect(first).toMatchObject({ count: 5, hasMore: true, limit: 2 });
    const second = store.listParts(BUCKET, 'k', uploadId, { limit: 2, partNumberMarker: 3 });
    expect(second.parts.map((p) => p.partNumber)).toEqual([5, 7]);
    const third = store.listParts(BUCKET, 'k', uploadId, { limit: 2, partNumberMarker: 7 });
    expect(third.parts.map((p) => p.partNumber)).toEqual([10]);
    expect(third.hasMore).toBe(false);
    // a marker between numbers, and a marker of 0 that excludes part 0 only
    expect(store.listParts(BUCKET, 'k', uploadId, { partNumberMarker: 4 }).parts.map((p) => p.partNumber)).toEqual([5, 7, 10]);
    store.uploadPart(BUCKET, 'k', uploadId, 0, { body: text('0') });
    expect(store.listParts(BUCKET, 'k', uploadId, { partNumberMarker: 0 }).parts[0]?.partNumber).toBe(1);
    expect(store.listParts(BUCKET, 'k', uploadId, {}).parts[0]?.partNumber).toBe(0);
  });

  it('clamps the limit to 1000 and walks 10,001 parts page by page', async () => {
    const store = await storeWithBucket();
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    const body = text('p');
    for (let n = 10000; n >= 0; n--) store.uploadPart(BUCKET, 'k', uploadId, n, { body });
    const dflt = store.listParts(BUCKET, 'k', uploadId, {});
    expect(dflt.parts).toHaveLength(1000);
    expect(store.listParts(BUCKET, 'k', uploadId, { limit: 5000 }).parts).toHaveLength(1000);
    const seen: number[] = [];
    let marker: number | undefined;
    for (;;) {
      const page = store.listParts(BUCKET, 'k', uploadId, { limit: 1000, partNumberMarker: marker });
      expect(page.count).toBe(10001);
      seen.push(...page.parts.map((p) => p.partNumber));
      if (!page.hasMore) break;
      marker = page.parts[page.parts.length - 1]?.partNumber;
    }
    expect(seen).toEqual(Array.from({ length: 10001 }, (_, i) => i));
    expect(codeOf(() => store.listParts(BUCKET, 'k', uploadId, { limit: -3 }))).toBe('invalid_argument');
  });
});

describe('complete (ref §8.5)', () => {
  it('assembles listed parts by reference (no byte copied), initiate metadata, client etag unquoted', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now, minPartSize: 2 });
    const upload = store.initiateMultipartUpload(BUCKET, 'video.mp4', {
      metadata: { standard: { 'content-type': 'video/mp4', 'content-disposition': 'attachment' }, custom: { Camera: 'x100' } },
      storageClass: 'STANDARD_IA',
    });
    const p1a = text('he');
    const p1b = text('llo ');
    const p2 = text('wor');
    const p3 = text('ld');
    store.uploadPart(BUCKET, 'video.mp4', upload.uploadId, 1, { body: [p1a, p1b] });
    store.uploadPart(BUCKET, 'video.mp4', upload.uploadId, 2, { body: p2 });
    store.uploadPart(BUCKET, 'video.mp4', upload.uploadId, 4, { body: text('discarded') });
    const part3 = store.uploadPart(BUCKET, 'video.mp4', upload.uploadId, 3, { body: p3 });
    clock.advance(1500);
    const object = store.completeMultipartUpload(BUCKET, 'video.mp4', upload.uploadId, {
      parts: [{ partNumber: 1 }, { partNumber: 2 }, { partNumber: 3, etag: `"${part3.etag.toUpperCase()}"` }],
      etag: '"0123456789abcdef0123456789abcdef"',
    });
    expect(object.body.chunks).toHaveLength(4);
    expect(object.body.chunks[0]).toBe(p1a);
    expect(object.body.chunks[1]).toBe(p1b);
    expect(object.body.chunks[2]).toBe(p2);
    expect(object.body.chunks[3]).toBe(p3);
    expect(new TextDecoder().decode(bodyToBytes(object.body))).toBe('hello world');
    expect(object).toMatchObject({
      key: 'video.mp4',
      size: 11,
      etag: '0123456789abcdef0123456789abcdef',
      contentType: 'video/mp4',
      storageClass: 'STANDARD_IA',
      appendable: false,
    });
    expect(object.metadata).toEqual({ standard: { 'content-type': 'video/mp4', 'content-disposition': 'attachment' }, custom: { camera: 'x100' } });
    expect(object.lastModified.toISOString()).toBe('2024-05-01T12:00:02.000Z');
    expect(store.getObject(BUCKET, 'video.mp4')).toBe(object);
    // the upload is gone (also its discarded part 4)
    expect(codeOf(() => store.listParts(BUCKET, 'video.mp4', upload.uploadId, {}))).toBe('upload_not_exists');
    expect(store.listMultipartUploads(BUCKET, {}).uploads).toEqual([]);
  });

  it('without a client ETag the object has etag null; an existing object is overwritten', async () => {
    const store = await storeWithBucket({ minPartSize: 1 });
    store.putObject(BUCKET, 'k', { body: text('old') });
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    store.uploadPart(BUCKET, 'k', uploadId, 5, { body: text('new') });
    const object = store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts: [{ partNumber: 5 }] });
    expect(object.etag).toBeNull();
    expect(object.contentType).toBe('application/octet-stream');
    expect(store.getBucketStatistics(BUCKET)).toMatchObject({ count: 1, size: 3 });
  });

  it('rejects missing parts, etag mismatch, bad order and an empty list with invalid_argument; upload survives', async () => {
    const store = await storeWithBucket({ minPartSize: 1 });
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    store.uploadPart(BUCKET, 'k', uploadId, 1, { body: text('abc') });
    store.uploadPart(BUCKET, 'k', uploadId, 2, { body: text('def') });
    const complete = (parts: { partNumber: number; etag?: string }[]) => () => store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts });
    expect(codeOf(complete([{ partNumber: 1 }, { partNumber: 3 }]))).toBe('invalid_argument');
    expect(codeOf(complete([{ partNumber: 1, etag: 'ffffffffffffffffffffffffffffffff' }]))).toBe('invalid_argument');
    expect(codeOf(complete([{ partNumber: 2 }, { partNumber: 1 }]))).toBe('invalid_argument');
    expect(codeOf(complete([{ partNumber: 1 }, { partNumber: 1 }]))).toBe('invalid_argument');
    expect(codeOf(complete([]))).toBe('invalid_argument');
    expect(store.listParts(BUCKET, 'k', uploadId, {}).count).toBe(2);
    expect(codeOf(complete([{ partNumber: 1, etag: MD5_ABC }, { partNumber: 2 }]))).toBeUndefined();
    expect(codeOf(complete([{ partNumber: 1 }]))).toBe('upload_not_exists');
  });

  it('entity_too_small for a non-last part below minPartSize; the last part may be small', async () => {
    const store = await storeWithBucket({ minPartSize: 4 });
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    store.uploadPart(BUCKET, 'k', uploadId, 1, { body: text('abc') });
    store.uploadPart(BUCKET, 'k', uploadId, 2, { body: text('abcd') });
    store.uploadPart(BUCKET, 'k', uploadId, 3, { body: text('a') });
    expect(codeOf(() => store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts: [{ partNumber: 1 }, { partNumber: 2 }] }))).toBe('entity_too_small');
    expect(codeOf(() => store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts: [{ partNumber: 2 }, { partNumber: 3 }] }))).toBeUndefined();
    expect(store.getObject(BUCKET, 'k').size).toBe(5);
  });

  it('defaults minPartSize to 4 MiB', async () => {
    const store = await storeWithBucket();
    expect(store.minPartSize).toBe(4 * 1024 * 1024);
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    store.uploadPart(BUCKET, 'k', uploadId, 1, { body: new Uint8Array(4 * 1024 * 1024 - 1) });
    store.uploadPart(BUCKET, 'k', uploadId, 2, { body: text('x') });
    expect(codeOf(() => store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts: [{ partNumber: 1 }, { partNumber: 2 }] }))).toBe('entity_too_small');
  });
});

describe('abort (ref §8.6)', () => {
  it('is idempotent, also after completion, and only a missing bucket fails', async () => {
    const store = await storeWithBucket({ minPartSize: 1 });
    const { uploadId } = store.initiateMultipartUpload(BUCKET, 'k', {});
    store.uploadPart(BUCKET, 'k', uploadId, 1, { body: text('a') });
    store.abortMultipartUpload(BUCKET, 'k', uploadId);
    store.abortMultipartUpload(BUCKET, 'k', uploadId);
    expect(codeOf(() => store.listParts(BUCKET, 'k', uploadId, {}))).toBe('upload_not_exists');
    expect(codeOf(() => store.completeMultipartUpload(BUCKET, 'k', uploadId, { parts: [{ partNumber: 1 }] }))).toBe('upload_not_exists');
    const other = store.initiateMultipartUpload(BUCKET, 'j', {});
    store.abortMultipartUpload(BUCKET, 'wrong-key', other.uploadId); // another key's id: nothing happens
    expect(store.getUpload(BUCKET, 'j', other.uploadId).uploadId).toBe(other.uploadId);
    expect(codeOf(() => store.abortMultipartUpload('nothere', 'k', uploadId))).toBe('bucket_not_exists');
  });
});

describe('list multipart uploads (ref §8.7)', () => {
  async function withUploads(keys: string[]) {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    const ids: Record<string, string[]> = {};
    for (const key of keys) {
      clock.advance(1);
      (ids[key] ??= []).push(store.initiateMultipartUpload(BUCKET, key, {}).uploadId);
    }
    return { store, ids };
  }

  it('sorts by key then creation time; only in-progress uploads', async () => {
    const { store, ids } = await withUploads(['b', 'a', 'b', 'c/1', 'a']);
    store.abortMultipartUpload(BUCKET, 'c/1', ids['c/1']?.[0] ?? '');
    const r = store.listMultipartUploads(BUCKET, {});
    expect(r.uploads.map((u) => [u.key, u.uploadId])).toEqual([
      ['a', ids.a?.[0]],
      ['a', ids.a?.[1]],
      ['b', ids.b?.[0]],
      ['b', ids.b?.[1]],
    ]);
    expect(r).toMatchObject({ hasMore: false, nextKeyMarker: '', nextUploadIdMarker: '', limit: 200 });
  });

  it('pages with key_marker + upload_id_marker through uploads of one key', async () => {
    const { store, ids } = await withUploads(['a', 'a', 'a', 'b']);
    const first = store.listMultipartUploads(BUCKET, { limit: 2 });
    expect(first.uploads.map((u) => u.uploadId)).toEqual(ids.a?.slice(0, 2));
    expect(first).toMatchObject({ hasMore: true, nextKeyMarker: 'a', nextUploadIdMarker: ids.a?.[1] });
    const second = store.listMultipartUploads(BUCKET, { limit: 2, keyMarker: first.nextKeyMarker, uploadIdMarker: first.nextUploadIdMarker });
    expect(second.uploads.map((u) => [u.key, u.uploadId])).toEqual([
      ['a', ids.a?.[2]],
      ['b', ids.b?.[0]],
    ]);
    expect(second).toMatchObject({ hasMore: false, nextKeyMarker: '', nextUploadIdMarker: '' });
    // key_marker alone skips every upload of that key
    expect(store.listMultipartUploads(BUCKET, { keyMarker: 'a' }).uploads.map((u) => u.key)).toEqual(['b']);
    // the marker upload may be gone: position still follows creation order
    store.abortMultipartUpload(BUCKET, 'a', ids.a?.[1] ?? '');
    const resumed = store.listMultipartUploads(BUCKET, { keyMarker: 'a', uploadIdMarker: ids.a?.[1] });
    expect(resumed.uploads.map((u) => u.uploadId)).toEqual([ids.a?.[2], ids.b?.[0]]);
  });

  it('groups by delimiter into prefixes that hold uploads, honours prefix, and clamps the limit', async () => {
    const { store } = await withUploads(['docs/a', 'docs/b', 'docs/sub/c', 'img/x', 'readme']);
    store.putObject(BUCKET, 'plain/object', { body: text('x') }); // objects do not create upload prefixes
    const r = store.listMultipartUploads(BUCKET, { delimiter: '/' });
    expect(r.commonPrefixes).toEqual(['docs/', 'img/']);
    expect(r.uploads.map((u) => u.key)).toEqual(['readme']);
    const inDocs = store.listMultipartUploads(BUCKET, { prefix: 'docs/', delimiter: '/', limit: 2 });
    expect(inDocs.uploads.map((u) => u.key)).toEqual(['docs/a', 'docs/b']);
    expect(inDocs).toMatchObject({ hasMore: true, nextKeyMarker: 'docs/b' });
    const rest = store.listMultipartUploads(BUCKET, { prefix: 'docs/', delimiter: '/', limit: 2, keyMarker: inDocs.nextKeyMarker, uploadIdMarker: inDocs.nextUploadIdMarker });
    expect(rest.commonPrefixes).toEqual(['docs/sub/']);
    expect(rest.hasMore).toBe(false);
    const byPrefix = store.listMultipartUploads(BUCKET, { delimiter: '/', limit: 1 });
    expect(byPrefix).toMatchObject({ commonPrefixes: ['docs/'], hasMore: true, nextKeyMarker: 'docs/', nextUploadIdMarker: '' });
    const afterPrefix = store.listMultipartUploads(BUCKET, { delimiter: '/', limit: 5, keyMarker: 'docs/' });
    expect(afterPrefix.commonPrefixes).toEqual(['img/']);
    expect(store.listMultipartUploads(BUCKET, { limit: 99999 }).limit).toBe(1000);
    expect(codeOf(() => store.listMultipartUploads(BUCKET, { limit: -1 }))).toBe('invalid_argument');
  });
});
