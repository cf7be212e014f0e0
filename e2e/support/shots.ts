import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Where the screenshot files go (committed, shown in README), and the sizes and schemes every screen is taken at. */
export const SHOTS_DIR = join(import.meta.dirname, '..', 'screenshots');
export const SHOT_SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
export const SHOT_SCHEMES = ['light', 'dark'] as const;
/** Languages: English pictures keep their names; Chinese ones end in `-zh` (a CJK font must be installed: fonts-noto-cjk). */
export const SHOT_LOCALES = ['en', 'zh-CN'] as const;
export type ShotLocale = (typeof SHOT_LOCALES)[number];

/** The dev server started beside the preview by playwright.screenshots.config.ts (the catalogue exists only there). */
export const CATALOGUE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4317) + 1}`;

function suffix(locale: ShotLocale): string {
  return locale === 'en' ? '' : '-zh';
}

/** Width from which the bucket sidebar is shown at start (the shell's 60rem media query). */
const SIDEBAR_MIN_WIDTH = 960;

/**
 * Takes `name` once the screen has settled: the first rows can paint before the sidebar's bucket list and
 * the lazily loaded toolbar controls arrive, and a picture of that moment is not the screen a user looks at.
 * So it waits for the sidebar's buckets (where the sidebar is shown) and for the page's requests to finish.
 */
export async function takeShot(page: Page, name: string, size: (typeof SHOT_SIZES)[number], scheme: (typeof SHOT_SCHEMES)[number], options: { fullPage?: boolean; locale?: ShotLocale; noSidebar?: boolean } = {}): Promise<void> {
  if (size.width >= SIDEBAR_MIN_WIDTH && !options.noSidebar) {
    await expect(page.locator('#bucket-sidebar nav').getByRole('link').first()).toBeVisible();
  }
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(SHOTS_DIR, `${name}-${size.name}-${scheme}${suffix(options.locale ?? 'en')}.png`), ...(options.fullPage ? { fullPage: true } : {}) });
}

/** What a screenshot test gets: a page of its own at one size and scheme, and `shot(name)` to take a picture. */
export interface ShotContext {
  page: Page;
  locale: ShotLocale;
  /** The words of the screen in the picture's language (journeys find elements by their English names). */
  say: (en: string, zh: string) => string;
  shot: (name: string, options?: { fullPage?: boolean; noSidebar?: boolean }) => Promise<void>;
}

/**
 * One test per size, scheme and language (`<title> at 1280 px, dark, zh-CN`), each in a browser context of its
 * own; the language is the console's remembered choice (localStorage), set before the first page loads.
 * `locales` (English unless given) lists the languages; a script that passes SHOT_LOCALES finds its elements with `say`.
 */
export function shotTests(title: string, body: (context: ShotContext) => Promise<void>, { locales = ['en'] }: { locales?: readonly ShotLocale[] } = {}): void {
  for (const locale of locales) {
    for (const size of SHOT_SIZES) {
      for (const scheme of SHOT_SCHEMES) {
        test(`${title} at ${size.name} px, ${scheme}${locale === 'en' ? '' : `, ${locale}`}`, async ({ browser }) => {
          const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme, locale });
          await context.addInitScript((chosen) => window.localStorage.setItem('qsc.locale', chosen), locale);
          try {
            const page = await context.newPage();
            const say = (en: string, zh: string) => (locale === 'en' ? en : zh);
            await body({ page, locale, say, shot: (name, options) => takeShot(page, name, size, scheme, { ...options, locale }) });
          } finally {
            await context.close();
          }
        });
      }
    }
  }
}
