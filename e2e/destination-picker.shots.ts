import { expect } from '@playwright/test';
import { shotTests } from './support/shots.ts';

// The copy dialog's destination picker (the bucket list of every zone, then a bucket's folders), written
// into e2e/screenshots/ by `npx playwright test -c playwright.screenshots.config.ts` with the main screens.

shotTests('destination picker', async ({ page, shot }) => {

  await page.goto('/buckets/pek3a/demo-documents?prefix=reports/');
  const grid = page.getByRole('grid', { name: /Objects in demo-documents\/reports\// });
  await expect(grid).toBeVisible();
  await grid.getByRole('button', { name: 'Actions for readme.md' }).click();
  await page.getByRole('menuitem', { name: 'Copy…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy reports/readme.md' });
  await dialog.getByRole('button', { name: 'Browse…' }).click();
  const picker = dialog.getByRole('region', { name: 'Choose the destination folder' });
  await picker.getByRole('button', { name: 'Buckets', exact: true }).click();
  await expect(picker.getByRole('list', { name: 'Buckets' }).getByRole('button', { name: /^demo-archive/ })).toBeVisible();
  await shot('copy-picker-buckets');
  await picker.getByRole('list', { name: 'Buckets' }).getByRole('button', { name: /^demo-photos/ }).click();
  await picker.getByRole('list', { name: 'Folders in demo-photos/' }).getByRole('button', { name: 'albums/' }).click();
  await expect(picker.getByRole('list', { name: 'Folders in demo-photos/albums/' }).getByRole('button', { name: 'family/' })).toBeVisible();
  await shot('copy-picker-folders');
  await picker.getByRole('button', { name: 'Use demo-photos/albums/' }).click();
  await expect(dialog.getByTestId('final-destination')).toHaveText('Will be written to demo-photos/albums/readme-copy.md');
  await shot('copy-picker-chosen');
});
