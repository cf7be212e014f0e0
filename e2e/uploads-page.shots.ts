import { expect } from '@playwright/test';
import { shotTests } from './support/shots.ts';

// The in-progress uploads page (demo data): the automatic clean-up rule and the uploads table with one
// upload selected, at 1280 and 390 px, light and dark.

shotTests('in-progress uploads', async ({ page, shot }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(table.getByRole('row', { name: /db-dump\.sql/ })).toContainText('2,500 parts');
  await expect(page.getByTestId('auto-abort-state')).toBeVisible();
  await page.getByLabel('Select the upload of videos/holiday-4k.mp4').check();
  await shot('uploads-page', { fullPage: true });
});

// One upload's parts inspector (the 2,500-part demo upload, 1,000 parts a page), its parts table scrolled by
// keyboard into the middle of the page: the rows in view, the header pinned.
shotTests('parts inspector', async ({ page, shot }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  await page.getByRole('link', { name: 'backups/db-dump.sql' }).click();
  await expect(page.getByTestId('totals')).toContainText('2,500 parts');
  await page.getByLabel('Parts per page (1–1000)').fill('1000');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('page-status')).toHaveText('Page 1 of 3: 1,000 parts');
  await page.getByLabel('Go to part').fill('480');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(page.locator('tr[aria-current="true"]')).toBeInViewport();
  await shot('parts-inspector');
});

// In-progress uploads across all buckets (demo data), reached from the sidebar's link.
shotTests('all buckets\' uploads', async ({ page, shot }) => {
  await page.goto('/uploads');
  await expect(page.getByTestId('uploads-status')).toHaveText('3 uploads in 1 bucket (of 5 buckets).');
  await expect(page.getByRole('row', { name: /db-dump\.sql/ })).toContainText('2,500 parts');
  await shot('all-uploads', { fullPage: true });
});
