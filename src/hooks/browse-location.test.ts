import { describe, expect, it } from 'vitest';
import { browseHref, connectHref, parentPrefix, readQueryParam, safeNextPath } from './browse-location.ts';

describe('browse URLs', () => {
  const hostile = [
    'a+b c.txt',
    '100%25 sure/%2F.txt',
    'q?x=1&y=2#frag',
    '<img src=x onerror=alert(1)>.html',
    '../../etc/passwd',
    '报告/2024年度总结.txt',
    'عربي/ملف.txt',
    'emoji/😀🎉🚀.txt',
    `"double" and 'single'`,
  ];

  it('round-trips any prefix, filter and object key through the query string', () => {
    for (const key of hostile) {
      const href = browseHref({ zone: 'pek3a', bucket: 'demo-docs', prefix: key, filter: key, object: key, flat: true });
      const url = new URL(href, 'http://console.test');
      expect(url.pathname).toBe('/buckets/pek3a/demo-docs');
      expect(url.hash).toBe('');
      expect(readQueryParam(url.search, 'prefix')).toBe(key);
      expect(readQueryParam(url.search, 'filter')).toBe(key);
      expect(readQueryParam(url.search, 'object')).toBe(key);
      expect(readQueryParam(url.search, 'flat')).toBe('1');
    }
  });

  it('keeps slashes readable and omits empty parameters', () => {
    expect(browseHref({ zone: 'pek3a', bucket: 'b-bucket', prefix: 'photos/2024/' })).toBe('/buckets/pek3a/b-bucket?prefix=photos/2024/');
    expect(browseHref({ zone: 'pek3a', bucket: 'b-bucket', prefix: '', object: null })).toBe('/buckets/pek3a/b-bucket');
  });

  it('reads "+" as a literal plus, unlike form encoding', () => {
    expect(readQueryParam('?prefix=a+b/', 'prefix')).toBe('a+b/');
    expect(readQueryParam('?prefix=%E4%B8%AD%', 'prefix')).toBe('%E4%B8%AD%');
  });
});

describe('connect and back', () => {
  it('returns to the deep link after connecting, and only to paths of this app', () => {
    const deep = browseHref({ zone: 'pek3a', bucket: 'b-bucket', prefix: 'a b/', object: 'a b/c&d.txt' });
    const connect = new URL(connectHref(deep), 'http://console.test');
    expect(connect.pathname).toBe('/connect');
    expect(safeNextPath(connect.search)).toBe(deep);
    expect(connectHref('/')).toBe('/connect');
    for (const bad of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      '/\\/evil.example',
      'javascript:alert(1)',
      '/\t/evil.example/',
      '/\n/evil.example/',
      '/%09/evil.example/',
      '//buckets/pek3a/b',
      '/buckets/../..//evil.example/buckets/pek3a',
      '/connect',
      '/no/such/screen',
      'buckets/pek3a/b',
    ]) {
      expect(safeNextPath(`?next=${encodeURIComponent(bad)}`)).toBeNull();
    }
    // The value as it arrives when the attacker does not encode it: `%09` is decoded to a tab.
    expect(safeNextPath('?next=/%09/evil.example/')).toBeNull();
    for (const good of ['/', '/buckets/pek3a/b-bucket', '/buckets/pek3a/b-bucket/uploads?upload=x', '/buckets/pek3a/b?prefix=a%2Fb/']) {
      expect(safeNextPath(`?next=${encodeURIComponent(good)}`)).toBe(good);
    }
  });
});

describe('parentPrefix', () => {
  it('goes up one folder', () => {
    expect(parentPrefix('a/b/c/')).toBe('a/b/');
    expect(parentPrefix('a/')).toBe('');
    expect(parentPrefix('')).toBe('');
    expect(parentPrefix('a//')).toBe('a/');
  });
});
