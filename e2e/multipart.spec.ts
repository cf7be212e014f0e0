import { expect, expectNoAxeViolations, test, moreAction } from './fixtures.ts';
import { scrollPartsTableToEnd } from './support/parts-table.ts';

// The multipart inspector in demo mode. The seed (mocks/seed.ts) has, in sh1a/demo-uploads:
// videos/holiday-4k.mp4 with parts 1, 2, 5 (64 B each), backups/db-dump.sql with 2,500 parts of 16 B,
// and backups/empty-start.bin without parts. The demo emulator's minimum part size is 16 B.

test('the 2,500-part upload pages at limit 1000 in three pages, with totals and the part map', async ({ page }) => {
  await page.goto('/buckets/sh1a/demo-uploads');
  await moreAction(page, 'In-progress uploads');
  await expect(page.getByRole('heading', { level: 1, name: 'In-progress uploads in demo-uploads' })).toBeVisible();
  // The page header's crumbs, in the same words as every other page's: Buckets / bucket (zone) / this page.
  const crumbs = page.getByRole('navigation', { name: 'Location' });
  await expect(crumbs.getByRole('listitem')).toHaveText(['Buckets', 'demo-uploads (sh1a)', 'In-progress uploads']);
  await expect(crumbs.getByRole('link')).toHaveText(['Buckets', 'demo-uploads']);
  await expect(crumbs.getByText('In-progress uploads')).toHaveAttribute('aria-current', 'page');
  const list = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(list.getByRole('row')).toHaveCount(4);
  await expect(page.getByTestId('uploads-status')).toHaveText('3 uploads');

  // Prefix filter (URL-owned, so the filtered view is a deep link).
  await page.getByLabel('Filter by key prefix').fill('backups/');
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(page).toHaveURL(/prefix=backups\//);
  await expectNoAxeViolations(page);

  await list.getByRole('link', { name: 'backups/db-dump.sql' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'backups/db-dump.sql' })).toBeVisible();
  await expect(page.getByTestId('upload-id')).toHaveText(/^[0-9a-f]{32}$/);
  await expect(page.getByTestId('totals')).toHaveText('2,500 parts, 39.1 KiB (40,000 bytes) in total, counted over 3 pages of up to 1,000 parts.');
  await expect(page.getByTestId('part-map-summary')).toHaveText('2,500 parts present, numbers 1–2,500, no gaps.');
  await expect(page.getByTestId('part-map-zero-note')).toContainText('There is no part 0.');

  // axe on the default page of 100 parts; again below on a 1,000-part page scrolled to its end, in dark.
  await expectNoAxeViolations(page);

  // The page size is validated at the field (1..1000).
  await page.getByLabel('Parts per page (1–1000)').fill('1001');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Parts per page (1–1000)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a whole number from 1 to 1,000.')).toBeVisible();
  await page.getByLabel('Parts per page (1–1000)').fill('1000');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/limit=1000/);

  const table = page.getByRole('table', { name: 'Parts of this page' });
  const status = page.getByTestId('page-status');
  await expect(status).toHaveText('Page 1 of 3: 1,000 parts');
  await expect(table.getByRole('row').nth(1)).toContainText('1');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(status).toHaveText('Page 2 of 3: 1,000 parts');
  await expect(page).toHaveURL(/after=1000/);
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('1001');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(status).toHaveText('Page 3 of 3: 500 parts');
  await scrollPartsTableToEnd(page);
  await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('2500');
  // Only the rows in view are in the DOM (the page holds 500); the spacer rows are hidden from axe's tree.
  expect(await table.locator('tbody tr:not([aria-hidden])').count()).toBeLessThan(100);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(status).toHaveText('Page 2 of 3: 1,000 parts');
  // Back/forward work: the page is in the URL.
  await page.goBack();
  await expect(status).toHaveText('Page 3 of 3: 500 parts');
  await page.getByRole('button', { name: 'First page' }).click();
  await expect(status).toHaveText('Page 1 of 3: 1,000 parts');
});

test('gaps are shown in words, Complete follows the minimum part size, and completing makes the object', async ({ page }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  await page.getByRole('link', { name: 'videos/holiday-4k.mp4' }).click();
  await expect(page.getByTestId('totals')).toContainText('3 parts, 192 B');
  await expect(page.getByTestId('part-map-summary')).toHaveText('3 parts present, numbers 1–5. Missing (2): 3–4.');

  // Against real QingStor (4 MiB minimum) these 64-byte parts could not be completed.
  await page.getByLabel('Smallest part size allowed').selectOption({ label: '4 MiB (QingStor)' });
  await expect(page.getByTestId('complete-verdict')).toHaveText('Cannot complete: parts 1–2 are smaller than 4.0 MiB and are not the last part.');
  await expect(page.getByRole('button', { name: 'Complete with 3 parts' })).toBeDisabled();
  await page.getByLabel('Smallest part size allowed').selectOption({ label: '16 B (demo emulator)' });
  await page.getByRole('button', { name: 'Complete with 3 parts' }).click();
  await expect(page.getByText('The upload was completed: object videos/holiday-4k.mp4 now exists.')).toBeVisible();
  await page.getByRole('link', { name: 'Open the object' }).click();
  const details = page.getByRole('complementary', { name: 'Object details' });
  await expect(details).toContainText('192');
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details).toContainText('QingCam X100');
});

test('abort asks for confirmation, deletes the upload, and a stale link says it is gone in plain words', async ({ page }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  await page.getByRole('link', { name: 'backups/empty-start.bin' }).click();
  await expect(page.getByTestId('part-map-summary')).toHaveText('No parts have been uploaded yet.');
  const uploadUrl = page.url();
  await page.getByRole('button', { name: 'Abort upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort this upload?' });
  await expect(dialog).toContainText('This cannot be undone');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Abort upload…' }).click();
  // A typed confirmation, as for the other irreversible actions: it starts on the input, and a near miss
  // leaves the button disabled.
  const typed = dialog.getByLabel('Type abort to confirm');
  const confirm = dialog.getByRole('button', { name: 'Abort and delete the parts' });
  await expect(typed).toBeFocused();
  await expect(confirm).toBeDisabled();
  await typed.fill('Abort');
  await expect(confirm).toBeDisabled();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await typed.fill('abort');
  await expect(confirm).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The upload of backups/empty-start.bin was aborted and its parts were deleted.')).toBeVisible();
  await page.getByRole('link', { name: 'All in-progress uploads' }).click();
  await expect(page.getByRole('link', { name: 'backups/empty-start.bin' })).toHaveCount(0);
  await expect(page.getByTestId('uploads-status')).toHaveText('2 uploads');

  // The old deep link (in-app navigation: a reload would restart the demo backend).
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, uploadUrl);
  const gone = page.getByTestId('upload-gone').first();
  await expect(gone).toContainText('This upload no longer exists');
  await expect(gone).toContainText('completed or aborted somewhere else');
  await expect(gone).toContainText('upload_not_exists');
  await expectNoAxeViolations(page);
});

test('a link to an upload with an empty key shows the bucket’s uploads, not an error', async ({ page }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads?key=&upload=not-an-upload');
  await expect(page.getByRole('heading', { level: 1, name: 'In-progress uploads in demo-uploads' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Uploads not yet completed' }).getByRole('link', { name: 'backups/db-dump.sql' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
