import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey } from './en.ts';
import { zhCN } from './zh-cn.ts';

export type { MessageKey } from './en.ts';
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export type MessageParams = Readonly<Record<string, string | number>>;

const CATALOGS: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };
export const LOCALE_STORAGE_KEY = 'qsc.locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

/**
 * Fills `{name}` placeholders. The result is a plain string that React renders as text, so a parameter
 * holding markup (an object key such as `<img onerror=…>`) can never become HTML.
 */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = CATALOGS[locale][key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(locale, value) : value;
  });
}

export function formatNumber(locale: Locale, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `long` keeps seconds (details); `short` fits a list column. Formatters are cached: lists call this per row. */
export function formatDateTime(locale: Locale, date: Date, style: 'long' | 'short' = 'long'): string {
  if (Number.isNaN(date.getTime())) return '—';
  const id = `${locale}|${style}`;
  let format = dateFormats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: style === 'long' ? 'medium' : 'short' });
    dateFormats.set(id, format);
  }
  return format.format(date);
}

/** Stored choice first, then the browser's preference; Chinese variants map to zh-CN. */
export function initialLocale(): Locale {
  try {
    const stored = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    if (isLocale(stored)) return stored;
  } catch {
    // Storage can be disabled (privacy mode); the browser preference still applies.
  }
  const preferred = globalThis.navigator?.languages ?? [];
  for (const language of preferred) {
    if (/^zh\b/i.test(language)) return 'zh-CN';
    if (/^en\b/i.test(language)) return 'en';
  }
  return 'en';
}

export interface I18n {
  locale: Locale;
  setLocale(locale: Locale): void;
  t(key: MessageKey, params?: MessageParams): string;
  formatNumber(value: number): string;
  formatDateTime(date: Date, style?: 'long' | 'short'): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => fixed ?? initialLocale());

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, next);
    } catch {
      // Not remembered when storage is unavailable; the switch itself still works.
    }
  }, []);

  const value = useMemo<I18n>(
    () => ({
      locale,
      setLocale,
      t: (key, params) => translate(locale, key, params),
      formatNumber: (n) => formatNumber(locale, n),
      formatDateTime: (d, style) => formatDateTime(locale, d, style),
    }),
    [locale, setLocale],
  );
  return <I18nContext value={value}>{children}</I18nContext>;
}

export function useI18n(): I18n {
  const value = use(I18nContext);
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>');
  return value;
}
