import { describe, expect, it } from 'vitest';
import { ensureLocale, translate } from '../i18n/i18n.tsx';
import { pageTitle } from './page-title.ts';

const t = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('en', key, params);

describe('pageTitle', () => {
  it('names the folder being browsed', () => {
    expect(pageTitle({ pathname: '/buckets/pek3a/demo-documents', search: '?prefix=reports/' }, t)).toBe('demo-documents/reports — QingStor Console');
    expect(pageTitle({ pathname: '/buckets/pek3a/demo-documents', search: '' }, t)).toBe('demo-documents — QingStor Console');
  });
  it('names the open object, decoded', () => {
    expect(pageTitle({ pathname: '/buckets/pek3a/demo-documents', search: '?prefix=a/&object=a/b%20c.txt' }, t)).toBe('demo-documents/a/b c.txt — QingStor Console');
  });
  it('names the other views', () => {
    expect(pageTitle({ pathname: '/', search: '' }, t)).toBe('Buckets — QingStor Console');
    expect(pageTitle({ pathname: '/connect', search: '' }, t)).toBe('Connect — QingStor Console');
    expect(pageTitle({ pathname: '/buckets/pek3a/demo-photos/uploads', search: '' }, t)).toBe('Multipart uploads in demo-photos — QingStor Console');
    expect(pageTitle({ pathname: '/nowhere/at/all/x', search: '' }, t)).toBe('Not found — QingStor Console');
  });
  it('is in Chinese in Chinese', async () => {
    await ensureLocale('zh-CN');
    expect(pageTitle({ pathname: '/', search: '' }, (k, p) => translate('zh-CN', k, p))).toBe('存储空间 — QingStor 控制台');
  });
});
