import { describe, expect, it } from 'vitest';
import { QsError } from '../errors.ts';
import { isEmulatorHost, resolveAddress, type HostOptions } from './address.ts';

const opts: HostOptions = { domains: ['qingstor.com', 'qingstor.local'], defaultZone: 'pek3a', acceptAnyHost: false };
const resolve = (url: string, o: HostOptions = opts) => resolveAddress(new URL(url), o);

describe('resolveAddress (ref §1.1, §1.3)', () => {
  it('recognises the global host, zone hosts and virtual hosts of every domain', () => {
    expect(resolve('https://qingstor.com/')).toMatchObject({ hostKind: 'global', level: 'service', zone: undefined });
    expect(resolve('https://pek3a.qingstor.com/')).toMatchObject({ hostKind: 'zone', level: 'service', zone: 'pek3a' });
    expect(resolve('http://SH1A.QingStor.Local:9000/b1')).toMatchObject({ hostKind: 'zone', level: 'bucket', zone: 'sh1a', bucket: 'b1' });
    expect(resolve('https://mybucket.pek3a.qingstor.com/')).toMatchObject({ hostKind: 'vhost', level: 'bucket', bucket: 'mybucket', bucketInHost: 'mybucket' });
    expect(resolve('https://mybucket.pek3a.qingstor.com/a/b.txt')).toMatchObject({ level: 'object', bucket: 'mybucket', key: 'a/b.txt' });
  });

  it('keeps the raw path for signing and percent-decodes the key', () => {
    const a = resolve('https://pek3a.qingstor.com/mybucket/photos/%E4%B8%AD%E6%96%87%20file.jpg?acl&x=1');
    expect(a).toMatchObject({ rawPath: '/mybucket/photos/%E4%B8%AD%E6%96%87%20file.jpg', rawQuery: 'acl&x=1', key: 'photos/中文 file.jpg' });
    expect(resolve('https://pek3a.qingstor.com/b/a%2Fb')).toMatchObject({ key: 'a/b' });
    expect(resolve('https://pek3a.qingstor.com/b/a+b')).toMatchObject({ key: 'a+b' });
    expect(resolve('https://pek3a.qingstor.com/b//x')).toMatchObject({ key: '/x' });
  });

  it('treats /<bucket>/ with an empty key as the bucket', () => {
    expect(resolve('https://pek3a.qingstor.com/mybucket/')).toMatchObject({ level: 'bucket', bucket: 'mybucket' });
  });

  it('rejects undecodable keys with invalid_object_name', () => {
    expect(() => resolve('https://pek3a.qingstor.com/b/%E4%B8')).toThrow(QsError);
    expect(() => resolve('https://pek3a.qingstor.com/b/%E4%B8')).toThrow(expect.objectContaining({ code: 'invalid_object_name' }));
  });

  it('ignores other hosts unless acceptAnyHost, which makes them path style in defaultZone', () => {
    expect(resolve('http://127.0.0.1:9000/b/k')).toBeNull();
    expect(isEmulatorHost(new URL('https://example.com/'), opts)).toBe(false);
    expect(isEmulatorHost(new URL('https://a.b.c.qingstor.com/'), opts)).toBe(false);
    const any = { ...opts, acceptAnyHost: true };
    expect(resolve('http://127.0.0.1:9000/b/k', any)).toMatchObject({ hostKind: 'other', zone: 'pek3a', level: 'object', bucket: 'b', key: 'k', bucketInHost: undefined });
    expect(resolve('http://localhost:9000/', any)).toMatchObject({ hostKind: 'other', level: 'service' });
  });
});
