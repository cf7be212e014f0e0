import { expect, expectNoAxeViolations, test, bucketsInZone } from './fixtures.ts';

test('first open shows the demo badge and the demo buckets grouped per zone', async ({ page, consolePage }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await consolePage.open('/');
  await expect(consolePage.demoBadge).toBeVisible();
  // Demo mode loads the emulator lazily, as its own chunk (connect.spec checks endpoint mode never does).
  expect(requested.some((path) => path.startsWith('/assets/browser-'))).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  const pek3a = bucketsInZone(page, 'pek3a');
  const sh1a = bucketsInZone(page, 'sh1a');
  await expect(pek3a.getByRole('link', { name: 'demo-photos' })).toBeVisible();
  await expect(pek3a.getByRole('link', { name: 'demo-documents' })).toBeVisible();
  await expect(sh1a.getByRole('link', { name: 'demo-archive' })).toBeVisible();
  await expect(pek3a.getByRole('link', { name: 'demo-archive' })).toHaveCount(0);
  await expect(page).toHaveTitle('Buckets — QingStor Console');
  await expectNoAxeViolations(page);
});

test('opening a bucket lists its folders and objects with size, type and date', async ({ page, consolePage }) => {
  await consolePage.open('/');
  await page.getByRole('main').getByRole('link', { name: 'demo-photos' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos$/);
  await consolePage.waitForList();
  await expect(consolePage.row('photos/')).toBeVisible();
  await expect(consolePage.row('albums/')).toBeVisible();
  const cover = consolePage.row('cover.svg');
  await expect(cover).toContainText('512 B');
  await expect(cover).toContainText('image/svg+xml');
  await expect(consolePage.row('photos/')).toContainText('Folder');
  await expectNoAxeViolations(page);
});

test('a deep link opens a nested prefix with breadcrumbs, and survives a reload', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos?prefix=photos/2024/06/');
  await expect(consolePage.row('beach.jpg')).toBeVisible();
  await expect(consolePage.row('sunset.jpg')).toBeVisible();
  await expect(consolePage.row('街景.png')).toBeVisible();
  await expect(consolePage.rows).toHaveCount(3);
  const crumbs = consolePage.breadcrumbs;
  await expect(crumbs.getByRole('link', { name: 'demo-photos' })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: 'photos', exact: true })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: '2024' })).toBeVisible();
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('06');
  await page.reload();
  await expect(consolePage.row('街景.png')).toBeVisible();
  await crumbs.getByRole('link', { name: 'photos', exact: true }).click();
  await expect(page).toHaveURL(/prefix=photos\/$/);
  await expect(consolePage.row('2024/')).toBeVisible();
});

test('back and forward move between folders and the details panel', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos');
  await consolePage.row('photos/').getByRole('link').click();
  await expect(consolePage.row('2024/')).toBeVisible();
  await consolePage.row('2024/').getByRole('link').click();
  await expect(consolePage.row('06/')).toBeVisible();
  await consolePage.row('06/').getByRole('link').click();
  await consolePage.row('beach.jpg').getByRole('link').click();
  await expect(consolePage.details).toBeVisible();
  await expect(page).toHaveURL(/object=photos\/2024\/06\/beach\.jpg/);

  await page.goBack();
  await expect(consolePage.details).toHaveCount(0);
  await expect(consolePage.row('beach.jpg')).toBeVisible();
  await page.goBack();
  await expect(consolePage.row('06/')).toBeVisible();
  await page.goBack();
  await expect(consolePage.row('2024/')).toBeVisible();
  await page.goForward();
  await expect(consolePage.row('06/')).toBeVisible();
  await page.goForward();
  await expect(consolePage.row('beach.jpg')).toBeVisible();
  await page.goForward();
  await expect(consolePage.details).toBeVisible();
});

test('scrolling pages through the 100,000-object bucket while the DOM stays bounded', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/sh1a/demo-archive?flat=1');
  await consolePage.waitForList();
  await expect.poll(() => consolePage.loadedRows()).toBeGreaterThanOrEqual(100);
  await expect(consolePage.objectList).toHaveAttribute('data-has-more', 'true');
  await expect(consolePage.row('logs/2024/01/01/event-0000.json')).toBeVisible();

  let loaded = await consolePage.loadedRows();
  for (let round = 0; round < 8; round++) {
    await consolePage.objectList.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => consolePage.loadedRows(), { timeout: 10_000 }).toBeGreaterThan(loaded);
    loaded = await consolePage.loadedRows();
    const inDom = await consolePage.domRows();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThanOrEqual(60);
  }
  expect(loaded).toBeGreaterThanOrEqual(900);
  await expect(page.getByTestId('listing-status')).toContainText('more available');
  // The key order continues across pages: the last rendered row is a later event than the first page held.
  const lastKey = await consolePage.rows.last().getAttribute('data-key');
  expect(lastKey && lastKey > 'logs/2024/01/03/').toBe(true);
});

test('a folder of 400 objects is read completely across four pages', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await consolePage.waitForList();
  // Scroll to the end until every page has arrived: each poll scrolls again, so the next page is asked for
  // as soon as the previous one rendered.
  await expect
    .poll(async () => {
      await consolePage.objectList.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      return consolePage.loadedRows();
    })
    .toBe(400);
  await expect(consolePage.objectList).toHaveAttribute('data-has-more', 'false');
  await expect(consolePage.objectList).toHaveAttribute('aria-rowcount', '401');
  await expect(page.getByTestId('listing-status')).toHaveText(/^400 items loaded · [\d.]+\sKiB$/);
  await consolePage.objectList.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(consolePage.row('event-0399.json')).toBeVisible();
});

test('the prefix filter narrows the listing and lives in the URL', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos');
  await expect(consolePage.row('photos/')).toBeVisible();
  await consolePage.filter.fill('al');
  await expect(page).toHaveURL(/filter=al/);
  await expect(consolePage.row('albums/')).toBeVisible();
  await expect(consolePage.rows).toHaveCount(1);
  await page.reload();
  await expect(consolePage.filter).toHaveValue('al');
  await expect(consolePage.rows).toHaveCount(1);
  await consolePage.filter.fill('zzz');
  await expect(page.getByText('No objects start with “zzz”.')).toBeVisible();
  await consolePage.filter.fill('');
  await expect(consolePage.row('cover.svg')).toBeVisible();
});

test('keyboard only: / focuses the filter, arrows select, Enter opens, Backspace goes up', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-photos');
  await expect(consolePage.row('photos/')).toBeVisible();
  await page.keyboard.press('/');
  await expect(consolePage.filter).toBeFocused();
  // Tab onwards until the list (one tab stop) has focus.
  for (let i = 0; i < 10; i++) {
    if (await consolePage.objectList.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(consolePage.objectList).toBeFocused();
  // Rows: albums/, cover.svg, photos/ (key order); the first is active.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(consolePage.row('photos/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/prefix=photos\/$/);
  await expect(consolePage.row('2024/')).toBeVisible();
  await expect(consolePage.objectList).toBeFocused();
  await expect(consolePage.row('2024/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/prefix=photos\/2024\/$/);
  await expect(consolePage.row('06/')).toBeVisible();
  await page.keyboard.press('Backspace');
  await expect(page).toHaveURL(/prefix=photos\/$/);
  // Going up selects the folder we came from.
  await expect(consolePage.row('2024/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Backspace');
  await expect(page).toHaveURL(/demo-photos$/);
  await expect(consolePage.row('photos/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(consolePage.details).toBeVisible();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText('cover.svg');
  await page.keyboard.press('Escape');
  await expect(consolePage.details).toHaveCount(0);
  await page.keyboard.press('Backspace');
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
});

test('a deep link to a missing bucket shows the QingStor code and a copyable request id', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/no-such-bucket-here');
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('bucket_not_exists');
  await expect(alert).toContainText('This bucket does not exist');
  await expect(alert.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
  await expect(alert.getByRole('button', { name: 'Copy request ID' })).toBeVisible();
  await expectNoAxeViolations(page);
});
