import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CATALOGUE_ORIGIN, SHOT_LOCALES, SHOT_SIZES, SHOTS_DIR } from './support/shots.ts';

// The design system's catalogue, from the dev server (development builds only): every component in the light
// and the dark scheme side by side, in English and in Chinese, at both widths.
for (const locale of SHOT_LOCALES) {
  for (const size of SHOT_SIZES) {
    test(`component catalogue at ${size.name} px, ${locale}`, async ({ browser }) => {
      // The dev server compiles the catalogue on its first request: slow on a loaded machine.
      test.setTimeout(240_000);
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, locale });
      await context.addInitScript((chosen) => window.localStorage.setItem('qsc.locale', chosen), locale);
      try {
        const page = await context.newPage();
        await page.goto(`${CATALOGUE_ORIGIN}/_catalogue`);
        await expect(page.getByRole('heading', { level: 1, name: locale === 'en' ? 'Component catalogue' : '组件目录' })).toBeVisible({ timeout: 60_000 });
        await expect(page.locator('[data-scheme="dark"] .data-table').first()).toBeVisible();
        if (size.width >= 960) await expect(page.locator('#bucket-sidebar nav').getByRole('link').first()).toBeVisible();
        // The shell scrolls inside its content area, so a full-page picture would stop at the viewport: the
        // viewport grows to the catalogue's height instead.
        const height = await page.locator('#main').evaluate((main) => main.scrollHeight + main.getBoundingClientRect().top);
        await page.setViewportSize({ width: size.width, height: Math.ceil(height) });
        const suffix = locale === 'en' ? '' : '-zh';
        await page.screenshot({ path: join(SHOTS_DIR, `catalogue-${size.name}${suffix}.png`) });
      } finally {
        await context.close();
      }
    });
  }
}
