import { describe, it, expect } from 'vitest';
import { bodyToBytes } from './body.ts';
import { hexToBase64 } from './md5.ts';
import { QsError } from '../errors.ts';
import { BUCKET, codeOf, storeWithBucket, testClock, text } from './test-helpers.ts';

const MD5_ABC = '900150983cd24fb0d6963f7d28e17f72';
const MD5_EMPTY = 'd41d8cd98f00b204e9800998ecf8427e';

function str(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

describe('put / get / delete', () => {
  it('stores body chunks without copying, unquoted MD5 etag, whole-second times and default content type', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    const first = text('ab');
    const second = text('c');
    const stored = store.putObject(BUCKET, 'dir/file.txt', { body: [first, second] });
    expect(stored.etag).toBe(MD5_ABC);
    expect(stored.size).toBe(3);
    expect(stored.body.chunks[0]).toBe(first);
    expect(stored.body.chunks[1]).toBe(second);
    expect(stored.lastModified.toISOString()).toBe('2024-05-01T12:00:00.000Z');
    expect(stored.contentType).toBe('application/octet-stream');
    expect(stored.storageClass).toBe('STANDARD');
    expect(stored.appendable).toBe(false);
    expect(store.getObject(BUCKET, 'dir/file.txt')).toBe(stored);
    expect(store.putObject(BUCKET, 'empty', { body: new Uint8Array(0) }).etag).toBe(MD5_EMPTY);
  });

  it('keeps the five standard headers and lower-cases custom metadata keys (ref §6)', async () => {
    const store = await storeWithBucket();
    const stored = store.putObject(BUCKET, 'meta', {
      body: text('x'),
      storageClass: 'STANDARD_IA',
      metadata: {
        standard: { 'content-type': 'video/mp4; charset=utf8', 'cache-control': 'no-cache', expires: 'Wed, 21 Oct 2015 07:28:00 GMT' },
        custom: { Author: 'tom', 'x-Id': '7' },
      },
    });
    expect(stored.contentType).toBe('video/mp4; charset=utf8');
    expect(stored.metadata).toEqual({
      standard: { 'content-type': 'video/mp4; charset=utf8', 'cache-control': 'no-cache', expires: 'Wed, 21 Oct 2015 07:28:00 GMT' },
      custom: { author: 'tom', 'x-id': '7' },
    });
    expect(stored.storageClass).toBe('STANDARD_IA');
    const empty = store.putObject(BUCKET, 'ct', { body: text('x'), metadata: { standard: { 'content-type': '' }, custom: {} } });
    expect(empty.contentType).toBe('application/octet-stream'); // ref §3: empty ⇒ default
  });

  it('verifies Content-MD5 (base64) and rejects bad keys and missing buckets', async () => {
    const store = await storeWithBucket();
    expect(hexToBase64(MD5_ABC)).toBe('kAFQmDzST7DWlj99KOF/cg==');
    expect(codeOf(() => store.putObject(BUCKET, 'k', { body: text('abc'), contentMd5: 'kAFQmDzST7DWlj99KOF/cg==' }))).toBeUndefined();
    expect(codeOf(() => store.putObject(BUCKET, 'k2', { body: text('abd'), contentMd5: 'kAFQmDzST7DWlj99KOF/cg==' }))).toBe('bad_digest');
    expect(store.findObject(BUCKET, 'k2')).toBeUndefined();
    expect(codeOf(() => store.putObject(BUCKET, '', { body: text('x') }))).toBe('invalid_object_name');
    expect(codeOf(() => store.putObject(BUCKET, 'é'.repeat(512), { body: text('x') }))).toBe('invalid_object_name');
    expect(codeOf(() => store.putObject('nothere', 'k', { body: text('x') }))).toBe('bucket_not_exists');
  });

  it('overwrites (last writer wins); getObject distinguishes missing object and bucket', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'k', { body: text('one') });
    store.putObject(BUCKET, 'k', { body: text('two') });
    expect(str(bodyToBytes(store.getObject(BUCKET, 'k').body))).toBe('two');
    expect(codeOf(() => store.getObject(BUCKET, 'nope'))).toBe('object_not_exists');
    expect(codeOf(() => store.getObject('nothere', 'k'))).toBe('bucket_not_exists');
    expect(store.findObject(BUCKET, 'nope')).toBeUndefined();
  });

  it('deletes idempotently; delete-multiple reports missing keys as deleted and bad keys as errors (ref §5.6, §5.9)', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'a', { body: text('x') });
    store.deleteObject(BUCKET, 'a');
    store.deleteObject(BUCKET, 'a');
    expect(store.findObject(BUCKET, 'a')).toBeUndefined();
    expect(codeOf(() => store.deleteObject('nothere', 'a'))).toBe('bucket_not_exists');
    store.putObject(BUCKET, 'dir/中文.txt', { body: text('x') });
    const result = store.deleteObjects(BUCKET, ['object_1', 'dir/中文.txt', '']);
    expect(result.deleted).toEqual(['object_1', 'dir/中文.txt']);
    expect(result.errors).toEqual([{ key: '', code: 'invalid_object_name', message: expect.any(String) }]);
    expect(store.findObject(BUCKET, 'dir/中文.txt')).toBeUndefined();
  });
});

describe('copy (ref §5.2)', () => {
  it('COPY keeps source metadata, shares the body, takes the source etag and a new Last-Modified', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    store.createBucket({ name: 'other-bucket', zone: 'pek3a', ownerId: 'usr-x' });
    const source = store.putObject(BUCKET, 'src', {
      body: text('abc'),
      storageClass: 'STANDARD_IA',
      metadata: { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } },
    });
    clock.advance(5000);
    const copy = store.copyObject({ sourceBucket: BUCKET, sourceKey: 'src', bucket: 'other-bucket', key: 'dst' });
    expect(copy.etag).toBe(MD5_ABC);
    expect(copy.body).toBe(source.body);
    expect(copy.metadata).toEqual(source.metadata);
    expect(copy.storageClass).toBe('STANDARD_IA');
    expect(copy.lastModified.getTime() - source.lastModified.getTime()).toBe(5000);
    expect(store.getObject(BUCKET, 'src')).toBe(source);
  });

  it('REPLACE takes the request metadata, default content type when absent', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'src', { body: text('abc'), metadata: { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } } });
    const copy = store.copyObject({
      sourceBucket: BUCKET,
      sourceKey: 'src',
      bucket: BUCKET,
      key: 'dst',
      directive: 'REPLACE',
      metadata: { standard: { 'cache-control': 'max-age=60' }, custom: { B: '2' } },
    });
    expect(copy.metadata).toEqual({ standard: { 'cache-control': 'max-age=60', 'content-type': 'application/octet-stream' }, custom: { b: '2' } });
  });

  it('self-copy: REPLACE edits metadata, a class change alone is allowed, plain COPY is invalid_request', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'self', { body: text('abc'), metadata: { standard: {}, custom: { id: 'old' } } });
    const edited = store.copyObject({
      sourceBucket: BUCKET,
      sourceKey: 'self',
      bucket: BUCKET,
      key: 'self',
      directive: 'REPLACE',
      metadata: { standard: { 'cache-control': 'no-store' }, custom: { id: 'new' } },
    });
    expect(store.getObject(BUCKET, 'self')).toBe(edited);
    expect(edited.metadata.custom).toEqual({ id: 'new' });
    expect(edited.storageClass).toBe('STANDARD');
    const moved = store.copyObject({ sourceBucket: BUCKET, sourceKey: 'self', bucket: BUCKET, key: 'self', storageClass: 'STANDARD_IA' });
    expect(moved.storageClass).toBe('STANDARD_IA');
    expect(moved.metadata.custom).toEqual({ id: 'new' });
    expect(codeOf(() => store.copyObject({ sourceBucket: BUCKET, sourceKey: 'self', bucket: BUCKET, key: 'self' }))).toBe('invalid_request');
    expect(
      codeOf(() => store.copyObject({ sourceBucket: BUCKET, sourceKey: 'self', bucket: BUCKET, key: 'self', storageClass: 'STANDARD_IA' })),
    ).toBe('invalid_request');
    expect(store.getBucketStatistics(BUCKET).count).toBe(1);
  });

  it('missing source or destination bucket ⇒ 404 codes; precondition runs before writing', async () => {
    const store = await storeWithBucket();
    store.putObject(BUCKET, 'src', { body: text('abc') });
    expect(codeOf(() => store.copyObject({ sourceBucket: BUCKET, sourceKey: 'none', bucket: BUCKET, key: 'd' }))).toBe('object_not_exists');
    expect(codeOf(() => store.copyObject({ sourceBucket: 'nothere', sourceKey: 'src', bucket: BUCKET, key: 'd' }))).toBe('bucket_not_exists');
    expect(codeOf(() => store.copyObject({ sourceBucket: BUCKET, sourceKey: 'src', bucket: 'nothere', key: 'd' }))).toBe('bucket_not_exists');
    let seenEtag: string | null = '';
    const failing = () =>
      store.copyObject({
        sourceBucket: BUCKET,
        sourceKey: 'src',
        bucket: BUCKET,
        key: 'd',
        precondition: (source) => {
          seenEtag = source.etag;
          throw new QsError('precondition_failed');
        },
      });
    expect(codeOf(failing)).toBe('precondition_failed');
    expect(seenEtag).toBe(MD5_ABC);
    expect(store.findObject(BUCKET, 'd')).toBeUndefined();
  });
});

describe('move (ref §5.3)', () => {
  it('renames with metadata, etag and times kept; the source disappears', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    const source = store.putObject(BUCKET, 'old', { body: text('abc'), metadata: { standard: { 'content-type': 'text/plain' }, custom: { k: 'v' } } });
    clock.advance(3000);
    const moved = store.moveObject({ sourceBucket: BUCKET, sourceKey: 'old', bucket: BUCKET, key: 'new' });
    expect(moved).toMatchObject({ key: 'new', etag: MD5_ABC, contentType: 'text/plain', lastModified: source.lastModified });
    expect(moved.metadata).toBe(source.metadata);
    expect(store.findObject(BUCKET, 'old')).toBeUndefined();
    expect(store.getBucketStatistics(BUCKET).count).toBe(1);
  });

  it('onto itself is a no-op; missing source ⇒ object_not_exists', async () => {
    const store = await storeWithBucket();
    const source = store.putObject(BUCKET, 'same', { body: text('abc') });
    expect(store.moveObject({ sourceBucket: BUCKET, sourceKey: 'same', bucket: BUCKET, key: 'same' })).toBe(source);
    expect(store.getObject(BUCKET, 'same')).toBe(source);
    expect(codeOf(() => store.moveObject({ sourceBucket: BUCKET, sourceKey: 'none', bucket: BUCKET, key: 'x' }))).toBe('object_not_exists');
  });

  it('moves an appendable object across buckets and it stays appendable with a correct etag', async () => {
    const store = await storeWithBucket();
    store.createBucket({ name: 'other-bucket', zone: 'pek3a', ownerId: 'usr-x' });
    store.appendObject(BUCKET, 'log', { position: 0, body: text('ab') });
    store.moveObject({ sourceBucket: BUCKET, sourceKey: 'log', bucket: 'other-bucket', key: 'log2' });
    const result = store.appendObject('other-bucket', 'log2', { position: 2, body: text('c') });
    expect(result.object.etag).toBe(MD5_ABC);
  });
});

describe('append (ref §5.8)', () => {
  it('creates with position 0, extends at the current size, keeps first-append metadata, etag = md5 of all', async () => {
    const clock = testClock();
    const store = await storeWithBucket({ now: clock.now });
    const first = store.appendObject(BUCKET, 'log', {
      position: 0,
      body: text('a'),
      metadata: { standard: { 'content-type': 'text/plain' }, custom: {} },
      storageClass: 'STANDARD_IA',
    });
    expect(first.nextPosition).toBe(1);
    expect(first.object.appendable).toBe(true);
    clock.advance(2000);
    const chunk = text('bc');
    const second = store.appendObject(BUCKET, 'log', {
      position: 1,
      body: chunk,
      metadata: { standard: { 'content-type': 'image/png' }, custom: {} },
      storageClass: 'STANDARD',
    });
    expect(second.nextPosition).toBe(3);
    expect(second.object.etag).toBe(MD5_ABC);
    expect(second.object.contentType).toBe('text/plain');
    expect(second.object.storageClass).toBe('STANDARD_IA');
    expect(second.object.created).toEqual(first.object.created);
    expect(second.object.lastModified.getTime() - first.object.lastModified.getTime()).toBe(2000);
    expect(second.object.body.chunks[1]).toBe(chunk);
    expect(str(bodyToBytes(second.object.body))).toBe('abc');
  });

  it('rejects wrong positions, non-appendable objects and bad Content-MD5', async () => {
    const store = await storeWithBucket();
    expect(codeOf(() => store.appendObject(BUCKET, 'log', { position: 1, body: text('a') }))).toBe('invalid_argument');
    store.appendObject(BUCKET, 'log', { position: 0, body: text('abc') });
    expect(codeOf(() => store.appendObject(BUCKET, 'log', { position: 2, body: text('a') }))).toBe('invalid_argument');
    expect(codeOf(() => store.appendObject(BUCKET, 'log', { position: 0, body: text('a') }))).toBe('invalid_argument');
    expect(codeOf(() => store.appendObject(BUCKET, 'log', { position: 3, body: text('d'), contentMd5: hexToBase64(MD5_ABC) }))).toBe('bad_digest');
    expect(store.getObject(BUCKET, 'log').size).toBe(3);
    store.putObject(BUCKET, 'plain', { body: text('x') });
    expect(codeOf(() => store.appendObject(BUCKET, 'plain', { position: 1, body: text('y') }))).toBe('invalid_object_state');
    // overwriting an appendable object with PUT makes it a normal object
    store.putObject(BUCKET, 'log', { body: text('x') });
    expect(codeOf(() => store.appendObject(BUCKET, 'log', { position: 1, body: text('y') }))).toBe('invalid_object_state');
  });

  it('a copy of an appendable object is a normal object', async () => {
    const store = await storeWithBucket();
    store.appendObject(BUCKET, 'log', { position: 0, body: text('abc') });
    const copy = store.copyObject({ sourceBucket: BUCKET, sourceKey: 'log', bucket: BUCKET, key: 'snapshot' });
    expect(copy.appendable).toBe(false);
    expect(copy.etag).toBe(MD5_ABC);
  });
});
