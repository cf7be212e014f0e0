import { expect, test } from './fixtures.ts';

// Bugs a new user hit in the first minutes of trying the console, each as the journey that found it.

test('the filter and the sort stay with their bucket: another bucket from the sidebar starts unfiltered, in key order', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  await consolePage.waitForList();
  await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: 'Size' })).toHaveAttribute('aria-sort', 'ascending');
  await consolePage.filter.fill('rep');
  await expect(page).toHaveURL(/filter=rep/);
  await expect(consolePage.row('reports/')).toBeVisible();

  await page.getByRole('navigation', { name: 'Buckets by zone' }).getByRole('link', { name: 'demo-photos' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos$/);
  await expect(consolePage.filter).toHaveValue('');
  await expect(page.getByRole('columnheader', { name: 'Size' })).not.toHaveAttribute('aria-sort', /.+/);
  await expect(consolePage.rows.first()).toBeVisible();
  // The URL stays unfiltered once typing's pause is over (a stale draft must not come back).
  await expect.poll(async () => {
    await page.waitForLoadState('networkidle');
    return new URL(page.url()).search;
  }).toBe('');

  // Back returns to the filtered list of the first bucket.
  await page.goBack();
  await expect(page).toHaveURL(/demo-documents\?filter=rep/);
  await expect(consolePage.filter).toHaveValue('rep');
});
