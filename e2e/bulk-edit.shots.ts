import { moreAction, slowDemoAnswers } from './fixtures.ts';
import { expect, test } from '@playwright/test';
import { demoBackend } from './metadata-backend.ts';
import { shotTests } from './support/shots.ts';

// A bulk job over a folder of the demo: its form, the dry run, the job running and paused, finished with
// skipped and failed objects, its undo, the question when closing during the dry run, and the Jobs page;
// written into e2e/screenshots/ by `npx playwright test -c playwright.screenshots.config.ts`.

shotTests('bulk edit', async ({ page, shot }) => {
  test.setTimeout(300_000);
  // A network's pace: the demo answers in the page at once, and the dry run and the job are shot under way.
  await page.addInitScript(slowDemoAnswers, 15);
  const backend = await demoBackend(page);
  const prefix = 'reports-2024/';
  const keys = Array.from({ length: 300 }, (_, i) => `${prefix}${i % 3 === 0 ? 'q1/' : ''}report-${String(i).padStart(3, '0')}.csv`);
  for (let start = 0; start < keys.length; start += 20) {
    await Promise.all(keys.slice(start, start + 20).map((key, i) => backend.put(key, { standard: { 'content-type': 'text/csv' }, custom: { owner: 'finance', row: String(start + i) } })));
  }
  // One object already holds 2,035 bytes of metadata: with the new key it would pass 2,048, so the run skips it and says why.
  const big = keys[150] ?? '';
  await backend.put(big, { standard: { 'content-type': 'text/csv' }, custom: { notes: 'n'.repeat(2030) } });
  await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
  await expect(page.getByTestId('listing-status')).toBeVisible();

  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = page.getByRole('dialog', { name: `Edit metadata of all objects in ${prefix}` });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText('300 objects in this folder and its subfolders will be edited.');
  await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
  await bulk.getByLabel('New value of Cache-Control').fill('private, max-age=86400');
  await bulk.getByRole('button', { name: 'Add key operation' }).click();
  await bulk.getByLabel('Key 1', { exact: true }).fill('retention');
  await bulk.getByLabel('Value 1', { exact: true }).fill('7 years');
  await shot('bulk-edit-form');

  // Closing during the dry run asks first: it says that nothing was written.
  await bulk.getByRole('button', { name: 'Preview changes' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog', { name: 'Stop the preview?' })).toBeVisible();
  await shot('bulk-edit-stop-question');
  await page.getByRole('button', { name: 'Don’t stop' }).click();
  await expect(bulk.getByTestId('bulk-preview-summary')).toBeVisible({ timeout: 60_000 });
  await bulk.getByTestId('bulk-preview-summary').scrollIntoViewIfNeeded();
  await shot('bulk-edit-preview');

  await bulk.getByRole('button', { name: 'Apply to 300 objects' }).first().click();
  const phase = bulk.getByTestId('job-phase');
  // Paused at once: only the first objects in flight finish, so the two removed below are still ahead.
  await bulk.getByRole('button', { name: 'Pause' }).click();
  await expect(phase).toHaveText(/^Paused/, { timeout: 30_000 });
  await shot('bulk-edit-paused');
  // Two objects the job has listed (the first page: the q1/ folder sorts first) but not reached yet disappear:
  // they fail, with their code and request id.
  await backend.remove(keys[294] ?? '');
  await backend.remove(keys[297] ?? '');
  await bulk.getByRole('button', { name: 'Resume' }).click();
  await expect(phase).toContainText('objects/s', { timeout: 30_000 });
  await shot('bulk-edit-running');
  await expect(phase).toHaveText('Finished.', { timeout: 120_000 });
  await expect(bulk.getByTestId('job-problems').locator('tbody tr[data-status]')).toHaveCount(3);
  await shot('bulk-edit-results');

  await bulk.getByRole('button', { name: /^Undo this job/ }).click();
  const undo = page.getByRole('dialog', { name: `Undo: Edit metadata of all objects in ${prefix}` });
  await expect(undo.getByTestId('job-phase')).toHaveText('Finished.', { timeout: 120_000 });
  await shot('bulk-edit-undo');

  await undo.getByRole('link', { name: 'Open in Jobs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Jobs of this connection' }).getByRole('row')).toHaveCount(3);
  await shot('jobs-page');
});
