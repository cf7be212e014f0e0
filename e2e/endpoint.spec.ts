import { listBuckets } from '../src/api/service/operations.ts';
import { ConsolePage, expectNoAxeViolations, bucketsInZone } from './fixtures.ts';
import { connect, DEMO_USER_CREDENTIALS, expect, fillConnectForm, openAdvanced, OTHER_USER, test } from './support/emulator.ts';

// Endpoint mode against the standalone emulator over real HTTP: the page (the e2e origin, http://127.0.0.1:4317) and the
// emulator (another port) are different origins, so Chromium sends real preflights (for writes) and enforces the
// buckets' CORS rules (the demo seed gives every demo bucket a permissive rule; service-level calls are
// open on the emulator, ref §9.9/§12).

test('good credentials: verdict ok, buckets per zone, a bucket lists over real CORS, its reads without preflights', async ({ page, emulator, api, pageOrigin }) => {
  // Other tests of this worker may have added buckets to the shared emulator.
  const buckets = (await listBuckets(api)).count;
  expect(buckets).toBeGreaterThanOrEqual(5);
  emulator.clearRequests();
  await page.goto('/connect');
  // An IP endpoint cannot carry a zone label in its host (ref §1.2): the form suggests path addressing.
  // Read before submitting: a quick check leaves the form before an assertion after it could read it.
  await page.getByLabel('Endpoint URL').fill(emulator.url);
  await openAdvanced(page);
  await expect(page.getByLabel('Zone in the host name (pek3a.qingstor.com)')).not.toBeChecked();
  await fillConnectForm(page, { endpoint: emulator.url, zones: 'pek3a, sh1a' });
  // A successful check goes straight into the console, and says what it found in a toast.
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('toast').filter({ hasText: `Connected. ${buckets} buckets visible.` })).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(page.getByText('Demo data — simulated backend')).toHaveCount(0);
  const pek3a = bucketsInZone(page, 'pek3a');
  await expect(pek3a.getByRole('link', { name: 'demo-photos' })).toBeVisible();
  await expect(bucketsInZone(page, 'sh1a').getByRole('link', { name: 'demo-archive' })).toBeVisible();
  await expectNoAxeViolations(page);

  await pek3a.getByRole('link', { name: 'demo-photos' }).click();
  const qs = new ConsolePage(page);
  await expect(qs.row('photos/')).toBeVisible();
  await expect(qs.row('cover.svg')).toContainText('image/svg+xml');
  await expectNoAxeViolations(page);

  // What reached the server: a ListBuckets and a ListObjects from the page's origin, each signed in its query
  // string with no header of its own, so the browser sent them without a preflight (ref §2.5).
  const seen = emulator.requests;
  const listObjects = seen.find((r) => r.method === 'GET' && r.url.startsWith('/demo-photos?'));
  expect(listObjects?.origin).toBe(pageOrigin);
  expect(listObjects?.status).toBe(200);
  expect(new URLSearchParams(listObjects?.url.split('?')[1]).get('access_key_id')).toBe(DEMO_USER_CREDENTIALS.accessKeyId);
  expect(listObjects?.headers.authorization).toBeUndefined();
  expect(seen.some((r) => r.method === 'GET' && /^\/\?limit=\d+&access_key_id=/.test(r.url) && r.origin === pageOrigin && r.status === 200)).toBe(true);
  expect(seen.filter((r) => r.method === 'OPTIONS' && r.preflightMethod === 'GET')).toEqual([]);
  // The secret never appears in a URL the browser requested or shows.
  expect(seen.every((r) => !r.url.includes(OTHER_USER.secretAccessKey) && !r.url.includes('qsdemoSecret'))).toBe(true);
  expect(page.url()).not.toContain('qsdemoSecret');
});

test('a wrong secret is refused with signature_not_matched and the request id', async ({ page, emulator }) => {
  await page.goto('/connect');
  await fillConnectForm(page, { endpoint: emulator.url, secretAccessKey: 'definitely-not-the-secret-0000000000000' });
  const verdict = page.locator('[data-verdict="credentials"]');
  await expect(verdict).toBeVisible({ timeout: 15_000 });
  await expect(verdict).toContainText('The credentials were refused (signature_not_matched).');
  await expect(verdict.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
  const requestId = await verdict.getByTestId('request-id').textContent();
  expect(emulator.requests.some((r) => r.status === 401 || r.status === 403)).toBe(true);
  await expect(verdict.getByRole('button', { name: 'Copy request ID' })).toBeVisible();
  expect(requestId).not.toBe('');
  await expect(page).toHaveURL(/\/connect$/);
  await expectNoAxeViolations(page);
});

test('an unknown access key is refused with invalid_access_key_id', async ({ page, emulator }) => {
  await page.goto('/connect');
  await fillConnectForm(page, { endpoint: emulator.url, accessKeyId: 'QSNOSUCHACCESSKEY0099' });
  const verdict = page.locator('[data-verdict="credentials"]');
  await expect(verdict).toBeVisible({ timeout: 15_000 });
  await expect(verdict).toContainText('invalid_access_key_id');
  await expect(verdict.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
});

test('a second user sees only what it may: no buckets of its own, READ on demo-documents by name', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, accessKeyId: OTHER_USER.accessKeyId, secretAccessKey: OTHER_USER.secretAccessKey });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await expect(page.getByRole('main').getByText('No buckets.', { exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'demo-photos' })).toHaveCount(0);

  const byName = page.getByRole('form', { name: 'Open a bucket by name' });
  await byName.getByLabel('Bucket name').fill('demo-documents');
  await byName.getByRole('button', { name: 'Open' }).click();
  const qs = new ConsolePage(page);
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-documents$/);
  await expect(qs.row('reports/')).toBeVisible();

  // READ is not write: the owner's private bucket stays closed, with QingStor's code.
  await page.goBack();
  await byName.getByLabel('Bucket name').fill('demo-photos');
  await byName.getByRole('button', { name: 'Open' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('permission_denied');
  await expect(alert.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
});

test('remember in this tab: a deep link into a nested prefix survives a reload, back/forward work', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  // Opt-in only: the remembered session is in this tab's sessionStorage, never in the URL.
  expect(await page.evaluate(() => sessionStorage.getItem('qsc.session'))).toContain(emulator.url);

  const qs = new ConsolePage(page);
  await page.goto('/buckets/pek3a/demo-photos?prefix=photos/2024/06/');
  await expect(qs.row('beach.jpg')).toBeVisible();
  await expect(qs.row('街景.png')).toBeVisible();
  await expect(qs.rows).toHaveCount(3);
  await expect(qs.breadcrumbs.locator('[aria-current="page"]')).toHaveText('06');
  await page.reload();
  await expect(qs.row('sunset.jpg')).toBeVisible();
  await qs.breadcrumbs.getByRole('link', { name: 'photos', exact: true }).click();
  await expect(page).toHaveURL(/prefix=photos\/$/);
  await expect(qs.row('2024/')).toBeVisible();
  await page.goBack();
  await expect(qs.row('beach.jpg')).toBeVisible();
  await page.goForward();
  await expect(qs.row('2024/')).toBeVisible();
  expect(page.url()).not.toContain('qsdemoSecret');
});

test('a deep link whose listing code never arrives still shows the console: boot waits for the first request only briefly', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  // A stalled network: the API client's code (needed to send the first listing) is never answered.
  await page.context().route(/\/assets\/client-[^/]+\.js$/, () => undefined);
  await page.goto('/buckets/pek3a/demo-photos', { waitUntil: 'commit' });
  await expect(page.getByRole('banner').getByRole('link', { name: 'QingStor Console' })).toBeVisible();
  await expect(page.getByRole('main')).toBeVisible();
});

test('without "remember", a reload forgets the connection; a deep link goes through Connect and on to its target', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('qsc.session'))).toBeNull();
  await page.goto('/buckets/pek3a/demo-photos?prefix=photos/');
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  // Connecting again continues to where the link was going.
  await connect(page, { endpoint: emulator.url });
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos\?prefix=photos\/$/);
  await expect(new ConsolePage(page).row('2024/')).toBeVisible();
});

test('filter and keyboard-only browsing over HTTP: the filter becomes a server-side prefix', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto('/buckets/pek3a/demo-photos');
  await expect(qs.row('photos/')).toBeVisible();
  emulator.clearRequests();
  await page.keyboard.press('/');
  await expect(qs.filter).toBeFocused();
  await page.keyboard.type('ph');
  await expect(page).toHaveURL(/filter=ph/);
  await expect(qs.rows).toHaveCount(1);
  await expect(qs.row('photos/')).toBeVisible();
  expect(emulator.requests.some((r) => r.method === 'GET' && r.url.startsWith('/demo-photos?') && r.url.includes('prefix=ph'))).toBe(true);
  // Clear the filter and reach the list with the keyboard alone.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await expect(qs.rows).toHaveCount(3);
  for (let i = 0; i < 10 && !(await qs.objectList.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(qs.objectList).toBeFocused();
  // Rows in key order: albums/, cover.svg, photos/.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(qs.row('photos/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/prefix=photos\/$/);
  await expect(qs.row('2024/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(qs.row('06/')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(qs.row('beach.jpg')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(qs.details.getByTestId('details-key')).toHaveText('photos/2024/06/sunset.jpg');
  await page.keyboard.press('Escape');
  await expect(qs.details).toHaveCount(0);
  await page.keyboard.press('Backspace');
  await expect(page).toHaveURL(/prefix=photos\/2024\/$/);
  await expect(qs.row('06/')).toHaveAttribute('aria-selected', 'true');
});

test('paging through the 100,000-object bucket over HTTP keeps the DOM bounded', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  emulator.clearRequests();
  const qs = new ConsolePage(page);
  await page.goto('/buckets/sh1a/demo-archive?flat=1');
  await qs.waitForList();
  await expect.poll(() => qs.loadedRows()).toBeGreaterThanOrEqual(100);
  await expect(qs.objectList).toHaveAttribute('data-has-more', 'true');
  let loaded = await qs.loadedRows();
  for (let round = 0; round < 5; round++) {
    await qs.objectList.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => qs.loadedRows(), { timeout: 10_000 }).toBeGreaterThan(loaded);
    loaded = await qs.loadedRows();
    const inDom = await qs.domRows();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThanOrEqual(60);
  }
  // Marker paging on the wire: each page starts after the previous page's last key (ref §9.5).
  const pages = emulator.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/demo-archive?') && !r.url.startsWith('/demo-archive?acl'));
  expect(pages.length).toBeGreaterThanOrEqual(6);
  const markers = pages.map((r) => new URLSearchParams(r.url.slice(r.url.indexOf('?') + 1)).get('marker'));
  expect(markers[0]).toBeNull();
  expect(markers.slice(1).every((m) => m !== null && m.startsWith('logs/2024/'))).toBe(true);
  expect(new Set(markers).size).toBe(markers.length);
  const lastKey = await qs.rows.last().getAttribute('data-key');
  expect(lastKey !== null && lastKey > 'logs/2024/01/01/event-0399.json').toBe(true);
});

test('object details over real CORS: headers, metadata, and a pre-signed link that downloads', async ({ page, emulator, request }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto('/buckets/pek3a/demo-documents?prefix=reports/&object=reports/quarterly-report.pdf');
  const details = qs.details;
  await expect(details.getByTestId('details-key')).toHaveText('reports/quarterly-report.pdf');
  await expect(details).toContainText('application/pdf');
  await expect(details).toContainText('8.0 KiB (8,192 bytes)');
  await expect(details).toContainText(/"[0-9a-f]{32}"/);
  // Readable only because the bucket's rule exposes these headers (ref §9.9).
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details.getByTestId('custom-metadata').getByRole('row', { name: /x-qs-meta-author/ })).toContainText('Alice Example');
  await expectNoAxeViolations(page);

  await details.getByRole('tab', { name: 'Share' }).click();
  await details.getByLabel('Link valid for').selectOption({ label: '5 minutes' });
  await details.getByRole('button', { name: 'Create download link' }).click();
  const href = await details.getByTestId('download-link').getAttribute('href');
  expect(href?.startsWith(`${emulator.url}/demo-documents/reports/quarterly-report.pdf?`)).toBe(true);
  const link = new URL(href ?? '');
  expect(link.searchParams.get('access_key_id')).toBe(DEMO_USER_CREDENTIALS.accessKeyId);
  expect(Number(link.searchParams.get('expires'))).toBeLessThan(Date.now() / 1000 + 360);

  // The link works on its own: from Node (no Origin, like a download manager) and from the page (CORS GET).
  const direct = await request.get(link.href);
  expect(direct.status()).toBe(200);
  expect((await direct.body()).length).toBe(8192);
  expect(direct.headers()['content-disposition']).toContain('attachment');
  const fromPage = await page.evaluate(async (u) => {
    const response = await fetch(u);
    return { status: response.status, size: (await response.arrayBuffer()).byteLength };
  }, link.href);
  expect(fromPage).toEqual({ status: 200, size: 8192 });
  // A tampered link is refused by the server.
  link.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 60));
  const tampered = await request.get(link.href);
  expect(tampered.status()).toBe(401);
  expect((await tampered.json()) as unknown).toMatchObject({ code: 'signature_not_matched' });
});

test('hostile, CJK, RTL and emoji keys from the server are shown as text and never run', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto('/buckets/pek3a/demo-documents');
  const hostile = '<img src=x onerror=alert(1)>.html';
  await expect(qs.row(hostile)).toBeVisible();
  for (const name of ['报告/', '한국어/', 'عربي/', 'עברית/', 'emoji/', 'quotes/', ' !@#$%^&*()`~.txt', 'percent%20literal%2Fslash.txt', '<>?:"{}|_+.txt']) {
    await expect(qs.row(name)).toBeVisible();
  }
  await expect(page.locator('img')).toHaveCount(0);
  await qs.row(hostile).getByRole('link').click();
  await expect(qs.details.getByTestId('details-key')).toHaveText(hostile);
  await expect(qs.details).toContainText('text/plain; charset=utf-8');
  await expect(page.locator('img')).toHaveCount(0);
  await qs.row('emoji/').getByRole('link').click();
  await qs.row('😀🎉🚀.txt').getByRole('link').click();
  await expect(qs.details.getByTestId('details-key')).toHaveText('emoji/😀🎉🚀.txt');
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  const href = await qs.details.getByTestId('download-link').getAttribute('href');
  // The key is percent-encoded in the link and the server finds the object by it (ref §1.3).
  expect(href).toContain('/demo-documents/emoji/%F0%9F%98%80%F0%9F%8E%89%F0%9F%9A%80.txt?');
  expect(await page.evaluate(async (u) => (await fetch(u)).text(), href ?? '')).toBe('Content of emoji/😀🎉🚀.txt\n');
  await expectNoAxeViolations(page);
});

test('zh-CN: Connect, a refused key, the verdict and the browser in Simplified Chinese', async ({ page, emulator, api }) => {
  const buckets = (await listBuckets(api)).count;
  await page.goto('/connect');
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('heading', { level: 1, name: '连接 QingStor' })).toBeVisible();
  await page.getByLabel('服务地址 URL').fill(emulator.url);
  await openAdvanced(page);
  await page.getByLabel('区域', { exact: true }).fill('pek3a, sh1a');
  await page.getByLabel('Access Key ID').fill('QSNOSUCHACCESSKEY0099');
  await page.getByLabel('Secret Access Key').fill('whatever-secret');
  await page.getByRole('button', { name: '检查并连接' }).click();
  const refused = page.locator('[data-verdict="credentials"]');
  await expect(refused).toContainText('凭证被拒绝（invalid_access_key_id）。');
  await expect(refused.getByRole('button', { name: '复制请求 ID' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Access Key ID').fill('QSDEMOACCESSKEYID0001');
  await page.getByLabel('Secret Access Key').fill('qsdemoSecretAccessKey0000000000000000000');
  await page.getByRole('button', { name: '检查并连接' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '存储空间' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('toast').filter({ hasText: `已连接，可见 ${buckets} 个存储空间。` })).toBeVisible();
  await bucketsInZone(page, 'pek3a', '存储空间').getByRole('link', { name: 'demo-photos' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'photos/' })).toContainText('文件夹');
  await expectNoAxeViolations(page);
});
