import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Where the screenshot files go (committed, shown in README), and the sizes and schemes every screen is taken at. */
export const SHOTS_DIR = join(import.meta.dirname, '..', 'screenshots');
export const SHOT_SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
export const SHOT_SCHEMES = ['light', 'dark'] as const;

/** Width from which the bucket sidebar is shown at start (the shell's 60rem media query). */
const SIDEBAR_MIN_WIDTH = 960;

/**
 * Takes `name` once the screen has settled: the first rows can paint before the sidebar's bucket list and
 * the lazily loaded toolbar controls arrive, and a picture of that moment is not the screen a user looks at.
 * So it waits for the sidebar's buckets (where the sidebar is shown) and for the page's requests to finish.
 */
export async function takeShot(page: Page, name: string, size: (typeof SHOT_SIZES)[number], scheme: (typeof SHOT_SCHEMES)[number], options: { fullPage?: boolean } = {}): Promise<void> {
  if (size.width >= SIDEBAR_MIN_WIDTH) {
    await expect(page.getByRole('navigation', { name: 'Buckets by zone' }).getByRole('link').first()).toBeVisible();
  }
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(SHOTS_DIR, `${name}-${size.name}-${scheme}.png`), ...options });
}

/** What a screenshot test gets: a page of its own at one size and scheme, and `shot(name)` to take a picture. */
export interface ShotContext {
  page: Page;
  shot: (name: string, options?: { fullPage?: boolean }) => Promise<void>;
}

/** One test per size and scheme (`<title> at 1280 px, dark`), each in a browser context of its own. */
export function shotTests(title: string, body: (context: ShotContext) => Promise<void>): void {
  for (const size of SHOT_SIZES) {
    for (const scheme of SHOT_SCHEMES) {
      test(`${title} at ${size.name} px, ${scheme}`, async ({ browser }) => {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });
        try {
          const page = await context.newPage();
          await body({ page, shot: (name, options) => takeShot(page, name, size, scheme, options) });
        } finally {
          await context.close();
        }
      });
    }
  }
}
