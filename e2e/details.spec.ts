import { demoPutObject, expect, expectNoAxeViolations, test } from './fixtures.ts';

test('object details show HEAD headers, decoded metadata and a working pre-signed download link', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/&object=reports/quarterly-report.pdf');
  const details = consolePage.details;
  await expect(details).toBeVisible();
  await expect(details.getByTestId('details-key')).toHaveText('reports/quarterly-report.pdf');
  await expect(details).toContainText('application/pdf');
  await expect(details).toContainText('8.0 KiB (8,192 bytes)');
  await expect(details).toContainText(/"[0-9a-f]{32}"/);
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details.getByRole('row', { name: /cache-control/ })).toContainText('private, max-age=600');
  await expect(details.getByRole('row', { name: /expires/ })).toContainText('Wed, 31 Dec 2031 23:59:59 GMT');
  const custom = details.getByTestId('custom-metadata');
  await expect(custom.getByRole('row', { name: /x-qs-meta-author/ })).toContainText('Alice Example');
  // RFC 2047 and percent-encoded values are shown decoded beside the stored form.
  const title = custom.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'x-qs-meta-title', exact: true }) });
  await expect(title).toContainText('季度报告 Q3');
  await expect(title).toContainText('=?');
  await expect(custom.getByRole('row', { name: /x-qs-meta-project/ })).toContainText('项目/北京');
  await expect(custom.getByRole('row', { name: /x-qs-meta-title-q/ })).toContainText('Überblick – Q3');
  await expectNoAxeViolations(page);

  await details.getByRole('tab', { name: 'Share' }).click();
  await details.getByLabel('Link valid for').selectOption({ label: '5 minutes' });
  await details.getByRole('button', { name: 'Create download link' }).click();
  const link = details.getByTestId('download-link');
  await expect(link).toBeVisible();
  await expect(details).toContainText('Pre-signed link, valid until');
  // The link to share is the pre-signed URL; the page's own link to it is on the console's origin (the demo
  // host never resolves outside this tab's service worker).
  const href = await details.getByTestId('share-url').textContent();
  expect(href).toMatch(/^https:\/\/pek3a\.qingstor\.invalid\/demo-documents\/reports\/quarterly-report\.pdf\?/);
  expect(await link.getAttribute('href')).toBe(`${new URL(page.url()).origin}/demo-object/pek3a.qingstor.invalid${new URL(href ?? '').pathname}${new URL(href ?? '').search}`);
  const url = new URL(href ?? '');
  expect(url.searchParams.get('access_key_id')).toBe('QSDEMOACCESSKEYID0001');
  expect(url.searchParams.get('signature')).toBeTruthy();
  const expires = Number(url.searchParams.get('expires'));
  const now = Date.now() / 1000;
  expect(expires).toBeGreaterThan(now + 240);
  expect(expires).toBeLessThan(now + 360);

  // The link works on its own (the demo backend answers it like QingStor would).
  const readme = await page.evaluate(async (u) => {
    const response = await fetch(u);
    return { status: response.status, size: (await response.arrayBuffer()).byteLength, disposition: response.headers.get('content-disposition') };
  }, href ?? '');
  expect(readme.status).toBe(200);
  expect(readme.size).toBe(8192);
  expect(readme.disposition).toContain('attachment');
});

test('the download link of a text object returns its exact body', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/&object=reports/readme.md');
  await expect(consolePage.details).toContainText('text/markdown; charset=utf-8');
  await consolePage.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(consolePage.details.getByTestId('custom-metadata')).toContainText('مؤلف');
  await consolePage.details.getByRole('tab', { name: 'Share' }).click();
  await consolePage.details.getByRole('button', { name: 'Create download link' }).click();
  const href = await consolePage.details.getByTestId('download-link').getAttribute('href');
  const body = await page.evaluate(async (u) => (await fetch(u)).text(), href ?? '');
  expect(body).toBe('# Reports\n\nQuarterly and yearly reports.\n');
});

test('a missing object shows the HEAD status code and request id in the details panel', async ({ consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?object=nope/not-here.txt');
  const alert = consolePage.details.getByRole('alert');
  await expect(alert).toContainText('not_found');
  await expect(alert.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
});

test('hostile, CJK, RTL and emoji keys are shown as text and never run', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  const hostile = '<img src=x onerror=alert(1)>.html';
  await expect(consolePage.row(hostile)).toBeVisible();
  await expect(consolePage.objectList.locator('img')).toHaveCount(0);
  for (const name of ['报告/', '한국어/', 'عربي/', 'עברית/', 'emoji/', 'quotes/', ' !@#$%^&*()`~.txt', 'percent%20literal%2Fslash.txt', '<>?:"{}|_+.txt']) {
    await expect(consolePage.row(name)).toBeVisible();
  }
  // RTL names are isolated so they cannot reorder the surrounding layout.
  await expect(consolePage.row('عربي/').getByRole('link')).toHaveAttribute('dir', 'auto');

  await consolePage.row(hostile).getByRole('link').click();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText(hostile);
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page).toHaveURL(/object=%3Cimg%20src%3Dx%20onerror%3Dalert\(1\)%3E\.html/);

  await consolePage.row('quotes/').getByRole('link').click();
  await expect(consolePage.row(`"double" and 'single' ""'' runs.txt`)).toBeVisible();
  await page.goBack();
  await consolePage.row('emoji/').getByRole('link').click();
  await expect(consolePage.row('😀🎉🚀.txt')).toBeVisible();
  await consolePage.row('😀🎉🚀.txt').getByRole('link').click();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText('emoji/😀🎉🚀.txt');
  await expectNoAxeViolations(page);
});

test('a 1023-byte key is listed, opened, deep-linked and shown in full', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  await consolePage.waitForList();
  const key = `long/${'键'.repeat(300)}${'k'.repeat(118)}`;
  expect(new TextEncoder().encode(key).length).toBe(1023);
  expect(await demoPutObject(page, 'demo-documents', key, 'long key body')).toBe(201);

  // The demo store lives in this page, so navigate within it (a reload would re-seed).
  await page.getByRole('button', { name: 'Refresh' }).click();
  await consolePage.row('long/').getByRole('link').click();
  const name = key.slice('long/'.length);
  await expect(consolePage.row(name)).toBeVisible();
  await consolePage.row(name).getByRole('link').click();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText(key);
  await expect(consolePage.details).toContainText('13 B (13 bytes)');
  expect(decodeURIComponent(new URL(page.url()).search)).toContain(key);
  await page.goBack();
  await expect(consolePage.details).toHaveCount(0);
  await page.goForward();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText(key);
});

test.describe('dates in the viewer’s time zone', () => {
  test.use({ timezoneId: 'Asia/Shanghai' });

  test('Last-Modified is shown in local time in the list and in details, in English and Chinese', async ({ page, consolePage }) => {
    // Seeded at 2024-01-03T00:05:00Z (demo-archive: day 2, event 5 minutes after midnight UTC) = 08:05 in Shanghai.
    await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/03/&object=logs/2024/01/03/event-0005.json');
    await expect(consolePage.details.getByTestId('details-key')).toHaveText('logs/2024/01/03/event-0005.json');
    await expect(consolePage.details).toContainText(/Jan 3, 2024, 8:05:00\sAM/);
    await expect(consolePage.row('event-0005.json')).toContainText(/Jan 3, 2024, 8:05\sAM/);
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
    await expect(page.getByRole('complementary', { name: '对象详情' })).toContainText('2024年1月3日 08:05:00');
  });
});
