import { ConsolePage, expect, expectNoAxeViolations, test, moreAction } from './fixtures.ts';

// Folders and buckets in demo mode (the in-browser emulator): the same screens as bucket-admin.spec.ts,
// driven from the keyboard where it matters.

/** An unsigned GET from the page to the demo backend: what anyone without credentials gets. */
async function anonymousStatus(page: import('@playwright/test').Page, bucket: string, key: string): Promise<number> {
  return page.evaluate(async ([b, k]) => (await fetch(`https://pek3a.qingstor.invalid/${b}/${k}`, { credentials: 'omit' })).status, [bucket, key] as const);
}

test('demo: create a bucket from the keyboard, open its settings, public read on, an anonymous read works', async ({ page }) => {
  const qs = new ConsolePage(page);
  await qs.open('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.getByRole('button', { name: 'Create bucket…' }).focus();
  await page.keyboard.press('Enter');
  const create = page.getByRole('dialog', { name: 'Create bucket' });
  await expect(create.getByLabel('Bucket name')).toBeFocused();
  await page.keyboard.type('demo-new-bucket');
  await page.keyboard.press('Enter');
  await expect(create).toContainText('Bucket demo-new-bucket created in zone pek3a.');
  await create.getByRole('link', { name: 'Open demo-new-bucket' }).click();

  // A folder made here is an object anyone could read once public read is on.
  await moreAction(page, 'New folder…');
  const folder = page.getByRole('dialog', { name: 'New folder in demo-new-bucket/' });
  await folder.getByLabel('Folder name').fill('shared');
  await folder.getByRole('button', { name: 'Create folder' }).click();
  await expect(page.getByRole('grid').getByRole('link', { name: 'shared/', exact: true })).toBeVisible();
  expect(await anonymousStatus(page, 'demo-new-bucket', 'shared/')).toBe(403);

  await moreAction(page, 'Bucket settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings of demo-new-bucket' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Location' }).getByRole('listitem')).toHaveText(['Buckets', 'demo-new-bucket (pek3a)']);
  await expect(page.getByTestId('bucket-stats')).toContainText('Objects1');
  // Making a bucket public exposes every object: it asks for the bucket's name, typed, first.
  await page.getByRole('button', { name: 'Make public…' }).focus();
  await page.keyboard.press('Enter');
  const ask = page.getByRole('dialog', { name: 'Make demo-new-bucket public?' });
  await expect(ask.getByText(/Anyone on the internet who knows an object’s name will be able to download it/)).toBeVisible();
  const typed = ask.getByRole('textbox', { name: 'Type demo-new-bucket to confirm' });
  await expect(typed).toBeFocused();
  await typed.fill('demo-new-buckets');
  await expect(ask.getByRole('button', { name: 'Make public' })).toBeDisabled();
  await typed.press('Enter');
  await expect(ask).toBeVisible();
  expect(await anonymousStatus(page, 'demo-new-bucket', 'shared/')).toBe(403);
  await typed.fill('demo-new-bucket');
  await ask.getByRole('button', { name: 'Make public' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByTestId('public-read-state')).toHaveText(/Public read is on/);
  expect(await anonymousStatus(page, 'demo-new-bucket', 'shared/')).toBe(200);
  // A public bucket carries the badge in the sidebar and in the bucket list.
  const sidebar = page.getByRole('navigation', { name: 'Buckets by zone' });
  await expect(sidebar.getByRole('link', { name: 'demo-new-bucket Public' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'demo-documents', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('banner').getByRole('link', { name: 'QingStor Console' }).click();
  const table = page.getByRole('table', { name: 'Buckets' });
  await expect(table.getByRole('row', { name: /demo-new-bucket/ }).getByText('Public', { exact: true })).toBeVisible();
  await expect(table.getByRole('row', { name: /demo-documents/ }).getByText('Public', { exact: true })).toHaveCount(0);
  await table.getByRole('row', { name: /demo-new-bucket/ }).getByRole('link').click();
  await moreAction(page, 'Bucket settings');
  // Taking it back reduces exposure: one click.
  await page.getByRole('button', { name: 'Make private' }).click();
  await expect(page.getByTestId('public-read-state')).toHaveText(/Public read is off/);
  expect(await anonymousStatus(page, 'demo-new-bucket', 'shared/')).toBe(403);
});

test('demo: delete a folder recursively; a settings page in Chinese', async ({ page }) => {
  const qs = new ConsolePage(page);
  await qs.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await expect(qs.row('readme.md')).toBeVisible();
  await moreAction(page, 'Delete folder…');
  const dialog = page.getByRole('dialog', { name: 'Delete folder demo-documents/reports/' });
  await expect(dialog.getByTestId('folder-count')).toHaveText(/^Objects in this folder and its subfolders: \d+ \(/);
  const counted = Number(/subfolders: (\d+)/.exec((await dialog.getByTestId('folder-count').textContent()) ?? '')?.[1]);
  expect(counted).toBeGreaterThan(0);
  await dialog.getByRole('button', { name: `Delete all (${counted})` }).click();
  await expect(dialog.getByTestId('folder-result')).toHaveText(`Deleted: ${counted} of ${counted}.`);
  await dialog.getByRole('button', { name: 'Go to the parent folder' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-documents$/);
  await expect(qs.row('reports/')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await page.goto('/buckets/pek3a/demo-public/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'demo-public 的设置' })).toBeVisible();
  await expect(page.getByTestId('public-read-state')).toHaveText(/公开读取已开启/);
  await expect(page.getByRole('region', { name: 'CORS 规则' }).getByRole('table')).toBeVisible();
  await expectNoAxeViolations(page);
  // Dark scheme (contrast), and at 390 px the rules still fit the screen.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
});
