import { putBucketAcl } from '../src/api/acl/operations.ts';
import { ALL_USERS_GROUP } from '../src/api/acl/schemas.ts';
import { putBucket } from '../src/api/buckets/operations.ts';
import { getBucketCors } from '../src/api/cors/operations.ts';
import { putObject } from '../src/api/objects/write.ts';
import { listBuckets } from '../src/api/service/operations.ts';
import { startServe, type RunningServe } from '../src/serve/serve.ts';
import { rawHttp } from '../mocks/server-client.ts';
import { DEMO_USER } from '../mocks/seed.ts';
import { ConsolePage, expectNoAxeViolations, bucketsInZone } from './fixtures.ts';
import { connect, expect, fillConnectForm, OTHER_USER, uniqueBucketName, openAdvanced } from './support/emulator.ts';
import { SERVED_DIST, test as base } from './support/serve.ts';

// The console served by `npm run serve` (src/serve/serve.ts) in front of the standalone emulator: the
// production build and the API proxy share one origin, so no request is cross-origin and no bucket needs a
// CORS rule — not even the service-level ListBuckets. The emulator runs in strict CORS mode: any Origin that
// leaked through the proxy would be refused with 403 for the rule-less buckets used here.

const test = base.extend<Record<never, never>, { serveVhost: RunningServe }>({
  // Virtual-host names of the emulator's domain, reached without DNS through --connect-to.
  serveVhost: [
    async ({ emulator }, use) => {
      const running = await startServe({ endpoint: `http://qingstor.local:${emulator.port}`, port: 0, dist: SERVED_DIST, connectTo: { host: '127.0.0.1', port: emulator.port } });
      await use(running);
      await running.close();
    },
    { scope: 'worker' },
  ],
});

test.use({ emulatorOptions: { seed: 'demo', strictCors: true, users: [DEMO_USER, OTHER_USER] } });

test('through the proxy: prefilled Connect, bucket list, a rule-less bucket, details with metadata, paging, download', async ({ page, emulator, api, serve, request }) => {
  const bucket = uniqueBucketName('proxied');
  const ref = { zone: 'pek3a', bucket };
  await putBucket(api, ref);
  await putObject(api, { ...ref, key: 'docs/2024/report.txt', body: 'through the proxy', metadata: { standard: { 'content-type': 'text/plain; charset=utf-8' }, custom: { reviewer: 'Zhang Wei' } } });
  await putObject(api, { ...ref, key: 'docs/readme.md', body: '# docs' });
  expect((await getBucketCors(api, ref)).cors_rules).toEqual([]);
  const buckets = (await listBuckets(api)).count;

  const pageHosts = new Set<string>();
  const pagePaths: string[] = [];
  page.on('request', (r) => {
    pageHosts.add(new URL(r.url()).host);
    pagePaths.push(new URL(r.url()).pathname);
  });
  emulator.clearRequests();
  await page.goto(`${serve.url}/`);
  // The page the proxy sends tells the console where it runs (src/serve/serve-meta.ts): endpoint mode, form
  // prefilled, and neither the demo backend preloaded nor a config request before the first screen.
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  expect(pagePaths.filter((path) => /\/assets\/browser-|^\/_serve\//.test(path))).toEqual([]);
  await expect(page.locator('link[rel="modulepreload"][href^="/assets/browser-"]')).toHaveCount(0);
  await expect(page.getByText(`This console is served by the same-origin proxy for ${emulator.url}`)).toBeVisible();
  await expect(page.getByLabel('Endpoint URL')).toHaveValue(emulator.url);
  await expect(page.getByLabel('Same-origin proxy (optional)')).toHaveValue('/_qs');
  await expect(page.getByText('Demo data — simulated backend')).toHaveCount(0);
  await expectNoAxeViolations(page);

  await openAdvanced(page);
  await page.getByLabel('Zones').fill('pek3a, sh1a');
  await page.getByLabel('Access key ID').fill(DEMO_USER.accessKeyId);
  await page.getByLabel('Secret access key').fill(DEMO_USER.secretAccessKey);
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `Connected. ${buckets} buckets visible.` })).toBeVisible({ timeout: 15_000 });
  const pek3a = bucketsInZone(page, 'pek3a');
  await expect(pek3a.getByRole('link', { name: bucket })).toBeVisible();
  await expect(bucketsInZone(page, 'sh1a').getByRole('link', { name: 'demo-archive' })).toBeVisible();

  // Deep link into the rule-less bucket, then details: custom metadata is readable (same origin, no CORS filter).
  const qs = new ConsolePage(page);
  await page.goto(`${serve.url}/buckets/pek3a/${bucket}?prefix=docs/2024/`);
  await expect(qs.row('report.txt')).toBeVisible();
  await qs.breadcrumbs.getByRole('link', { name: 'docs', exact: true }).click();
  await expect(qs.row('2024/')).toBeVisible();
  await expect(qs.row('readme.md')).toBeVisible();
  await page.goBack();
  await qs.row('report.txt').getByRole('link').click();
  await expect(qs.details).toContainText('text/plain; charset=utf-8');
  await expect(qs.details).toContainText('17 B (17 bytes)');
  await qs.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(qs.details.getByTestId('custom-metadata')).toContainText('Zhang Wei');

  // The pre-signed link goes to the endpoint itself, never through the proxy: object content is not
  // served on the console's origin.
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  const href = (await qs.details.getByTestId('download-link').getAttribute('href')) ?? '';
  expect(href.startsWith(`${emulator.url}/${bucket}/docs/2024/report.txt?`)).toBe(true);
  const fromNode = await request.get(href);
  expect(await fromNode.text()).toBe('through the proxy');
  expect(fromNode.status()).toBe(200);
  expect(fromNode.headers()['content-disposition']).toContain('attachment');

  // Paging a large bucket through the proxy.
  await page.goto(`${serve.url}/buckets/sh1a/demo-archive?flat=1`);
  await expect.poll(() => qs.loadedRows()).toBeGreaterThanOrEqual(100);
  const first = await qs.loadedRows();
  await qs.objectList.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(() => qs.loadedRows(), { timeout: 10_000 }).toBeGreaterThan(first);

  // The browser only ever talked to the serve origin; the emulator saw no Origin and no preflight.
  expect([...pageHosts]).toEqual([new URL(serve.url).host]);
  expect(emulator.requests.length).toBeGreaterThan(5);
  expect(emulator.requests.filter((r) => r.origin !== undefined || r.method === 'OPTIONS')).toEqual([]);
  expect(emulator.requests.every((r) => r.status < 400)).toBe(true);
});

test('through the proxy a wrong secret is still refused: the proxy adds no credentials of its own', async ({ page, emulator, serve }) => {
  await page.goto(`${serve.url}/connect`);
  await expect(page.getByLabel('Same-origin proxy (optional)')).toHaveValue('/_qs');
  await fillConnectForm(page, { endpoint: emulator.url, secretAccessKey: 'not-the-secret-not-the-secret-000000000' });
  const verdict = page.locator('[data-verdict="credentials"]');
  await expect(verdict).toContainText('signature_not_matched', { timeout: 15_000 });
  await expect(verdict.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
});

test('through the proxy in virtual-host style: bucket hosts travel in the proxy path and signatures hold', async ({ page, emulator, serveVhost }) => {
  const endpoint = `http://qingstor.local:${emulator.port}`;
  await page.goto(`${serveVhost.url}/`);
  await expect(page.getByLabel('Endpoint URL')).toHaveValue(endpoint);
  emulator.clearRequests();
  await connect(page, { endpoint, style: 'virtual-host', zoneInHost: true, remember: true });
  const qs = new ConsolePage(page);
  await bucketsInZone(page, 'pek3a').getByRole('link', { name: 'demo-documents' }).click();
  await expect(qs.row('reports/')).toBeVisible();
  await qs.row('reports/').getByRole('link').click();
  await qs.row('quarterly-report.pdf').getByRole('link').click();
  await qs.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(qs.details.getByTestId('custom-metadata')).toContainText('Alice Example');
  const vhost = `demo-documents.pek3a.qingstor.local:${emulator.port}`;
  expect(emulator.requests.some((r) => r.host === vhost && r.method === 'GET' && r.url.startsWith('/?') && r.status === 200)).toBe(true);
  expect(emulator.requests.some((r) => r.host === vhost && r.method === 'HEAD' && r.url === '/reports/quarterly-report.pdf' && r.status === 200)).toBe(true);
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  const href = new URL((await qs.details.getByTestId('download-link').getAttribute('href')) ?? '');
  expect(href.host).toBe(vhost);
  expect(href.pathname).toBe('/reports/quarterly-report.pdf');
  // qingstor.local has no DNS entry: send the link's request to the emulator with its Host, as DNS would.
  const download = await rawHttp({ port: emulator.port, method: 'GET', target: `${href.pathname}${href.search}`, host: href.host });
  expect(download.status).toBe(200);
  expect(download.body.byteLength).toBe(8192);
});

test('through the proxy: hostile keys stay text and keep their bytes, the filter and keyboard work, zh-CN, a request ID to copy', async ({ page, context, emulator, serve }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: serve.url });
  await page.goto(`${serve.url}/connect`);
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto(`${serve.url}/buckets/pek3a/demo-documents`);
  const hostile = '<img src=x onerror=alert(1)>.html';
  for (const name of [hostile, ' !@#$%^&*()`~.txt', 'percent%20literal%2Fslash.txt', '<>?:"{}|_+.txt', '报告/', 'عربي/']) {
    await expect(qs.row(name)).toBeVisible();
  }
  await expect(page.locator('img')).toHaveCount(0);

  // '?', '#', '%' and spaces inside keys survive the trip through the proxy path in both directions.
  emulator.clearRequests();
  for (const key of ['<>?:"{}|_+.txt', ' !@#$%^&*()`~.txt', 'percent%20literal%2Fslash.txt']) {
    await qs.row(key).getByRole('link').click();
    await expect(qs.details.getByTestId('details-key')).toHaveText(key);
    await expect(qs.details).toContainText('text/plain; charset=utf-8');
    await qs.details.getByRole('tab', { name: 'Share' }).click();
    await qs.details.getByRole('button', { name: 'Create download link' }).click();
    const href = new URL((await qs.details.getByTestId('download-link').getAttribute('href')) ?? '');
    expect(href.origin).toBe(emulator.url);
    const download = await rawHttp({ port: emulator.port, method: 'GET', target: `${href.pathname}${href.search}` });
    expect(download.body.toString()).toBe(`Content of ${key}\n`);
    await page.keyboard.press('Escape');
  }
  expect(emulator.requests.filter((r) => r.status >= 400)).toEqual([]);
  await expect(page.locator('img')).toHaveCount(0);

  // Filter from the keyboard: it becomes a server-side prefix, through the proxy.
  emulator.clearRequests();
  await page.keyboard.press('/');
  await expect(qs.filter).toBeFocused();
  await page.keyboard.type('rep');
  await expect(page).toHaveURL(/filter=rep/);
  await expect(qs.row('reports/')).toBeVisible();
  await expect(qs.rows).toHaveCount(1);
  expect(emulator.requests.some((r) => r.method === 'GET' && r.url.startsWith('/demo-documents?') && r.url.includes('prefix=rep'))).toBe(true);
  for (let i = 0; i < 10 && !(await qs.objectList.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(qs.objectList).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/prefix=reports\/$/);

  // zh-CN through the proxy, and a refused request whose ID the user can copy for support.
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await expect(page.getByRole('row').filter({ hasText: 'quarterly-report.pdf' })).toBeVisible();
  await page.goto(`${serve.url}/buckets/pek3a/no-such-bucket-here`);
  const alert = page.getByRole('alert').filter({ hasText: 'bucket_not_exists' });
  await expect(alert).toContainText('该存储空间不存在');
  const requestId = (await alert.getByTestId('request-id').textContent()) ?? '';
  expect(requestId).toMatch(/^[0-9a-f]{16,32}$/);
  await alert.getByRole('button', { name: '复制请求 ID' }).click();
  await expect(alert.getByText('已复制')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(requestId);
});

test('hostile content in a public-read bucket never runs on the console origin through the proxy', async ({ page, context, emulator, api, serve }) => {
  const bucket = uniqueBucketName('hostile');
  const ref = { zone: 'pek3a', bucket };
  await putBucket(api, ref);
  await putBucketAcl(api, ref, [{ grantee: { type: 'group', name: ALL_USERS_GROUP }, permission: 'READ' }]);
  // What a script on the console's origin would do with the remembered session.
  const steal = "localStorage.setItem('stolen', String(sessionStorage.getItem('qsc.session'))); document.title = 'ran';";
  await putObject(api, { ...ref, key: 'evil.html', body: `<!doctype html><title>evil</title><script>${steal}</script><p>hello</p>`, metadata: { standard: { 'content-type': 'text/html' }, custom: {} } });
  await putObject(api, {
    ...ref,
    key: 'evil.svg',
    body: `<svg xmlns="http://www.w3.org/2000/svg"><script>${steal}</script><rect width="10" height="10"/></svg>`,
    metadata: { standard: { 'content-type': 'image/svg+xml' }, custom: {} },
  });
  const host = new URL(emulator.url).host;
  // Anyone may read these objects directly from the endpoint: the content is really there and public.
  expect((await rawHttp({ port: emulator.port, method: 'GET', target: `/${bucket}/evil.html` })).body.toString()).toContain('<script>');

  await page.goto(`${serve.url}/`);
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(bucketsInZone(page, 'pek3a').getByRole('link', { name: bucket })).toBeVisible();
  // The secret the attack is after is in this tab's storage.
  expect(await page.evaluate(() => sessionStorage.getItem('qsc.session'))).toContain(DEMO_USER.secretAccessKey);

  for (const key of ['evil.html', 'evil.svg']) {
    const proxied = `${serve.url}/_qs/${host}/${bucket}/${key}`;
    // Opened in the same tab (a link, a typed URL): the proxy refuses the navigation.
    const response = await page.goto(proxied);
    expect(response?.status()).toBe(403);
    expect(response?.headers()['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(response?.headers()['content-type']).toBe('application/json');
    await expect(page.locator('body')).toContainText('proxy_not_an_api_call');
    expect(await page.title()).not.toBe('ran');

    // Embedded by a page of the console's origin (iframe, object, embed, img): the console's own CSP blocks
    // frames and plugins before any request (it frames nothing: PDF pages are drawn on canvases); were a frame
    // let through, the proxy would refuse it (403) with its sandboxing CSP, its document an opaque origin, never
    // the console's. Images are refused too. Done in a second tab of the same session, whose console lines this
    // test expects.
    const prober = await context.newPage();
    await prober.goto(`${serve.url}/connect`);
    // Each element ends one way or another: it loads, fails, or the page's CSP blocks it (a frame or plugin
    // fires no load event then, but the document gets a securitypolicyviolation naming the directive).
    const embedded = await prober.evaluate(async (url) => {
      const unsettled = new Map<string, (outcome: string) => void>();
      document.addEventListener('securitypolicyviolation', (e) => {
        const tags = e.effectiveDirective === 'frame-src' ? ['iframe'] : e.effectiveDirective === 'object-src' ? ['object', 'embed'] : [];
        const tag = tags.find((t) => unsettled.has(t));
        if (tag !== undefined) unsettled.get(tag)?.(`${tag} blocked`);
      });
      const loads: Array<Promise<string>> = [];
      for (const tag of ['iframe', 'object', 'embed', 'img']) {
        const el = document.createElement(tag);
        loads.push(new Promise((done) => {
          const settle = (outcome: string): void => {
            unsettled.delete(tag);
            done(outcome);
          };
          unsettled.set(tag, settle);
          // A loaded frame reports whether the console could reach into its document (same origin) or not.
          el.addEventListener('load', () =>
            settle(el instanceof HTMLIFrameElement ? `${tag} load, ${el.contentDocument === null ? 'opaque origin' : 'same origin'}` : `${tag} load`),
          );
          el.addEventListener('error', () => settle(`${tag} error`));
        }));
        if (el instanceof HTMLIFrameElement || el instanceof HTMLEmbedElement || el instanceof HTMLImageElement) el.src = url;
        else if (el instanceof HTMLObjectElement) el.data = url;
        document.body.append(el);
      }
      return Promise.all(loads);
    }, proxied);
    expect(embedded).toContain('img error');
    expect(embedded.filter((outcome) => outcome.endsWith(' load') || outcome.endsWith('same origin'))).toEqual([]);
    expect(await prober.evaluate(() => localStorage.getItem('stolen'))).toBeNull();
    await prober.close();
    // Even a script of the console's page that adds the marker gets only an inert answer: sandboxed, never sniffed.
    await page.goto(`${serve.url}/connect`);
    const scripted = await page.evaluate(async (url) => {
      const r = await fetch(url, { headers: { 'x-qsc-proxy': '1' } });
      return { status: r.status, csp: r.headers.get('content-security-policy'), nosniff: r.headers.get('x-content-type-options'), corp: r.headers.get('cross-origin-resource-policy') };
    }, proxied);
    expect(scripted).toEqual({ status: 200, csp: "sandbox; default-src 'none'", nosniff: 'nosniff', corp: 'same-origin' });
  }
  // Nothing ran on the console's origin: no stolen session, in this tab or any other.
  expect(await page.evaluate(() => localStorage.getItem('stolen'))).toBeNull();
  const other = await context.newPage();
  await other.goto(`${serve.url}/connect`);
  expect(await other.evaluate(() => localStorage.getItem('stolen'))).toBeNull();
  // The proxied calls of the console itself keep working in the same tab.
  await page.goto(`${serve.url}/buckets/pek3a/${bucket}`);
  await expect(new ConsolePage(page).row('evil.html')).toBeVisible();
  await expect(new ConsolePage(page).row('evil.svg')).toBeVisible();
});
