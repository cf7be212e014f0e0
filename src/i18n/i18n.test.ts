// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { allEnglish as en } from './all-english.ts';
import { ensureLocale, initialLocale, isMessageKey, LOCALE_STORAGE_KEY, translate, translatePlural } from './i18n.tsx';
import { zhCN } from './zh-cn.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** One term per concept: the words a catalog must not use for a concept it already names otherwise. */
const OTHER_NAMES: Record<'en' | 'zh-CN', ReadonlyArray<[concept: string, avoid: RegExp]>> = {
  en: [
    ['in-progress uploads', /\b(unfinished|incomplete) (multipart )?uploads?\b/i],
    ['the bucket list (crumb)', /\bAll buckets\b/],
  ],
  'zh-CN': [
    ['进行中的上传', /未完成的(分段)?上传/],
    ['存储空间（面包屑）', /全部存储空间/],
  ],
};

describe('catalogs', () => {
  it('use one term per concept', () => {
    for (const [concept, avoid] of OTHER_NAMES.en) expect({ concept, found: Object.values(en).filter((text) => avoid.test(text)) }).toEqual({ concept, found: [] });
    for (const [concept, avoid] of OTHER_NAMES['zh-CN']) expect({ concept, found: Object.values(zhCN).filter((text) => avoid.test(text)) }).toEqual({ concept, found: [] });
  });

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
    expect(translate('en', 'browser.loaded.other', { count: 100000, size: '1 KiB' })).toBe('100,000 items loaded · 1 KiB');
    expect(translate('zh-CN', 'browser.loaded.other', { count: 3, size: '1 KiB' })).toBe('已加载 3 项 · 1 KiB');
    expect(translate('en', 'browser.emptyFilter', { filter: '<img src=x onerror=alert(1)>' })).toBe(
      'No objects start with “<img src=x onerror=alert(1)>”.',
    );
  });

  it('leaves an unknown placeholder visible instead of inventing text', () => {
    expect(translate('en', 'browser.loaded.other', {})).toBe('{count} items loaded · {size}');
  });

  it('chooses the plural form with Intl.PluralRules', () => {
    expect(translatePlural('en', 'browser.loaded', 1, { size: '5 B' })).toBe('1 item loaded · 5 B');
    expect(translatePlural('en', 'browser.loaded', 0, { size: '0 B' })).toBe('0 items loaded · 0 B');
    expect(translatePlural('en', 'browser.loaded', 2, { size: '5 B' })).toBe('2 items loaded · 5 B');
    expect(translatePlural('en', 'shell.uploadsIndicator', 1, { percent: 40 })).toBe('1 upload running, 40% — show uploads');
    expect(translatePlural('zh-CN', 'browser.loaded', 1, { size: '5 B' })).toBe('已加载 1 项 · 5 B');
    // Selections and bulk actions of one object read as one object.
    expect(translatePlural('en', 'metadata.bulk.open', 1)).toBe('Edit metadata of 1 object');
    expect(translatePlural('en', 'metadata.bulk.open', 2)).toBe('Edit metadata of 2 objects');
    // Counts of parts, pages and buckets: "1 page", never "1 pages".
    const totals = (parts: number, pages: number) =>
      translate('en', 'multipart.totalsText', { parts: translatePlural('en', 'multipart.partCount', parts), bytes: '1 B', exact: '1', pages: translatePlural('en', 'multipart.pagesPhrase', pages) });
    expect(totals(1, 1)).toBe('1 part, 1 B (1 bytes) in total, counted over 1 page of up to 1,000 parts.');
    expect(totals(2500, 3)).toBe('2,500 parts, 1 B (1 bytes) in total, counted over 3 pages of up to 1,000 parts.');
    // The upload drawer: "Upload 1 file", "1 file ready", "1 of 1 file done".
    expect(translatePlural('en', 'uploads.start', 1)).toBe('Upload 1 file');
    expect(translatePlural('en', 'uploads.start', 4)).toBe('Upload 4 files');
    expect(translatePlural('en', 'uploads.staged', 1, { bytes: '64.0 MiB' })).toBe('1 file ready (64.0 MiB)');
    expect(translatePlural('en', 'uploads.totalsLine', 1, { sent: '1 B', total: '1 B', done: 1 })).toBe('1 B of 1 B · 1 of 1 file done');
    expect(translatePlural('zh-CN', 'uploads.start', 1)).toBe('上传 1 个文件');
    expect(translatePlural('en', 'connect.verdict.ok', 1)).toBe('Connected. 1 bucket visible.');
    expect(translatePlural('en', 'buckets.count', 1)).toBe('1 bucket');
    expect(translatePlural('en', 'multipart.complete', 1)).toBe('Complete with 1 part');
    expect(translatePlural('en', 'actions.deleteSelectedConfirm', 1)).toBe('Delete 1 object? This cannot be undone.');
    expect(translatePlural('en', 'actions.deletedCount', 1)).toBe('1 object deleted.');
    expect(translatePlural('zh-CN', 'metadata.bulk.open', 1)).toBe('编辑 1 个对象的元数据');
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
