import { ConsolePage, expect, expectNoAxeViolations, test } from './fixtures.ts';

test('first open shows the demo badge and the demo buckets grouped per zone', async ({ page, consolePage }) => {
  await consolePage.open('/');
  await expect(consolePage.demoBadge).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  const pek3a = page.getByRole('region', { name: 'Zone pek3a' });
  const sh1a = page.getByRole('region', { name: 'Zone sh1a' });
  await expect(pek3a.getByRole('link', { name: 'demo-photos' })).toBeVisible();
  await expect(pek3a.getByRole('link', { name: 'demo-documents' })).toBeVisible();
  await expect(sh1a.getByRole('link', { name: 'demo-archive' })).toBeVisible();
  await expect(page).toHaveTitle('QingStor Console');
  await expectNoAxeViolations(page);
});

test('opening a bucket lists its folders and objects', async ({ page, consolePage }) => {
  await consolePage.open('/');
  await page.getByRole('link', { name: 'demo-photos' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos$/);
  await consolePage.waitForList();
  await expect(consolePage.row('photos/')).toBeVisible();
  await expect(consolePage.row('albums/')).toBeVisible();
  await expect(consolePage.row('cover.svg')).toBeVisible();
  await expectNoAxeViolations(page);
});

export { ConsolePage };
