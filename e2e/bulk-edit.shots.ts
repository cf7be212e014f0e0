import { moreAction } from './fixtures.ts';
import { expect, test } from '@playwright/test';
import { shotTests } from './support/shots.ts';

// The bulk metadata editor over a folder of the demo (its form, the dry run, a paused run, the results),
// written into e2e/screenshots/ by `npx playwright test -c playwright.screenshots.config.ts` with the main screens.

shotTests('bulk edit', async ({ page, shot }) => {
  test.setTimeout(180_000);

  await page.goto('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await expect(page.getByTestId('listing-status')).toBeVisible();
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of all objects in logs/2024/01/01/' });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText(/^\d+ objects in this folder/);
  await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
  await bulk.getByLabel('New value of Cache-Control').fill('public, max-age=86400');
  await bulk.getByRole('button', { name: 'Add key operation' }).click();
  await bulk.getByLabel('Key 1', { exact: true }).fill('retention');
  await bulk.getByLabel('Value 1', { exact: true }).fill('90 days');
  await shot('bulk-edit-form');

  await bulk.getByRole('button', { name: 'Preview changes' }).click();
  await expect(bulk.getByTestId('bulk-preview-summary')).toBeVisible({ timeout: 60_000 });
  await bulk.getByTestId('bulk-preview-summary').scrollIntoViewIfNeeded();
  await shot('bulk-edit-preview');

  await bulk.getByRole('button', { name: /^Apply to the \d+ objects that pass$/ }).click();
  await bulk.getByRole('button', { name: 'Pause' }).click();
  const results = bulk.getByTestId('bulk-results');
  await expect(results.locator('tr[data-status="running"]')).toHaveCount(0, { timeout: 30_000 });
  await shot('bulk-edit-paused');
  // Closing now would stop the run: the question says so.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog', { name: 'Stop the bulk edit?' })).toBeVisible();
  await shot('bulk-edit-stop-question');
  await page.getByRole('button', { name: 'Don’t stop' }).click();
  await bulk.getByRole('button', { name: 'Resume' }).click();
  await expect(bulk.getByTestId('bulk-summary')).toHaveText(/^(\d+) of \1 finished/, { timeout: 120_000 });
  await shot('bulk-edit-results');
});
