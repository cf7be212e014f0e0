import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { MessageKey } from './message-key.ts';
import { englishMessage } from './registry.ts';
import { visibleText } from '../lib/visible-text.ts';

export type { MessageKey } from './message-key.ts';
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export type MessageParams = Readonly<Record<string, string | number>>;

export type Catalog = Readonly<Record<MessageKey, string>>;
export const LOCALE_STORAGE_KEY = 'qsc.locale';

/**
 * English ships in the entry chunk (the shell's messages, en.ts) and with each feature (its part,
 * src/i18n/parts/); other catalogs load whole on demand (every new string would otherwise count twice
 * against the initial-JS budget). main.tsx loads the starting locale before the first render.
 */
const loaded = new Map<Exclude<Locale, 'en'>, Catalog>();
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<Catalog>> = {
  'zh-CN': async () => (await import('./zh-cn.ts')).zhCN,
};

export function isLocaleLoaded(locale: Locale): boolean {
  return locale === 'en' || loaded.has(locale);
}

export async function ensureLocale(locale: Locale): Promise<void> {
  if (locale === 'en' || loaded.has(locale)) return;
  loaded.set(locale, await loaders[locale]());
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** A key of a loaded catalog: the English messages registered so far, or the whole Chinese catalog. */
export function isMessageKey(value: string): value is MessageKey {
  if (englishMessage(value) !== undefined) return true;
  for (const catalog of loaded.values()) if (Object.hasOwn(catalog, value)) return true;
  return false;
}

/**
 * Fills `{name}` placeholders. The result is a plain string that React renders as text, so a parameter
 * holding markup (an object key such as `<img onerror=…>`) can never become HTML. A string parameter is
 * shown with its invisible characters made visible (lib/visible-text.ts): parameters are names, prefixes
 * and server messages, and no message may show a bidi override or a hidden character raw.
 */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  // A catalog that is not loaded yet falls back to English; a message whose part has not been registered
  // (a module used a key without importing its part, which src/i18n/parts.test.ts forbids) shows its key.
  const catalog = locale === 'en' ? undefined : loaded.get(locale);
  const template = catalog?.[key] ?? englishMessage(key) ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(locale, value) : visibleText(value);
  });
}

/** Message keys that come in plural forms: `<base>.one` and `<base>.other` (English), `.other` alone (Chinese has one form). */
export type PluralBase = { [K in MessageKey]: K extends `${infer B}.other` ? B : never }[MessageKey];

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** Picks the catalog form for `count` with Intl.PluralRules, falling back to `.other`; `{count}` is filled in. */
export function translatePlural(locale: Locale, base: PluralBase, count: number, params?: MessageParams): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  const wanted = `${base}.${rules.select(count)}`;
  const key: MessageKey = isMessageKey(wanted) ? wanted : `${base}.other`;
  return translate(locale, key, { ...params, count });
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** One formatter per locale: building an Intl.NumberFormat costs ~50× more than using one, and lists call this per row. */
export function formatNumber(locale: Locale, value: number): string {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(value);
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
  /** A message with a count in the right plural form (`one`/`other` in English; one form in Chinese). */
  tp(base: PluralBase, count: number, params?: MessageParams): string;
  formatNumber(value: number): string;
  formatDateTime(date: Date, style?: 'long' | 'short'): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => {
    const wanted = fixed ?? initialLocale();
    return isLocaleLoaded(wanted) ? wanted : 'en';
  });

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, next);
    } catch {
      // Not remembered when storage is unavailable; the switch itself still works.
    }
    // If the catalog cannot load (offline), the console stays in the current language.
    ensureLocale(next).then(
      () => setLocaleState(next),
      () => undefined,
    );
  }, []);

  const value = useMemo<I18n>(
    () => ({
      locale,
      setLocale,
      t: (key, params) => translate(locale, key, params),
      tp: (base, count, params) => translatePlural(locale, base, count, params),
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
