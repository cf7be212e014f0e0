// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { ensureLocale, initialLocale, isMessageKey, LOCALE_STORAGE_KEY, translate } from './i18n.tsx';
import { zhCN } from './zh-cn.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogs', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it('use the same placeholders in every message and leave none empty', () => {
    for (const key of Object.keys(en)) {
      if (!isMessageKey(key)) throw new Error(key);
      expect({ key, placeholders: placeholders(zhCN[key]) }).toEqual({ key, placeholders: placeholders(en[key]) });
      expect({ key, empty: en[key].trim() === '' || zhCN[key].trim() === '' }).toEqual({ key, empty: false });
    }
  });
});

describe('translate', () => {
  it('falls back to English until a catalog is loaded', async () => {
    expect(translate('zh-CN', 'buckets.title')).toBe('Buckets');
    await ensureLocale('zh-CN');
    expect(translate('zh-CN', 'buckets.title')).toBe('存储空间');
  });

  it('fills placeholders, formats numbers per locale and keeps markup in parameters literal', () => {
    expect(translate('en', 'browser.loaded', { count: 100000 })).toBe('100,000 items loaded');
    expect(translate('zh-CN', 'browser.loaded', { count: 3 })).toBe('已加载 3 项');
    expect(translate('en', 'browser.emptyFilter', { filter: '<img src=x onerror=alert(1)>' })).toBe(
      'No objects start with “<img src=x onerror=alert(1)>”.',
    );
  });

  it('leaves an unknown placeholder visible instead of inventing text', () => {
    expect(translate('en', 'browser.loaded', {})).toBe('{count} items loaded');
  });
});

describe('initialLocale', () => {
  it('prefers the remembered choice over the browser language', () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'zh-CN');
    expect(initialLocale()).toBe('zh-CN');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'klingon');
    expect(initialLocale()).toBe('en');
    localStorage.removeItem(LOCALE_STORAGE_KEY);
  });
});
