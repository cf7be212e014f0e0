import { expect, type Page } from '@playwright/test';
import { SHOT_LOCALES, shotTests, type ShotContext } from './support/shots.ts';

// Every main screen of the demo, at 1280 and 390 px, light and dark, in English and in Chinese (README shows
// them). Elements are found by URL, test id or class where their names differ by language, or with `say`.

const DOCS = '/buckets/pek3a/demo-documents';
const readme = `${DOCS}?prefix=reports/&object=${encodeURIComponent('reports/readme.md')}`;

async function listed(page: Page): Promise<void> {
  await expect(page.locator('.object-list__body [role="row"]').first()).toBeVisible({ timeout: 20_000 });
  // The toolbar's controls from other features arrive beside the listing.
  await expect(page.locator('.browser__actions .button--primary')).toBeVisible();
}

shotTests('buckets and objects', async ({ page, shot }: ShotContext) => {
  await page.goto('/');
  await expect(page.locator('.data-table tbody tr').first()).toBeVisible({ timeout: 20_000 });
  await shot('buckets');

  await page.goto(`${DOCS}?prefix=reports/`);
  await listed(page);
  await shot('objects');

  await page.locator('.object-list__body [role="row"] input[type="checkbox"]').first().check();
  await expect(page.getByTestId('selection-status')).toBeVisible();
  await expect(page.locator('.selection-bar [data-action="delete-selected"]')).toBeVisible();
  await shot('objects-selected');

  await page.goto(`${DOCS}?prefix=reports/&filter=zzz`);
  await expect(page.locator('.browser__empty .empty-state')).toBeVisible({ timeout: 20_000 });
  await shot('objects-nomatch');
}, { locales: SHOT_LOCALES });

shotTests('details, editor and uploads', async ({ page, shot }: ShotContext) => {
  await page.goto(`${DOCS}?prefix=samples/&object=${encodeURIComponent('samples/chart.png')}`);
  await expect(page.getByTestId('details-key')).toHaveText('samples/chart.png', { timeout: 20_000 });
  await expect(page.locator('.details .tabs__panel dl')).toBeVisible();
  await shot('details');

  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  await expect(page.getByTestId('auto-abort-state')).toBeVisible({ timeout: 20_000 });
  await shot('uploads-page');

  await page.getByRole('link', { name: 'backups/db-dump.sql' }).click();
  await expect(page.getByTestId('totals')).toBeVisible();
  await shot('parts-inspector');
  // Further down: Complete (every part or those listed), Abort, and the parts page by page.
  await page.locator('.upload-detail__actions').scrollIntoViewIfNeeded();
  await shot('parts-inspector-actions');
  // Abort asks for the word to be typed, as the other irreversible actions do.
  await page.locator('.upload-detail__actions button').filter({ hasText: /^(Abort upload…|中止上传…)$/ }).click();
  await expect(page.getByRole('dialog').getByRole('textbox')).toBeFocused();
  await shot('dialog-abort-upload');
  await page.keyboard.press('Escape');

  await page.goto('/uploads');
  await expect(page.getByTestId('uploads-status')).toBeVisible({ timeout: 20_000 });
  await shot('all-uploads');

  // A bucket with no upload in progress says what would be here and offers the bucket.
  await page.goto('/buckets/pek3a/demo-documents/uploads');
  await expect(page.locator('.uploads-list .empty-state')).toBeVisible({ timeout: 20_000 });
  await shot('uploads-empty');
}, { locales: SHOT_LOCALES });

shotTests('metadata editor', async ({ page, shot, say }: ShotContext) => {
  await page.goto(`${readme}&edit=1`);
  await expect(page.getByTestId('metadata-row').first()).toBeVisible({ timeout: 20_000 });
  await shot('metadata-editor');
  // The Expires date, typed year first under a placeholder in the console's language.
  await page.getByRole('dialog').getByTestId('std-expires').scrollIntoViewIfNeeded();
  await shot('metadata-expires');

  // A save ends with "Saved" and Undo in the editor; once it closes, the toast keeps Undo in reach.
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('std-cache-control').locator('input').first().fill('public, max-age=600');
  await dialog.locator('.meta-footer .button--primary').click();
  await expect(dialog.getByTestId('metadata-diff')).toBeVisible();
  await shot('metadata-review');
  await dialog.locator('.meta-footer .button--primary').click();
  await expect(dialog.locator('.banner--ok')).toBeVisible();
  await shot('metadata-saved');
  await dialog.getByRole('button', { name: say('Close', '关闭') }).last().click();
  await expect(page.getByTestId('toast').locator('.toast__action')).toBeVisible();
  await shot('metadata-saved-toast');
}, { locales: SHOT_LOCALES });

shotTests('upload panel', async ({ page, shot }: ShotContext) => {
  await page.goto(DOCS);
  await listed(page);
  await page.locator('.browser__actions .button--primary').click();
  const drawer = page.locator('.uploads-drawer');
  await expect(drawer.getByTestId('dropzone')).toBeVisible();
  await shot('upload-drawer');

  // Three files sent: the transfers as a compact table, the first row opened to its details (ETag).
  const files = ['notes.txt', 'summary-of-the-quarter.md', 'data.csv'].map((name, i) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`${name}\n`.repeat(40 * (i + 1))) }));
  await drawer.locator('input[type="file"]:not([webkitdirectory])').setInputFiles(files);
  await drawer.locator('form .button--primary').click();
  await expect(drawer.locator('tr[data-state="done"]')).toHaveCount(3, { timeout: 20_000 });
  await drawer.locator('.upload-table__toggle').first().click();
  await expect(drawer.getByTestId('item-etag')).toBeVisible();
  await shot('upload-transfers');
}, { locales: SHOT_LOCALES });

shotTests('settings and dialogs', async ({ page, shot, say }: ShotContext) => {
  await page.goto('/buckets/pek3a/demo-public/settings');
  await expect(page.getByTestId('public-read-state')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('bucket-stats')).toBeVisible();
  await shot('settings');

  await page.goto('/buckets/pek3a/demo-photos/settings');
  await page.getByRole('button', { name: say('Make public…', '设为公开…') }).click();
  await expect(page.getByRole('dialog').getByRole('textbox')).toBeFocused();
  await page.getByRole('dialog').getByRole('textbox').fill('demo-pho');
  await shot('dialog-public');

  await page.goto('/');
  await expect(page.locator('.data-table tbody tr').first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: say('Create bucket…', '创建存储空间…') }).click();
  await expect(page.getByRole('dialog').getByRole('textbox').first()).toBeFocused();
  await shot('dialog-create-bucket');

  await page.goto(`${DOCS}?prefix=reports/`);
  await listed(page);
  await page.getByRole('button', { name: say('More actions', '更多操作') }).click();
  await shot('objects-more');
  await page.getByRole('menuitem', { name: say('Delete folder…', '删除文件夹…') }).click();
  await expect(page.getByTestId('folder-count')).toBeVisible();
  await shot('dialog-delete-folder');

  await page.goto(readme);
  await expect(page.getByTestId('details-key')).toHaveText('reports/readme.md', { timeout: 20_000 });
  await page.locator('.details').getByRole('button', { name: say('Copy…', '复制…') }).click();
  await expect(page.getByRole('dialog').getByRole('textbox').first()).toBeFocused();
  await shot('dialog-copy');

  await page.goto('/');
  await expect(page.locator('.data-table tbody tr').first()).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('demo-badge').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await shot('dialog-demo');
}, { locales: SHOT_LOCALES });

shotTests('connect', async ({ page, shot }: ShotContext) => {
  await page.goto('/connect');
  await expect(page.locator('form').first()).toBeVisible({ timeout: 20_000 });
  await shot('connect', { noSidebar: true });
  // Advanced opened: anonymous access, bucket, proxy, copy limit, zones, addressing.
  await page.locator('details.connect__advanced > summary').click();
  await page.locator('.connect__advanced-fields').scrollIntoViewIfNeeded();
  await expect(page.locator('.connect__advanced-fields')).toBeVisible();
  await shot('connect-advanced', { noSidebar: true });
}, { locales: SHOT_LOCALES });
