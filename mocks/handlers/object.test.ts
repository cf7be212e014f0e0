import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator.ts';
import { formatHttpDate } from '../../src/api/protocol/http-date.ts';
import { createBucket, encodeKeyPath, errorOf, md5Base64, md5Hex, OWNER, putText, READER, send, STRANGER, testEmulator, WRITER } from './test-utils.ts';

let em: Emulator;
beforeEach(async () => {
  em = await testEmulator();
  await createBucket(em, 'obj-bucket');
});

describe('PutObject (ref §5.1)', () => {
  it('stores the body and answers 201 with the quoted MD5 ETag and no body', async () => {
    const r = await putText(em, 'obj-bucket', 'hello.txt', 'hello world', { 'content-md5': md5Base64('hello world') });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('hello world')}"`);
    expect(r.headers.get('content-length')).toBe('0');
    expect(await r.text()).toBe('');
    const get = await send(em, 'GET', '/obj-bucket/hello.txt');
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('hello world');
  });

  it('refuses a wrong Content-MD5 with bad_digest and writes nothing', async () => {
    const r = await putText(em, 'obj-bucket', 'bad.txt', 'hello', { 'content-md5': md5Base64('other') });
    expect(await errorOf(r)).toMatchObject({ status: 400, code: 'bad_digest', requestIdMatches: true });
    expect(em.store.findObject('obj-bucket', 'bad.txt')).toBeUndefined();
  });

  it('refuses a body shorter than its Content-Length with incomplete_body', async () => {
    const r = await send(em, 'PUT', '/obj-bucket/short', { body: new Uint8Array([1, 2, 3]), headers: { 'content-length': '10' } });
    expect(await errorOf(r)).toMatchObject({ status: 400, code: 'incomplete_body' });
    expect(em.store.findObject('obj-bucket', 'short')).toBeUndefined();
  });

  it('refuses unknown storage classes and overlong keys, accepts 1023-byte keys', async () => {
    expect(await errorOf(await putText(em, 'obj-bucket', 'x', 'x', { 'x-qs-storage-class': 'GLACIER' }))).toMatchObject({ status: 400, code: 'invalid_request' });
    const k1023 = '界'.repeat(341);
    expect((await putText(em, 'obj-bucket', k1023, 'x')).status).toBe(201);
    expect(await errorOf(await putText(em, 'obj-bucket', `${k1023}a`, 'x'))).toMatchObject({ status: 400, code: 'invalid_object_name' });
  });

  it('treats the percent-decoded path as the key: a%2Fb and a/b are the same object', async () => {
    await send(em, 'PUT', '/obj-bucket/dir%2Ffile.txt', { body: new TextEncoder().encode('one') });
    const get = await send(em, 'GET', '/obj-bucket/dir/file.txt');
    expect(await get.text()).toBe('one');
    expect(em.store.findObject('obj-bucket', 'dir/file.txt')).toBeDefined();
  });

  it('round-trips hostile keys in both URL styles', async () => {
    const keys = ['报告/年度.txt', '한국어.txt', 'عربي.txt', 'עברית.txt', '😀🎉.txt', `"q" 'q' ""''.txt`, '<img src=x onerror=alert(1)>', ",./;'[]\\-=", '<>?:"{}|_+', ' !@#$%^&*()`~', 'a+b c'];
    for (const key of keys) {
      expect((await putText(em, 'obj-bucket', key, key)).status).toBe(201);
      const vhost = await send(em, 'GET', `https://obj-bucket.pek3a.qingstor.com/${encodeKeyPath(key)}`);
      expect(vhost.status).toBe(200);
      expect(await vhost.text()).toBe(key);
    }
  });

  it('needs WRITE; anonymous writes only on public-write buckets', async () => {
    em.store.putBucketAcl('obj-bucket', [{ grantee: { type: 'user', id: READER.id }, permission: 'READ' }]);
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/y', { as: READER, body: 'y' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/y', { as: 'anonymous', body: new Uint8Array([1]) }))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('obj-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }, { grantee: { type: 'user', id: WRITER.id }, permission: 'WRITE' }]);
    expect((await send(em, 'PUT', '/obj-bucket/y', { as: 'anonymous', body: new Uint8Array([1]) })).status).toBe(201);
    expect((await send(em, 'PUT', '/obj-bucket/z', { as: WRITER, body: new Uint8Array([1]) })).status).toBe(201);
    // Credentials are judged as that user, never as "everyone" (ref §10).
    expect((await send(em, 'PUT', '/obj-bucket/w', { as: STRANGER, body: new Uint8Array([1]) })).status).toBe(403);
  });

  it('answers 404 bucket_not_exists for a missing bucket before checking permission (ref §4)', async () => {
    expect(await errorOf(await send(em, 'PUT', '/missing-bkt/x', { as: 'anonymous', body: new Uint8Array([1]) }))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });
});

describe('metadata (ref §6)', () => {
  const put = (headers: Record<string, string>) => putText(em, 'obj-bucket', 'meta.txt', 'm', headers);

  it('stores the five standard headers and custom metadata, replays them on GET and HEAD', async () => {
    const headers = {
      'content-type': 'video/mp4; charset=utf8',
      'cache-control': 'no-cache',
      'content-disposition': 'attachment; filename="a.mp4"',
      'content-encoding': 'identity',
      expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
      'content-language': 'en',
      'X-QS-Meta-Author': 'Alice',
      'x-qs-meta-title': '=?UTF-8?B?5Lit5paH?=',
      'x-qs-meta-path': '%E4%B8%AD',
    };
    expect((await put(headers)).status).toBe(201);
    for (const method of ['GET', 'HEAD']) {
      const r = await send(em, method, '/obj-bucket/meta.txt');
      expect(r.headers.get('content-type')).toBe('video/mp4; charset=utf8');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-disposition')).toBe('attachment; filename="a.mp4"');
      expect(r.headers.get('content-encoding')).toBe('identity');
      expect(r.headers.get('expires')).toBe('Wed, 21 Oct 2037 07:28:00 GMT');
      expect(r.headers.get('content-language')).toBeNull();
      expect(r.headers.get('x-qs-meta-author')).toBe('Alice');
      expect(r.headers.get('x-qs-meta-title')).toBe('=?UTF-8?B?5Lit5paH?=');
      expect(r.headers.get('x-qs-meta-path')).toBe('%E4%B8%AD');
      expect(r.headers.get('content-length')).toBe('1');
      expect(r.headers.get('x-qs-storage-class')).toBe('STANDARD');
      expect(r.headers.get('last-modified')).toMatch(/GMT$/);
    }
    expect(await (await send(em, 'HEAD', '/obj-bucket/meta.txt')).text()).toBe('');
  });

  it('defaults Content-Type to application/octet-stream', async () => {
    await put({});
    expect((await send(em, 'HEAD', '/obj-bucket/meta.txt')).headers.get('content-type')).toBe('application/octet-stream');
  });

  it('accepts exactly 2048 bytes and a 512-byte key, refuses one more (metadata_too_large)', async () => {
    const k512 = 'k'.repeat(512);
    expect((await put({ [`x-qs-meta-${k512}`]: 'v' })).status).toBe(201);
    expect(await errorOf(await put({ [`x-qs-meta-${k512}k`]: 'v' }))).toMatchObject({ status: 400, code: 'metadata_too_large' });
    // total = Σ(len(key) + len(value)): key "a" (1) + 2047 value bytes = 2048
    expect((await put({ 'x-qs-meta-a': 'v'.repeat(2047) })).status).toBe(201);
    expect(await errorOf(await put({ 'x-qs-meta-a': 'v'.repeat(2048) }))).toMatchObject({ status: 400, code: 'metadata_too_large' });
  });

  it('refuses illegal key characters and non-printable values with invalid_argument, writing nothing', async () => {
    expect(await errorOf(await put({ 'x-qs-meta-bad~key': 'v' }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await put({ 'x-qs-meta-ok': 'tab\there' }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(em.store.findObject('obj-bucket', 'meta.txt')).toBeUndefined();
  });
});

describe('GetObject Range (ref §3)', () => {
  beforeEach(async () => {
    await putText(em, 'obj-bucket', 'digits', '0123456789');
  });
  const cases: Array<[string, number, string, string | null]> = [
    ['bytes=0-3', 206, '0123', 'bytes 0-3/10'],
    ['bytes=7-', 206, '789', 'bytes 7-9/10'],
    ['bytes=-4', 206, '6789', 'bytes 6-9/10'],
    ['bytes=-40', 206, '0123456789', 'bytes 0-9/10'],
    ['bytes=5-100', 206, '56789', 'bytes 5-9/10'],
    ['bytes=9-9', 206, '9', 'bytes 9-9/10'],
  ];
  for (const [range, status, body, contentRange] of cases) {
    it(`${range} ⇒ ${status}`, async () => {
      const r = await send(em, 'GET', '/obj-bucket/digits', { headers: { range } });
      expect(r.status).toBe(status);
      expect(r.headers.get('content-range')).toBe(contentRange);
      expect(r.headers.get('content-length')).toBe(String(body.length));
      expect(await r.text()).toBe(body);
    });
  }
  for (const range of ['bytes=10-', 'bytes=10-20', 'bytes=4-2', 'bytes=-0', 'bytes=0-1,3-4', 'items=0-1', 'bytes=-']) {
    it(`${range} ⇒ 416 invalid_range`, async () => {
      expect(await errorOf(await send(em, 'GET', '/obj-bucket/digits', { headers: { range } }))).toMatchObject({ status: 416, code: 'invalid_range' });
    });
  }
  it('HEAD with Range reports 206 and the range length without a body', async () => {
    const r = await send(em, 'HEAD', '/obj-bucket/digits', { headers: { range: 'bytes=2-4' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-length')).toBe('3');
    expect(await r.text()).toBe('');
  });
});

describe('conditional GET/HEAD (ref §5.4)', () => {
  let etag = '';
  let modified = new Date();
  beforeEach(async () => {
    const r = await putText(em, 'obj-bucket', 'cond', 'abc');
    etag = r.headers.get('etag') ?? '';
    modified = em.store.getObject('obj-bucket', 'cond').lastModified;
  });
  const earlier = () => formatHttpDate(new Date(modified.getTime() - 60_000));
  const later = () => formatHttpDate(new Date(modified.getTime() + 60_000));
  const same = () => formatHttpDate(modified);

  const matrix: Array<[string, () => Record<string, string>, number]> = [
    ['If-Match equal', () => ({ 'if-match': etag }), 200],
    ['If-Match bare etag', () => ({ 'if-match': etag.replaceAll('"', '') }), 200],
    ['If-Match *', () => ({ 'if-match': '*' }), 200],
    ['If-Match other', () => ({ 'if-match': '"0000"' }), 412],
    ['If-None-Match equal', () => ({ 'if-none-match': etag }), 304],
    ['If-None-Match weak equal', () => ({ 'if-none-match': `W/${etag}` }), 304],
    ['If-None-Match list', () => ({ 'if-none-match': `"x", ${etag}` }), 304],
    ['If-None-Match other', () => ({ 'if-none-match': '"0000"' }), 200],
    ['If-Modified-Since earlier', () => ({ 'if-modified-since': earlier() }), 200],
    ['If-Modified-Since same', () => ({ 'if-modified-since': same() }), 304],
    ['If-Modified-Since later', () => ({ 'if-modified-since': later() }), 304],
    ['If-Unmodified-Since earlier', () => ({ 'if-unmodified-since': earlier() }), 412],
    ['If-Unmodified-Since same', () => ({ 'if-unmodified-since': same() }), 200],
    ['If-Match wins over If-Unmodified-Since', () => ({ 'if-match': etag, 'if-unmodified-since': earlier() }), 200],
    ['If-None-Match wins over If-Modified-Since', () => ({ 'if-none-match': '"0000"', 'if-modified-since': later() }), 200],
    ['If-Match fails before If-None-Match', () => ({ 'if-match': '"0000"', 'if-none-match': etag }), 412],
    ['invalid date is ignored', () => ({ 'if-modified-since': 'yesterday' }), 200],
  ];
  for (const [name, headers, status] of matrix) {
    for (const method of ['GET', 'HEAD']) {
      it(`${method} ${name} ⇒ ${status}`, async () => {
        const r = await send(em, method, '/obj-bucket/cond', { headers: headers() });
        const text = await r.text();
        const observed = {
          status: r.status,
          etag: r.headers.get('etag'),
          lastModified: r.headers.get('last-modified'),
          body: text.startsWith('{') ? 'json' : text,
          code: text.startsWith('{') ? String(JSON.parse(text).code) : undefined,
        };
        const failed = status === 412;
        expect(observed).toEqual({
          status,
          // 304 keeps ETag and Last-Modified (ref §5.4); 412 is an error envelope.
          etag: failed ? null : etag,
          lastModified: failed ? null : same(),
          body: failed && method === 'GET' ? 'json' : status === 200 && method === 'GET' ? 'abc' : '',
          code: failed && method === 'GET' ? 'precondition_failed' : undefined,
        });
      });
    }
  }
});

describe('response-* overrides (ref §5.4)', () => {
  it('overrides response headers for signed requests and refuses them anonymously', async () => {
    await putText(em, 'obj-bucket', 'report.pdf', 'pdf', { 'content-type': 'application/pdf' });
    const disposition = `attachment; filename="report.pdf"`;
    const r = await send(em, 'GET', `/obj-bucket/report.pdf?response-content-disposition=${encodeURIComponent(disposition)}&response-content-type=text%2Fplain&response-cache-control=no-store&response-expires=0&response-content-language=zh-CN&response-content-encoding=identity`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(disposition);
    expect(r.headers.get('content-type')).toBe('text/plain');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('expires')).toBe('0');
    expect(r.headers.get('content-language')).toBe('zh-CN');
    expect(r.headers.get('content-encoding')).toBe('identity');
    em.store.putBucketAcl('obj-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]);
    expect((await send(em, 'GET', '/obj-bucket/report.pdf', { as: 'anonymous' })).status).toBe(200);
    expect(await errorOf(await send(em, 'GET', '/obj-bucket/report.pdf?response-content-type=text%2Fplain', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });
});

describe('GetObject/HeadObject/DeleteObject errors and deletes (ref §5.5, §5.6)', () => {
  it('404 object_not_exists for missing objects; delete is idempotent 204', async () => {
    expect(await errorOf(await send(em, 'GET', '/obj-bucket/nothing'))).toMatchObject({ status: 404, code: 'object_not_exists' });
    expect((await send(em, 'HEAD', '/obj-bucket/nothing')).status).toBe(404);
    await putText(em, 'obj-bucket', 'gone', 'x');
    expect((await send(em, 'DELETE', '/obj-bucket/gone')).status).toBe(204);
    expect((await send(em, 'DELETE', '/obj-bucket/gone')).status).toBe(204);
    expect(em.store.findObject('obj-bucket', 'gone')).toBeUndefined();
    expect(await errorOf(await send(em, 'DELETE', '/missing-bkt/gone'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });

  it('never lets anonymous callers delete, even on a public FULL_CONTROL bucket', async () => {
    await putText(em, 'obj-bucket', 'keep', 'x');
    em.store.putBucketAcl('obj-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'FULL_CONTROL' }]);
    expect(await errorOf(await send(em, 'DELETE', '/obj-bucket/keep', { as: 'anonymous' }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(em.store.findObject('obj-bucket', 'keep')).toBeDefined();
  });
});

describe('Copy (ref §5.2)', () => {
  beforeEach(async () => {
    await putText(em, 'obj-bucket', 'src/中文.txt', 'copy me', { 'content-type': 'text/plain', 'x-qs-meta-origin': 'source', 'cache-control': 'max-age=1' });
  });
  const source = '/obj-bucket/' + encodeURIComponent('src/中文.txt').replace('%2F', '/');

  it('copies with COPY by default: bytes, ETag, standard headers and custom metadata', async () => {
    const r = await send(em, 'PUT', '/obj-bucket/dst.txt', { headers: { 'x-qs-copy-source': source, 'x-qs-meta-ignored': 'x' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('copy me')}"`);
    const head = await send(em, 'HEAD', '/obj-bucket/dst.txt');
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect(head.headers.get('cache-control')).toBe('max-age=1');
    expect(head.headers.get('x-qs-meta-origin')).toBe('source');
    expect(head.headers.get('x-qs-meta-ignored')).toBeNull();
  });

  it('replaces metadata with REPLACE (case-insensitive) and validates it', async () => {
    const r = await send(em, 'PUT', '/obj-bucket/dst.txt', { headers: { 'x-qs-copy-source': source, 'x-qs-metadata-directive': 'rePlace', 'x-qs-meta-new': 'yes', 'content-type': 'text/markdown' } });
    expect(r.status).toBe(201);
    const head = await send(em, 'HEAD', '/obj-bucket/dst.txt');
    expect(head.headers.get('x-qs-meta-new')).toBe('yes');
    expect(head.headers.get('x-qs-meta-origin')).toBeNull();
    expect(head.headers.get('content-type')).toBe('text/markdown');
    expect(head.headers.get('cache-control')).toBeNull();
    const tooBig = await send(em, 'PUT', '/obj-bucket/dst2.txt', { headers: { 'x-qs-copy-source': source, 'x-qs-metadata-directive': 'REPLACE', 'x-qs-meta-a': 'v'.repeat(2048) } });
    expect(await errorOf(tooBig)).toMatchObject({ status: 400, code: 'metadata_too_large' });
    expect(em.store.findObject('obj-bucket', 'dst2.txt')).toBeUndefined();
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/dst3.txt', { headers: { 'x-qs-copy-source': source, 'x-qs-metadata-directive': 'MERGE' } }))).toMatchObject({ status: 400, code: 'invalid_argument' });
  });

  it('REPLACE takes metadata of exactly 2048 bytes and a 512-byte key; one byte more or a bad key is refused and writes nothing', async () => {
    const replace = (meta: Record<string, string>, key = 'edge.txt') =>
      send(em, 'PUT', `/obj-bucket/${key}`, { headers: { 'x-qs-copy-source': source, 'x-qs-metadata-directive': 'REPLACE', ...meta } });
    expect((await replace({ 'x-qs-meta-a': 'v'.repeat(2047) })).status).toBe(201);
    expect((await send(em, 'HEAD', '/obj-bucket/edge.txt')).headers.get('x-qs-meta-a')).toBe('v'.repeat(2047));
    expect((await replace({ [`x-qs-meta-${'k'.repeat(512)}`]: '' }, 'edge512.txt')).status).toBe(201);
    for (const [meta, code] of [
      [{ 'x-qs-meta-a': 'v'.repeat(2048) }, 'metadata_too_large'],
      [{ [`x-qs-meta-${'k'.repeat(513)}`]: '' }, 'metadata_too_large'],
      [{ 'x-qs-meta-a!b': 'v' }, 'invalid_argument'],
    ] as const) {
      expect(await errorOf(await replace(meta, 'edge-refused.txt'))).toMatchObject({ status: 400, code });
    }
    expect(em.store.findObject('obj-bucket', 'edge-refused.txt')).toBeUndefined();
  });

  it('edits metadata in place by self-copy with REPLACE; self-copy without it is invalid_request', async () => {
    const self = { 'x-qs-copy-source': source };
    expect(await errorOf(await send(em, 'PUT', source, { headers: self }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((await send(em, 'PUT', source, { headers: { ...self, 'x-qs-metadata-directive': 'replace', 'x-qs-meta-id': '42' } })).status).toBe(201);
    expect((await send(em, 'HEAD', source)).headers.get('x-qs-meta-id')).toBe('42');
    expect((await send(em, 'PUT', source, { headers: { ...self, 'x-qs-storage-class': 'STANDARD_IA' } })).status).toBe(201);
    expect((await send(em, 'HEAD', source)).headers.get('x-qs-storage-class')).toBe('STANDARD_IA');
  });

  it('checks x-qs-copy-source-if-* (412) and reports missing sources (404) and bad formats (400)', async () => {
    const etag = `"${md5Hex('copy me')}"`;
    const h = (extra: Record<string, string>) => ({ headers: { 'x-qs-copy-source': source, ...extra } });
    expect((await send(em, 'PUT', '/obj-bucket/c1', h({ 'x-qs-copy-source-if-match': etag }))).status).toBe(201);
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c2', h({ 'x-qs-copy-source-if-match': '"nope"' })))).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c3', h({ 'x-qs-copy-source-if-none-match': etag })))).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c4', h({ 'x-qs-copy-source-if-modified-since': formatHttpDate(new Date(Date.now() + 3_600_000)) })))).toMatchObject({ status: 412 });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c5', h({ 'x-qs-copy-source-if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' })))).toMatchObject({ status: 412 });
    expect(em.store.findObject('obj-bucket', 'c2')).toBeUndefined();
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c6', { headers: { 'x-qs-copy-source': '/obj-bucket/none' } }))).toMatchObject({ status: 404, code: 'object_not_exists' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c7', { headers: { 'x-qs-copy-source': '/no-such-bucket/x' } }))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c8', { headers: { 'x-qs-copy-source': 'no-slash' } }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/c9', { headers: { 'x-qs-copy-source': source, 'x-qs-move-source': source } }))).toMatchObject({ status: 400, code: 'invalid_argument' });
  });

  it('needs READ on the source bucket and WRITE on the destination, within one zone', async () => {
    await createBucket(em, 'other-bucket', 'pek3a', WRITER);
    expect(await errorOf(await send(em, 'PUT', '/other-bucket/x', { as: WRITER, headers: { 'x-qs-copy-source': source } }))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('obj-bucket', [{ grantee: { type: 'user', id: WRITER.id }, permission: 'READ' }]);
    expect((await send(em, 'PUT', '/other-bucket/x', { as: WRITER, headers: { 'x-qs-copy-source': source } })).status).toBe(201);
    expect(await errorOf(await send(em, 'PUT', `/obj-bucket/back`, { as: WRITER, headers: { 'x-qs-copy-source': '/other-bucket/x' } }))).toMatchObject({ status: 403 });
    await createBucket(em, 'far-bucket', 'sh1a');
    expect(await errorOf(await send(em, 'PUT', 'https://sh1a.qingstor.com/far-bucket/x', { headers: { 'x-qs-copy-source': source } }))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });
});

describe('Move (ref §5.3)', () => {
  it('renames keeping metadata and ETag; the source disappears', async () => {
    await putText(em, 'obj-bucket', 'old name.txt', 'move me', { 'x-qs-meta-keep': 'me', 'content-type': 'text/plain' });
    const r = await send(em, 'PUT', '/obj-bucket/new%20name.txt', { headers: { 'x-qs-move-source': '/obj-bucket/old%20name.txt' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('move me')}"`);
    const head = await send(em, 'HEAD', '/obj-bucket/new%20name.txt');
    expect(head.headers.get('x-qs-meta-keep')).toBe('me');
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect((await send(em, 'HEAD', '/obj-bucket/old%20name.txt')).status).toBe(404);
  });

  it('checks x-qs-move-source-if-* and reports a missing source', async () => {
    await putText(em, 'obj-bucket', 'm', 'x');
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/n', { headers: { 'x-qs-move-source': '/obj-bucket/m', 'x-qs-move-source-if-match': '"bad"' } }))).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(em.store.findObject('obj-bucket', 'm')).toBeDefined();
    expect(await errorOf(await send(em, 'PUT', '/obj-bucket/n', { headers: { 'x-qs-move-source': '/obj-bucket/none' } }))).toMatchObject({ status: 404, code: 'object_not_exists' });
    expect((await send(em, 'PUT', '/obj-bucket/m', { headers: { 'x-qs-move-source': '/obj-bucket/m' } })).status).toBe(201);
  });
});

describe('AppendObject (ref §5.8)', () => {
  it('appends at the current size and reports the next position; HEAD shows the appendable type', async () => {
    const first = await send(em, 'POST', '/obj-bucket/log.txt?append&position=0', { body: new TextEncoder().encode('abc'), headers: { 'content-type': 'text/plain' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-qs-next-append-position')).toBe('3');
    const second = await send(em, 'POST', '/obj-bucket/log.txt?append&position=3', { body: new TextEncoder().encode('de'), headers: { 'content-md5': md5Base64('de') } });
    expect(second.headers.get('x-qs-next-append-position')).toBe('5');
    const head = await send(em, 'HEAD', '/obj-bucket/log.txt');
    expect(head.headers.get('x-qs-object-type')).toBe('appendable');
    expect(head.headers.get('x-qs-next-append-position')).toBe('5');
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect(await (await send(em, 'GET', '/obj-bucket/log.txt')).text()).toBe('abcde');
  });

  it('refuses a wrong position, a missing position, bad digests and plain objects', async () => {
    await send(em, 'POST', '/obj-bucket/log.txt?append&position=0', { body: new TextEncoder().encode('abc') });
    expect(await errorOf(await send(em, 'POST', '/obj-bucket/log.txt?append&position=1', { body: new TextEncoder().encode('x') }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await send(em, 'POST', '/obj-bucket/log.txt?append', { body: new TextEncoder().encode('x') }))).toMatchObject({ status: 400, code: 'invalid_argument' });
    expect(await errorOf(await send(em, 'POST', '/obj-bucket/log.txt?append&position=3', { body: new TextEncoder().encode('x'), headers: { 'content-md5': md5Base64('y') } }))).toMatchObject({ status: 400, code: 'bad_digest' });
    await putText(em, 'obj-bucket', 'plain', 'p');
    expect(await errorOf(await send(em, 'POST', '/obj-bucket/plain?append&position=1', { body: new TextEncoder().encode('x') }))).toMatchObject({ status: 400, code: 'invalid_object_state' });
  });
});

describe('owner name in listings comes from the users list', () => {
  it('uses the configured user name', async () => {
    const r = await send(em, 'GET', '/obj-bucket?acl');
    expect(await r.json()).toMatchObject({ owner: { id: OWNER.id, name: 'owner' } });
  });
});
