import { describe, expect, it } from 'vitest';
import { DEMO_CONNECTION, connectionId, connectionSchema, parseConnection, type Connection } from './connection.ts';
import { UnaddressableKeyError, buildUrl, encodeKey, encodeQuery, encodeStrict, isIpHost } from './url.ts';

const qingstor: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a' };
const vhost: Connection = { ...qingstor, style: 'virtual-host' };
const emulator: Connection = { endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style: 'path', defaultZone: 'pek3a' };

describe('encodeKey (ref §1.3)', () => {
  it('encodes each segment, keeps "/", escapes !\'()* with uppercase hex', () => {
    expect(encodeKey("photos/2024/中文 file.jpg")).toBe('photos/2024/%E4%B8%AD%E6%96%87%20file.jpg');
    expect(encodeKey("('this is test',)")).toBe('%28%27this%20is%20test%27%2C%29');
    expect(encodeKey('a!b*c')).toBe('a%21b%2Ac');
    expect(encodeKey('a+b=c&d?e#f%g')).toBe('a%2Bb%3Dc%26d%3Fe%23f%25g');
    expect(encodeKey('dir/')).toBe('dir/');
    expect(encodeKey('a//b')).toBe('a//b');
    expect(encodeKey('emoji/😀')).toBe('emoji/%F0%9F%98%80');
    expect(encodeKey('back\\slash')).toBe('back%5Cslash');
  });

  it('keeps unreserved characters as they are', () => {
    expect(encodeKey('A-Z_a.z~0')).toBe('A-Z_a.z~0');
  });

  it('sends keys with dot segments as one segment so URL parsing cannot rewrite them', () => {
    expect(encodeKey('a/../b')).toBe('a%2F..%2Fb');
    expect(encodeKey('./x')).toBe('.%2Fx');
    const { url } = buildUrl({ connection: qingstor, bucket: 'mybucket', key: 'a/../b' });
    expect(url.pathname).toBe('/mybucket/a%2F..%2Fb');
    expect(() => encodeKey('..')).toThrow(UnaddressableKeyError);
    expect(() => encodeKey('.')).toThrow(UnaddressableKeyError);
  });

  it('round-trips through decodeURIComponent for every code point class', () => {
    const keys = ['plain', 'with space', '中文/日本語/한국어', 'עברית/عربي', '\u{1F600}/\u{1F9D1}\u200D\u{1F4BB}', '<img src=x onerror=alert(1)>', "quote'\"`"];
    for (const key of keys) {
      const path = buildUrl({ connection: qingstor, bucket: 'b-bucket', key }).url.pathname;
      expect(decodeURIComponent(path.slice('/b-bucket/'.length))).toBe(key);
    }
  });
});

describe('encodeQuery', () => {
  it('renders null as a bare sub-resource, skips undefined, percent-encodes names and values', () => {
    expect(encodeQuery({ acl: null })).toBe('acl');
    expect(encodeQuery({ uploads: null, prefix: 'a b/中', limit: 10, marker: undefined, delimiter: '/' }))
      .toBe('uploads&prefix=a%20b%2F%E4%B8%AD&limit=10&delimiter=%2F');
    expect(encodeQuery({ 'response-content-disposition': 'attachment; filename="r.pdf"' }))
      .toBe('response-content-disposition=attachment%3B%20filename%3D%22r.pdf%22');
    expect(encodeStrict("it's (x)*!")).toBe('it%27s%20%28x%29%2A%21');
  });
});

describe('buildUrl', () => {
  it('path style, zone in host: service, bucket and object level', () => {
    expect(buildUrl({ connection: qingstor, zone: null }).url.href).toBe('https://qingstor.com/');
    expect(buildUrl({ connection: qingstor }).url.href).toBe('https://pek3a.qingstor.com/');
    expect(buildUrl({ connection: qingstor, zone: 'sh1a', bucket: 'mybucket' }).url.href).toBe('https://sh1a.qingstor.com/mybucket');
    const object = buildUrl({ connection: qingstor, bucket: 'mybucket', key: 'photos/a.jpg', query: { acl: null } });
    expect(object.url.href).toBe('https://pek3a.qingstor.com/mybucket/photos/a.jpg?acl');
    expect(object.bucketInHost).toBeUndefined();
  });

  it('virtual-host style moves the bucket into the host and reports it for signing', () => {
    const bucket = buildUrl({ connection: vhost, bucket: 'mybucket', query: { prefix: 'photos/', delimiter: '/' } });
    expect(bucket.url.href).toBe('https://mybucket.pek3a.qingstor.com/?prefix=photos%2F&delimiter=%2F');
    expect(bucket.bucketInHost).toBe('mybucket');
    const object = buildUrl({ connection: vhost, bucket: 'mybucket', key: '中文.txt' });
    expect(object.url.href).toBe('https://mybucket.pek3a.qingstor.com/%E4%B8%AD%E6%96%87.txt');
    // Service level never gets a bucket label (ref §1.2).
    const service = buildUrl({ connection: vhost });
    expect(service.url.href).toBe('https://pek3a.qingstor.com/');
    expect(service.bucketInHost).toBeUndefined();
  });

  it('keeps the host for endpoints without zone labels and refuses virtual-host for IPs', () => {
    expect(buildUrl({ connection: emulator, zone: 'sh1a', bucket: 'b-one', key: 'k' }).url.href).toBe('http://127.0.0.1:9000/b-one/k');
    const ipVhost = buildUrl({ connection: { ...emulator, style: 'virtual-host' }, bucket: 'b-one', key: 'k' });
    expect(ipVhost.url.href).toBe('http://127.0.0.1:9000/b-one/k');
    expect(ipVhost.bucketInHost).toBeUndefined();
    const localVhost = buildUrl({ connection: { ...emulator, endpoint: 'http://localhost:9000', style: 'virtual-host' }, bucket: 'b-one', key: 'k' });
    expect(localVhost.url.href).toBe('http://b-one.localhost:9000/k');
    expect(localVhost.bucketInHost).toBe('b-one');
    expect(isIpHost('[::1]')).toBe(true);
    expect(isIpHost('10.0.0.1')).toBe(true);
    expect(isIpHost('qingstor.com')).toBe(false);
  });

  it('through the serve proxy: sends /_qs/<direct host><path>, signs the direct URL', () => {
    const built = buildUrl({ connection: { ...qingstor, style: 'virtual-host', proxy: 'http://localhost:8080/_qs' }, bucket: 'mybucket', key: 'a b', query: { acl: null } });
    expect(built.url.href).toBe('http://localhost:8080/_qs/mybucket.pek3a.qingstor.com/a%20b?acl');
    expect(built.signingUrl.href).toBe('https://mybucket.pek3a.qingstor.com/a%20b?acl');
    expect(built.bucketInHost).toBe('mybucket');
    const service = buildUrl({ connection: { ...emulator, proxy: 'http://localhost:8080/_qs/' }, zone: null });
    expect(service.url.href).toBe('http://localhost:8080/_qs/127.0.0.1:9000/');
  });
});

describe('connection', () => {
  it('validates endpoints, styles and zones', () => {
    expect(parseConnection(DEMO_CONNECTION)).toEqual(DEMO_CONNECTION);
    expect(connectionSchema.safeParse({ ...qingstor, endpoint: 'ftp://x' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, endpoint: 'https://x.com/?a=1' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, endpoint: 'https://x.com/path' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, proxy: '/_qs' }).success).toBe(true);
    expect(connectionSchema.safeParse({ ...qingstor, proxy: '//evil.example/_qs' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, style: 'vhost' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, defaultZone: 'PEK 3' }).success).toBe(false);
    expect(connectionSchema.safeParse({ ...qingstor, credentials: { accessKeyId: '', secretAccessKey: 's' } }).success).toBe(false);
  });

  it('derives an id without the secret that changes with endpoint, style and user', () => {
    const id = connectionId(DEMO_CONNECTION);
    expect(id).not.toContain(DEMO_CONNECTION.credentials?.secretAccessKey ?? 'unreachable');
    expect(id).toContain('QSDEMOACCESSKEYID0001');
    expect(connectionId({ ...DEMO_CONNECTION, style: 'virtual-host' })).not.toBe(id);
    expect(connectionId({ ...DEMO_CONNECTION, credentials: undefined })).not.toBe(id);
    expect(connectionId({ ...DEMO_CONNECTION, endpoint: 'https://qingstor.invalid/' })).toBe(id);
    expect(connectionId({ ...DEMO_CONNECTION, proxy: '/_qs' })).not.toBe(id);
  });
});
