import { describe, expect, it } from 'vitest';
import { formatHttpDate } from './protocol/http-date.ts';
import {
  canonicalizedHeaders,
  canonicalizedResource,
  encodePolicy,
  hmacSha256Base64,
  presignUrl,
  signPolicy,
  signRequest,
  stringToSign,
  SUB_RESOURCES,
} from './signing.ts';

// Test vectors of ref §2.8. Secrets below are the published example values, not real credentials.
const GO_SECRET = 'ENV_SECRET_ACCESS_KEY';
const JS_SECRET = 'test_secret';
const EX = { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' };
const GO_DATE = 'Mon, 01 Jan 0001 00:00:00 GMT';

function resourceOf(url: string, bucketInHost?: string): string {
  const u = new URL(url);
  return canonicalizedResource({ rawPath: u.pathname, rawQuery: u.search.slice(1), bucketInHost });
}

describe('published SDK vectors (ref §2.8)', () => {
  it('JS-1: header signature with x-qs-date and unsorted x-qs headers', async () => {
    const headers = new Headers({
      'content-type': 'image/jpeg',
      'x-qs-date': 'Fri, 01 Nov 2019 07:40:08 GMT',
      'x-qs-z': 'test-z',
      'x-qs-a': 'test-a',
      'x-qs-a-abc': 'test-abc',
      'user-agent': 'ignored',
    });
    const resource = resourceOf('https://pek3a.qingstor.com/test_bucket/test_object.jpg?acl&upload_id=test_upload_id');
    const sts = stringToSign({ method: 'PUT', headers, resource });
    expect(sts).toBe(
      'PUT\n\nimage/jpeg\n\nx-qs-a:test-a\nx-qs-a-abc:test-abc\nx-qs-date:Fri, 01 Nov 2019 07:40:08 GMT\nx-qs-z:test-z\n/test_bucket/test_object.jpg?acl&upload_id=test_upload_id',
    );
    expect(await hmacSha256Base64(JS_SECRET, sts)).toBe('ZwavbCq3ylBMlU3fb5EFOabtNyUYWzqi2e0rQBTHkcM=');
  });

  it('JS-2: query signature (expires replaces the Date line, no content-type, no x-qs-date)', async () => {
    const headers = new Headers({ 'x-qs-z': 'test-z', 'x-qs-a': 'test-a', 'x-qs-a-abc': 'test-abc' });
    const url = new URL('https://pek3a.qingstor.com/test_bucket/test_object.jpg?acl&upload_id=test_upload_id');
    const sts = stringToSign({ method: 'PUT', headers, resource: resourceOf(url.href), expires: 1572592959 });
    expect(sts).toBe(
      'PUT\n\n\n1572592959\nx-qs-a:test-a\nx-qs-a-abc:test-abc\nx-qs-z:test-z\n/test_bucket/test_object.jpg?acl&upload_id=test_upload_id',
    );
    const expected = 'HjroQB6ac19fmFt/1rOMHMco0eJ17gGAGexLYD98u88=';
    expect(await hmacSha256Base64(JS_SECRET, sts)).toBe(expected);
    const signed = await presignUrl({
      method: 'PUT',
      url,
      credentials: { accessKeyId: 'test_key', secretAccessKey: JS_SECRET },
      expires: 1572592959,
      headers,
    });
    expect(signed.searchParams.get('signature')).toBe(expected);
    expect(signed.searchParams.get('access_key_id')).toBe('test_key');
    expect(signed.searchParams.get('expires')).toBe('1572592959');
  });

  const goUrl = 'https://qingstor.com/?acl&upload_id=fde133b5f6d932cd9c79bac3c7318da1&part_number=0&other=abc';
  const goResource = '/?acl&part_number=0&upload_id=fde133b5f6d932cd9c79bac3c7318da1';

  it('GO-1: Date header, non-sub-resource parameter ignored, sub-resources sorted', async () => {
    const headers = new Headers({ Date: GO_DATE, 'X-QS-Test-2': 'Test 2', 'X-QS-Test-1': 'Test 1' });
    expect(resourceOf(goUrl)).toBe(goResource);
    const sts = stringToSign({ method: 'GET', headers, resource: resourceOf(goUrl) });
    expect(sts).toBe(`GET\n\n\n${GO_DATE}\nx-qs-test-1:Test 1\nx-qs-test-2:Test 2\n${goResource}`);
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe('bvglZF9iMOv1RaCTxPYWxexmt1UN2m5WKngYnhDEp2c=');
  });

  it('GO-2: X-QS-Date present ⇒ empty Date line and x-qs-date signed as a header', async () => {
    const headers = new Headers({
      Date: GO_DATE,
      'X-QS-Date': GO_DATE,
      'X-QS-Test-2': 'Test 2',
      'X-QS-Test-1': 'Test 1',
    });
    const sts = stringToSign({ method: 'GET', headers, resource: resourceOf(goUrl) });
    expect(sts).toBe(`GET\n\n\n\nx-qs-date:${GO_DATE}\nx-qs-test-1:Test 1\nx-qs-test-2:Test 2\n${goResource}`);
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe('qkY+tOMdqfDAVv+ZBtlWeEBxlbyIKaQmj5lQlylENzo=');
  });

  it('GO-3: non-ASCII key is signed percent-encoded, no x-qs headers ⇒ no blank line', async () => {
    const url = new URL('https://qingstor.com/bucket-name/中文');
    expect(url.pathname).toBe('/bucket-name/%E4%B8%AD%E6%96%87');
    const sts = stringToSign({ method: 'GET', headers: new Headers({ Date: GO_DATE }), resource: resourceOf(url.href) });
    expect(sts).toBe(`GET\n\n\n${GO_DATE}\n/bucket-name/%E4%B8%AD%E6%96%87`);
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe('XsTXX50kzqBf92zLG1aIUIJmZ0hqIHoaHgkumwnV3fs=');
  });

  it('GO-4: query signature with expires=3600', async () => {
    const headers = new Headers({ 'X-QS-Test-2': 'Test 2', 'X-QS-Test-1': 'Test 1' });
    const sts = stringToSign({ method: 'GET', headers, resource: resourceOf(goUrl), expires: 3600 });
    expect(sts).toBe(`GET\n\n\n3600\nx-qs-test-1:Test 1\nx-qs-test-2:Test 2\n${goResource}`);
    const expected = 'GRL3p3NOgHR9CQygASvyo344vdnO1hFke6ZvQ5mDVHM=';
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe(expected);
    const signed = await presignUrl({
      method: 'GET',
      url: new URL(goUrl),
      credentials: { accessKeyId: 'ENV_ACCESS_KEY_ID', secretAccessKey: GO_SECRET },
      expires: 3600,
      headers,
    });
    expect(signed.searchParams.get('signature')).toBe(expected);
    // The pre-existing parameters are kept verbatim in front of the auth parameters.
    expect(signed.search).toBe(
      `?acl&upload_id=fde133b5f6d932cd9c79bac3c7318da1&part_number=0&other=abc&access_key_id=ENV_ACCESS_KEY_ID&expires=3600&signature=${encodeURIComponent(expected)}`,
    );
  });

  it('GO-5: cname is a sub-resource (missing from the JS SDK list)', async () => {
    const headers = new Headers({ Date: GO_DATE, 'X-QS-Test-1': 'Test 1', 'X-QS-Test-2': 'Test 2' });
    const resource = resourceOf('https://qingstor.com/bucket-name?cname');
    expect(resource).toBe('/bucket-name?cname');
    const sts = stringToSign({ method: 'PUT', headers, resource });
    expect(sts).toBe(`PUT\n\n\n${GO_DATE}\nx-qs-test-1:Test 1\nx-qs-test-2:Test 2\n/bucket-name?cname`);
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe('Kqc4/+6T7zfSrUPgkvswHbtL4ESch9vOVQP0nPwlkBs=');
  });

  it('GO-6: virtual-host bucket-level request signs /<bucket>/', async () => {
    const resource = resourceOf('https://bucket-name.qingstor.com/?acl', 'bucket-name');
    expect(resource).toBe('/bucket-name/?acl');
    const sts = stringToSign({ method: 'GET', headers: new Headers({ Date: GO_DATE }), resource });
    expect(sts).toBe(`GET\n\n\n${GO_DATE}\n/bucket-name/?acl`);
    expect(await hmacSha256Base64(GO_SECRET, sts)).toBe('y0rP8LnEGUiV/JcuCMHZC4OMRZNzKRw9w7AnqehJZW8=');
  });
});

describe('project vectors V1–V5 (ref §2.8)', () => {
  it('V1: browser-style PutObject through signRequest', async () => {
    const url = new URL('https://pek3a.qingstor.com/mybucket/photos/2024/%E4%B8%AD%E6%96%87%20file.jpg');
    const headers = new Headers({
      'Content-MD5': 'XrY7u+Ae7tCTyyK7j1rNww==',
      'Content-Type': 'image/jpeg',
      'X-QS-Meta-Author': '  Alice',
      'x-qs-storage-class': 'STANDARD_IA',
    });
    const sts =
      'PUT\nXrY7u+Ae7tCTyyK7j1rNww==\nimage/jpeg\n\nx-qs-date:Wed, 10 Dec 2014 17:20:31 GMT\nx-qs-meta-author:Alice\nx-qs-storage-class:STANDARD_IA\n/mybucket/photos/2024/%E4%B8%AD%E6%96%87%20file.jpg';
    await signRequest({ method: 'put', url, headers, credentials: EX, now: new Date(Date.UTC(2014, 11, 10, 17, 20, 31)) });
    expect(headers.get('x-qs-date')).toBe('Wed, 10 Dec 2014 17:20:31 GMT');
    expect(stringToSign({ method: 'PUT', headers, resource: resourceOf(url.href) })).toBe(sts);
    expect(headers.get('authorization')).toBe(
      'QS EXAMPLEACCESSKEYID01:ZZpy5+X2cmZdJrsX5OUyTshuv4CdbeMZoj+LWfI63sk=',
    );
  });

  it('V2: virtual-host UploadMultipart with Date only: no blank line; the JS-SDK blank-line signature differs', async () => {
    const url = 'https://mybucket.pek3a.qingstor.com/large-object.bin?upload_id=4d26b37a469230619604ecdc0e314782&part_number=3';
    const headers = new Headers({ Date: 'Sun, 16 Aug 2015 13:25:10 GMT', 'Content-Type': 'application/octet-stream' });
    const sts = stringToSign({ method: 'PUT', headers, resource: resourceOf(url, 'mybucket') });
    expect(sts).toBe(
      'PUT\n\napplication/octet-stream\nSun, 16 Aug 2015 13:25:10 GMT\n/mybucket/large-object.bin?part_number=3&upload_id=4d26b37a469230619604ecdc0e314782',
    );
    const signature = await hmacSha256Base64(EX.secretAccessKey, sts);
    expect(signature).toBe('t211tJISiIhUuLdUn96nb1JY7hIpNkTNIq3W9jpL4zY=');
    // ref §2.7: the JS SDK joins an empty header block with "\n", signing an extra blank line.
    const jsQuirk = sts.replace('GMT\n/mybucket', 'GMT\n\n/mybucket');
    expect(await hmacSha256Base64(EX.secretAccessKey, jsQuirk)).toBe('oDa8RpoutVy5LCW6KhEukRnEIlzeZiKwaAQlDZ0N+Qo=');
    expect(signature).not.toBe('oDa8RpoutVy5LCW6KhEukRnEIlzeZiKwaAQlDZ0N+Qo=');
  });

  it('V3: pre-signed virtual-host GET with a decoded response-content-disposition value', async () => {
    const url = new URL(
      'https://mybucket.pek3a.qingstor.com/docs/report.pdf?response-content-disposition=attachment%3B%20filename%3D%22report.pdf%22',
    );
    const resource = resourceOf(url.href, 'mybucket');
    expect(stringToSign({ method: 'GET', headers: new Headers(), resource, expires: 1735689600 })).toBe(
      'GET\n\n\n1735689600\n/mybucket/docs/report.pdf?response-content-disposition=attachment; filename="report.pdf"',
    );
    const signed = await presignUrl({ method: 'GET', url, bucketInHost: 'mybucket', credentials: EX, expires: 1735689600 });
    expect(signed.href).toBe(
      'https://mybucket.pek3a.qingstor.com/docs/report.pdf?response-content-disposition=attachment%3B%20filename%3D%22report.pdf%22&access_key_id=EXAMPLEACCESSKEYID01&expires=1735689600&signature=tf%2Bf6r0u9AZWYkV2y6QAV2z5BnfKCRIXLQoVYtc%2F1rA%3D',
    );
    expect(signed.searchParams.get('signature')).toBe('tf+f6r0u9AZWYkV2y6QAV2z5BnfKCRIXLQoVYtc/1rA=');
  });

  it('V4: listing parameters are not signed; the addressing style changes the resource', async () => {
    const now = new Date(Date.UTC(2024, 0, 1));
    const vhost = new URL('https://mybucket.pek3a.qingstor.com/?delimiter=%2F&limit=100&prefix=photos%2F');
    const vhostHeaders = new Headers();
    await signRequest({ method: 'GET', url: vhost, headers: vhostHeaders, bucketInHost: 'mybucket', credentials: EX, now });
    expect(stringToSign({ method: 'GET', headers: vhostHeaders, resource: resourceOf(vhost.href, 'mybucket') })).toBe(
      'GET\n\n\n\nx-qs-date:Mon, 01 Jan 2024 00:00:00 GMT\n/mybucket/',
    );
    expect(vhostHeaders.get('authorization')).toBe('QS EXAMPLEACCESSKEYID01:2DNkIeIigJnohGXzM9X41BFfvIAvOUfd8J1Ba3anAc4=');

    const path = new URL('https://pek3a.qingstor.com/mybucket?delimiter=%2F&limit=100&prefix=photos%2F');
    const pathHeaders = new Headers();
    await signRequest({ method: 'GET', url: path, headers: pathHeaders, credentials: EX, now });
    expect(stringToSign({ method: 'GET', headers: pathHeaders, resource: resourceOf(path.href) })).toBe(
      'GET\n\n\n\nx-qs-date:Mon, 01 Jan 2024 00:00:00 GMT\n/mybucket',
    );
    expect(pathHeaders.get('authorization')).toBe('QS EXAMPLEACCESSKEYID01:/rxtjH6LNUJCjXREZyUj84aE4gbY3++uaxBsBbf0g9o=');
  });

  it('V5: PostObject policy signature over the base64 text', async () => {
    const policyB64 =
      'eyJrZXkiOiAidXNlci90b20vJHtmaWxlbmFtZX0iLCAicmVkaXJlY3QiOiAiaHR0cDovL2V4YW1wbGUuY29tL2NhbGxiYWNrIn0=';
    expect(atob(policyB64)).toBe('{"key": "user/tom/${filename}", "redirect": "http://example.com/callback"}');
    expect(await signPolicy(policyB64, EX.secretAccessKey)).toBe('Pjbhe+s2s1NBz+XyduiFxWfo3A/6LLUcBuirALHG8cs=');
  });
});

describe('building blocks', () => {
  it('uses the GO v4 sub-resource list, including append/position and versioning names', () => {
    for (const name of ['append', 'position', 'cname', 'image', 'logging', 'replication', 'versioning', 'version_id', 'versions']) {
      expect(SUB_RESOURCES.has(name)).toBe(true);
    }
    expect(SUB_RESOURCES.size).toBe(26);
    expect(SUB_RESOURCES.has('prefix')).toBe(false);
    expect(SUB_RESOURCES.has('signature')).toBe(false);
  });

  it('signs AppendObject sub-resources and never the three query-auth parameters', () => {
    expect(
      canonicalizedResource({
        rawPath: '/b/log.txt',
        rawQuery: 'position=10&append&access_key_id=AK&expires=5&signature=abc%3D',
      }),
    ).toBe('/b/log.txt?append&position=10');
  });

  it('treats empty values as bare names, decodes values (with + as space) and keeps the raw path', () => {
    expect(
      canonicalizedResource({ rawPath: '/b/a%2Fb%20c+d', rawQuery: 'acl=&response-content-type=text%2Fplain+x&uploads' }),
    ).toBe('/b/a%2Fb%20c+d?acl&response-content-type=text/plain x&uploads');
    expect(canonicalizedResource({ rawPath: '', rawQuery: '' })).toBe('/');
    expect(canonicalizedResource({ rawPath: '', rawQuery: '', bucketInHost: 'bk' })).toBe('/bk/');
    // A malformed escape is signed verbatim instead of throwing.
    expect(canonicalizedResource({ rawPath: '/b', rawQuery: 'response-expires=%E4%ZZ' })).toBe('/b?response-expires=%E4%ZZ');
  });

  it('canonicalizes headers: lower-case sorted names, trimmed values, inner spaces kept, repeats comma-joined', () => {
    const h = new Headers([
      ['X-QS-Meta-B', ' two  words '],
      ['x-qs-meta-a', '1'],
      ['X-QS-META-A', '2'],
      ['Content-Type', 'text/plain'],
    ]);
    expect(canonicalizedHeaders(h)).toBe('x-qs-meta-a:1, 2\nx-qs-meta-b:two  words\n');
    expect(canonicalizedHeaders(new Headers({ Date: 'x' }))).toBe('');
  });

  it('formats RFC 1123 dates', () => {
    expect(formatHttpDate(new Date(Date.UTC(2014, 11, 10, 17, 20, 31, 999)))).toBe('Wed, 10 Dec 2014 17:20:31 GMT');
  });

  it('presignUrl replaces stale auth parameters and signs the given headers', async () => {
    const url = new URL('https://pek3a.qingstor.com/b/k?signature=old&access_key_id=OLD&expires=1&upload_id=u1');
    const headers = new Headers({ 'content-type': 'text/plain', 'x-qs-meta-a': 'b' });
    const signed = await presignUrl({ method: 'PUT', url, credentials: EX, expires: 2000000000, headers });
    expect(signed.search.startsWith('?upload_id=u1&access_key_id=EXAMPLEACCESSKEYID01&expires=2000000000&signature=')).toBe(true);
    const sts = 'PUT\n\ntext/plain\n2000000000\nx-qs-meta-a:b\n/b/k?upload_id=u1';
    expect(signed.searchParams.get('signature')).toBe(await hmacSha256Base64(EX.secretAccessKey, sts));
    expect(url.search).toBe('?signature=old&access_key_id=OLD&expires=1&upload_id=u1');
    await expect(presignUrl({ method: 'GET', url, credentials: EX, expires: 1.5 })).rejects.toThrow(RangeError);
  });

  it('encodes policies as base64 of UTF-8 JSON, including non-ASCII text', () => {
    const policy = { key: '照片/🌍 ${filename}', 'x-qs-meta-note': 'שלום "q"' };
    const encoded = encodePolicy(policy);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    expect(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))).toEqual(policy);
  });

  it('HMAC keys and messages are UTF-8', async () => {
    // Independent check with Node's crypto of a non-ASCII secret and message.
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', 'sëcret✓').update('GET\n/桶/🌍').digest('base64');
    expect(await hmacSha256Base64('sëcret✓', 'GET\n/桶/🌍')).toBe(expected);
  });
});
