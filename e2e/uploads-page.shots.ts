import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { SHOT_SCHEMES, SHOT_SIZES, SHOTS_DIR } from './support/shots.ts';

// The in-progress uploads page (demo data): the automatic clean-up rule and the uploads table with one
// upload selected, at 1280 and 390 px, light and dark.

for (const size of SHOT_SIZES) {
  for (const scheme of SHOT_SCHEMES) {
    test(`in-progress uploads at ${size.name} px, ${scheme}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto('/buckets/sh1a/demo-uploads/uploads');
      const table = page.getByRole('table', { name: 'Uploads not yet completed' });
      await expect(table.getByRole('row', { name: /db-dump\.sql/ })).toContainText('2,500 parts');
      await expect(page.getByTestId('auto-abort-state')).toBeVisible();
      await page.getByLabel('Select the upload of videos/holiday-4k.mp4').check();
      await page.screenshot({ path: join(SHOTS_DIR, `uploads-page-${size.name}-${scheme}.png`), fullPage: true });
      await context.close();
    });
  }
}
