import { expect, expectNoAxeViolations, test } from './fixtures.ts';

test('the theme follows the system until the user picks one, and the pick is remembered', async ({ page, consolePage }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'Follow the system' })).toBeChecked();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor);
  const rootBackground = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(await rootBackground()).toBe('rgb(15, 18, 22)');
  await expectNoAxeViolations(page);

  // Keyboard only: focus the checked radio, arrow to the next one.
  await theme.getByRole('radio', { name: 'Follow the system' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(theme.getByRole('radio', { name: 'Light' })).toBeChecked();
  expect(await rootBackground()).toBe('rgb(255, 255, 255)');
  await expectNoAxeViolations(page);

  await page.reload();
  await consolePage.waitForList();
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Light' })).toBeChecked();
  expect(await rootBackground()).toBe('rgb(255, 255, 255)');

  await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).check();
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await rootBackground()).toBe('rgb(15, 18, 22)');
  await expectNoAxeViolations(page);
  expect(await background()).toBeTruthy();
});

test('the bucket sidebar groups buckets by zone, filters them, collapses a zone and marks the current bucket', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  const sidebar = page.getByRole('navigation', { name: 'Buckets by zone' });
  await expect(sidebar.getByRole('link', { name: 'demo-documents' })).toHaveAttribute('aria-current', 'page');
  const pek3a = sidebar.getByRole('button', { name: /^Zone pek3a/ });
  const sh1a = sidebar.getByRole('button', { name: /^Zone sh1a/ });
  await expect(pek3a).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar.getByRole('link', { name: 'demo-archive' })).toBeVisible();

  await pek3a.press('Enter');
  await expect(pek3a).toHaveAttribute('aria-expanded', 'false');
  await expect(sidebar.getByRole('link', { name: 'demo-photos' })).toBeHidden();
  await pek3a.click();
  await expect(sidebar.getByRole('link', { name: 'demo-photos' })).toBeVisible();

  await sidebar.getByRole('searchbox', { name: 'Filter buckets' }).fill('ARCH');
  await expect(sidebar.getByRole('link')).toHaveText(['demo-archive']);
  await expect(pek3a).toBeHidden();
  await expect(sh1a).toBeVisible();
  await sidebar.getByRole('searchbox', { name: 'Filter buckets' }).fill('nothing-like-this');
  await expect(sidebar).toContainText('No bucket matches “nothing-like-this”.');
  await sidebar.getByRole('searchbox', { name: 'Filter buckets' }).fill('');

  await sidebar.getByRole('link', { name: 'demo-photos' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos$/);
  await expect(sidebar.getByRole('link', { name: 'demo-photos' })).toHaveAttribute('aria-current', 'page');

  // The header's button hides and shows the sidebar.
  await page.getByRole('button', { name: 'Hide bucket list' }).click();
  await expect(sidebar).toBeHidden();
  await page.getByRole('button', { name: 'Show bucket list' }).click();
  await expect(sidebar).toBeVisible();
});

test('each view has its own page title, and the console has a favicon', async ({ page, consolePage, request }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await expect(page).toHaveTitle('demo-documents/reports — QingStor Console');
  await consolePage.row('readme.md').getByRole('link').click();
  await expect(page).toHaveTitle('demo-documents/reports/readme.md — QingStor Console');
  await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'demo-documents' }).click();
  await expect(page).toHaveTitle('demo-documents — QingStor Console');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await expect(page).toHaveTitle('demo-documents — QingStor 控制台');

  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBe('/favicon.svg');
  const icon = await request.get(href ?? '');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});

test('at 1280 px the crumbs with the folder’s actions are one row and the list’s tools another; the listing says how many items and bytes are loaded', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await expect(page.getByTestId('listing-status')).toHaveText('2 items loaded · 8.0 KiB');
  // The controls of other features (Upload, the More actions menu) load beside the listing and may arrive
  // after its rows: measure once they are there.
  await expect(page.getByRole('button', { name: 'More actions' })).toBeVisible();
  const rows = async (selector: string) => {
    const boxes = await page.locator(selector).evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect()));
    return { count: boxes.length, centres: new Set(boxes.map((box) => Math.round(box.top + box.height / 2))).size };
  };
  expect(await rows('.browser__header > nav, .browser__actions > :is(button, a)')).toEqual({ count: 3, centres: 1 });
  expect(await rows('.browser__toolbar > :is(button, a, label, search)')).toEqual({ count: 4, centres: 1 });
  // Nothing destructive in the toolbar: Delete folder… waits in the menu.
  await expect(page.getByRole('button', { name: /Delete/ })).toHaveCount(0);

  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/&filter=readme');
  await expect(page.getByTestId('listing-status')).toHaveText('1 item loaded · 41 B');
});

test('at 390 px an opened object shows as a full-screen sheet in view, focused; Escape closes it', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  // The bucket sidebar starts hidden on a phone.
  await expect(page.getByRole('navigation', { name: 'Buckets by zone' })).toBeHidden();
  await consolePage.row('quarterly-report.pdf').getByRole('link').click();
  await expect(consolePage.details).toBeInViewport({ ratio: 0.9 });
  await expect(consolePage.details).toBeFocused();
  const box = await consolePage.details.boundingBox();
  expect(box?.width).toBe(390);
  await expect(page.getByTestId('details-key')).toHaveText('reports/quarterly-report.pdf');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(consolePage.details).toBeHidden();
  await expect(page).toHaveURL(/prefix=reports\/$/);
  // Focus goes back to the list, on the row that was open.
  await expect(consolePage.objectList).toBeFocused();
  await expect(consolePage.row('quarterly-report.pdf')).toHaveAttribute('aria-selected', 'true');
});
