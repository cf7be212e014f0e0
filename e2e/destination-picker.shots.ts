import { expect, test } from '@playwright/test';
import { SHOT_SCHEMES, SHOT_SIZES, takeShot } from './support/shots.ts';

// The copy dialog's destination picker (the bucket list of every zone, then a bucket's folders), written
// into e2e/screenshots/ by `npx playwright test -c playwright.screenshots.config.ts` with the main screens.

for (const size of SHOT_SIZES) {
  for (const scheme of SHOT_SCHEMES) {
    test(`destination picker at ${size.name} px, ${scheme}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });
      const page = await context.newPage();
      const shot = async (name: string) => takeShot(page, name, size, scheme);

      await page.goto('/buckets/pek3a/demo-documents?prefix=reports/');
      const grid = page.getByRole('grid', { name: /Objects in demo-documents\/reports\// });
      await expect(grid).toBeVisible();
      await grid.getByRole('button', { name: 'Actions for readme.md' }).click();
      await page.getByRole('menuitem', { name: 'Copy…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Copy reports/readme.md' });
      await dialog.getByRole('button', { name: 'Browse…' }).click();
      const picker = dialog.getByRole('region', { name: 'Choose the destination folder' });
      await picker.getByRole('button', { name: 'All buckets' }).click();
      await expect(picker.getByRole('list', { name: 'Buckets' }).getByRole('button', { name: /^demo-archive/ })).toBeVisible();
      await shot('copy-picker-buckets');
      await picker.getByRole('list', { name: 'Buckets' }).getByRole('button', { name: /^demo-photos/ }).click();
      await picker.getByRole('list', { name: 'Folders in demo-photos/' }).getByRole('button', { name: 'albums/' }).click();
      await expect(picker.getByRole('list', { name: 'Folders in demo-photos/albums/' }).getByRole('button', { name: 'family/' })).toBeVisible();
      await shot('copy-picker-folders');
      await picker.getByRole('button', { name: 'Use demo-photos/albums/' }).click();
      await expect(dialog.getByTestId('final-destination')).toHaveText('Will be written to demo-photos/albums/readme-copy.md');
      await shot('copy-picker-chosen');
      await context.close();
    });
  }
}
