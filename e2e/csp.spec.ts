import http from 'node:http';
import type { BrowserContext, Page } from '@playwright/test';
import { putBucket } from '../src/api/buckets/operations.ts';
import { putObject } from '../src/api/objects/write.ts';
import { consoleSecurityHeaders } from '../src/serve/headers.ts';
import type { RunningServe } from '../src/serve/serve.ts';
import { createStaticSite } from '../src/serve/static.ts';
import { rawHttp } from '../mocks/server-client.ts';
import { ConsolePage, bucketsInZone, moreAction } from './fixtures.ts';
import { connect, expect, uniqueBucketName } from './support/emulator.ts';
import { SERVED_DIST, test as base } from './support/serve.ts';
import { dropFiles } from './uploads-drop.ts';

// Every screen of the built console under the Content-Security-Policy `npm run serve` sends
// (src/serve/headers.ts): no inline script, no eval, only its own scripts and styles, API calls only to
// itself and the endpoint. Any violation (reported by the browser as a securitypolicyviolation event in the
// page, or as an error in a worker's console) fails the test; the page fixture also fails on console errors.

const test = base.extend<{ violations: string[] }>({
  violations: async ({ context }, use) => {
    await use(await watchViolations(context));
  },
});

async function watchViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report: unknown = Reflect.get(window, '__reportCspViolation');
      if (typeof report === 'function') report(`${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  context.on('page', (page) => watchWorkers(page, violations));
  return violations;
}

function watchWorkers(page: Page, violations: string[]): void {
  page.on('worker', (worker) => {
    worker.on('console', (message) => {
      if (message.type() === 'error') violations.push(`worker ${worker.url()}: ${message.text()}`);
    });
  });
}

/** Proves the watcher sees what the CSP blocks (a check that cannot fail proves nothing). */
async function expectWatcherWorks(context: BrowserContext, serve: RunningServe, violations: string[]): Promise<void> {
  const canary = await context.newPage();
  await canary.goto(`${serve.url}/connect`);
  await canary.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'document.title = "inline ran"';
    document.body.append(script);
  });
  await expect.poll(() => violations.join('\n')).toContain('script-src-elem');
  expect(await canary.title()).not.toBe('inline ran');
  await canary.close();
  violations.length = 0;
}

test('every screen loads under the CSP with no violation (through the proxy)', async ({ page, context, serve, violations, api, emulator }) => {
  watchWorkers(page, violations);
  await expectWatcherWorks(context, serve, violations);
  const bucket = uniqueBucketName('csp');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putObject(api, { zone: 'pek3a', bucket, key: 'one.txt', body: 'one', metadata: { standard: { 'content-type': 'text/plain' }, custom: { owner: 'csp' } } });
  await putObject(api, { zone: 'pek3a', bucket, key: 'two.txt', body: 'two' });

  // Connect (the first screen against an endpoint).
  const response = await page.goto(`${serve.url}/`);
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  // The form comes prefilled with the endpoint and the proxy.
  await connect(page, { endpoint: emulator.url, remember: true });

  // Bucket list.
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await expect(bucketsInZone(page, 'pek3a').getByRole('link', { name: bucket })).toBeVisible();

  // Object browser, details, download link, metadata editor.
  const qs = new ConsolePage(page);
  await bucketsInZone(page, 'pek3a').getByRole('link', { name: bucket }).click();
  await expect(qs.row('one.txt')).toBeVisible();
  await qs.row('one.txt').getByRole('link').click();
  await qs.details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(qs.details.getByTestId('custom-metadata')).toContainText('csp');
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  await expect(qs.details.getByTestId('download-link')).toBeVisible();
  await qs.details.getByRole('tab', { name: 'Metadata' }).click();
  await qs.details.getByRole('button', { name: 'Edit metadata' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit metadata of one.txt' });
  await expect(editor.getByRole('button', { name: 'Add key' })).toBeVisible();
  await editor.getByRole('button', { name: 'Close' }).first().click();

  // Copy dialog, selection with bulk actions, create folder.
  await qs.details.getByRole('tab', { name: 'Overview' }).click();
  await qs.details.getByRole('button', { name: 'Copy…' }).click();
  const copy = page.getByRole('dialog').filter({ hasText: 'one.txt' });
  await expect(copy.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await copy.getByRole('button', { name: 'Cancel' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('grid').getByRole('checkbox', { name: 'Select one.txt', exact: true }).check();
  await page.getByRole('grid').getByRole('checkbox', { name: 'Select two.txt', exact: true }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Edit metadata of 2 objects' }).click();
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of 2 objects' });
  await expect(bulk).toBeVisible();
  await bulk.getByRole('button', { name: 'Close' }).first().click();

  // Upload panel and a verified form upload (MD5 in the worker, WebAssembly under the CSP).
  await page.goto(`${serve.url}/buckets/pek3a/${bucket}`);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: `Upload to ${bucket}` });
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'three.txt', text: 'three\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(panel.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: 'three.txt' })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });

  // Multipart uploads list and one upload's parts.
  await page.goto(`${serve.url}/buckets/sh1a/demo-uploads/uploads`);
  const uploads = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(uploads.getByRole('row').nth(1)).toBeVisible();
  await uploads.getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page.getByTestId('upload-id')).toBeVisible();

  // Bucket settings, a recursive folder delete's count, and the create-bucket dialog.
  await page.goto(`${serve.url}/buckets/pek3a/${bucket}/settings`);
  await expect(page.getByTestId('public-read-state')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bucket policy' })).toContainText('No bucket policy');
  await putObject(api, { zone: 'pek3a', bucket, key: 'folder/a.txt', body: 'a' });
  await page.goto(`${serve.url}/buckets/pek3a/${bucket}?prefix=folder/`);
  await moreAction(page, 'Delete folder…');
  await expect(page.getByTestId('folder-count')).toContainText('1 (1 B)');
  await page.keyboard.press('Escape');
  await page.goto(`${serve.url}/`);
  await page.getByRole('button', { name: 'Create bucket…' }).click();
  await expect(page.getByRole('dialog', { name: 'Create bucket' }).getByLabel('Bucket name')).toBeFocused();
  await page.keyboard.press('Escape');

  // Chinese, and the not-found page.
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await page.goto(`${serve.url}/no/such/screen`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  expect(violations).toEqual([]);
});

test('object previews (image, PDF drawn by its worker, text) and Download load under the CSP from the endpoint only', async ({ page, context, serve, violations, emulator }) => {
  watchWorkers(page, violations);
  await expectWatcherWorks(context, serve, violations);
  await page.goto(`${serve.url}/`);
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto(`${serve.url}/buckets/pek3a/demo-documents?prefix=samples/&object=samples/chart.png`);
  await qs.details.getByRole('tab', { name: 'Preview' }).click();
  const image = qs.details.getByRole('img', { name: 'Preview of chart.png' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  // A PDF is read through the proxy and drawn by pdf.js, whose worker is a file of the console (worker-src 'self').
  await qs.row('summary.pdf').getByRole('link').click();
  await expect(qs.details.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(qs.details.locator('figure.preview__pdf-page').first()).toHaveAttribute('data-state', 'drawn');
  expect(context.pages()).toEqual([page]);
  // A real worker, not pdf.js's stand-in on the page's thread (what it falls back to when a worker is refused).
  expect(page.workers().map((worker) => worker.url()).some((url) => /\/assets\/pdf\.worker\.min-[\w-]+\.mjs$/.test(url))).toBe(true);
  await qs.row('notes.txt').getByRole('link').click();
  await expect(qs.details.getByTestId('preview-text')).toContainText('Release notes');
  const [download] = await Promise.all([page.waitForEvent('download'), qs.details.getByRole('button', { name: 'Download notes.txt' }).click()]);
  expect(download.suggestedFilename()).toBe('notes.txt');
  expect(violations).toEqual([]);
  // img-src allows the endpoint, not any host: an image from elsewhere is blocked and reported (on a page of
  // its own, whose console error is expected).
  const canary = await context.newPage();
  await canary.goto(`${serve.url}/connect`);
  await canary.evaluate(() => {
    const img = document.createElement('img');
    img.src = 'https://example.invalid/x.png';
    document.body.append(img);
  });
  await expect.poll(() => violations.join('\n')).toContain('img-src blocked https://example.invalid/x.png');
  await canary.close();
});

test.describe('directly to the endpoint', () => {
  // Service-level calls are open to browsers (as on QingStor); the new bucket has no CORS rule.
  test.use({ expectCorsBlocks: true });

  test('the CORS help and direct API calls load under the CSP with no violation', async ({ page, context, serve, violations, api, emulator }) => {
    watchWorkers(page, violations);
    await expectWatcherWorks(context, serve, violations);
    const bucket = uniqueBucketName('csp-cors');
    await putBucket(api, { zone: 'pek3a', bucket });
    await page.goto(`${serve.url}/connect`);
    // Without the proxy: the page calls the endpoint itself, which connect-src allows.
    await connect(page, { endpoint: emulator.url, proxy: '', remember: true });
    await page.getByRole('main').getByRole('link', { name: bucket }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('network_error_cors', { timeout: 15_000 });
    await alert.getByRole('button', { name: 'What is CORS and how do I fix it?' }).click();
    await expect(page.getByRole('dialog', { name: 'The browser blocked the answer (CORS)' })).toBeVisible();
    expect(violations).toEqual([]);
  });
});

test('the demo (dist/ hosted elsewhere with the README headers, no proxy) runs under the same CSP', async ({ page, context, violations }) => {
  // The headers README.md gives for hosting dist/ elsewhere; the demo backend is answered in the browser.
  const site = createStaticSite(SERVED_DIST, consoleSecurityHeaders(new URL('https://qingstor.com')));
  const server = http.createServer((req, res) => site.handle(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const origin = `http://127.0.0.1:${address.port}`;
  try {
    watchWorkers(page, violations);
    await page.goto(`${origin}/`);
    const qs = new ConsolePage(page);
    await expect(qs.demoBadge).toBeVisible();
    await expect(bucketsInZone(page, 'pek3a').getByRole('link', { name: 'demo-documents' })).toBeVisible();
    await bucketsInZone(page, 'pek3a').getByRole('link', { name: 'demo-documents' }).click();
    await expect(qs.row('reports/')).toBeVisible();
    // The object table's row menu (Radix positions it with inline styles), a drop on the list, a toast,
    // Count all, and a Download from the menu (saved from a blob URL in the demo).
    await qs.row('reports/').getByRole('button', { name: 'Actions for reports/' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Open' }).click();
    await expect(qs.row('readme.md')).toBeVisible();
    await dropFiles(qs.objectList, [{ path: 'csp-drop.txt', text: 'dropped under the CSP\n', type: 'text/plain' }]);
    await expect(page.getByTestId('toast').filter({ hasText: 'Uploaded 1 file to demo-documents/reports/.' })).toBeVisible();
    await page.getByRole('button', { name: 'Count all' }).click();
    await expect(page.getByTestId('count-all')).toHaveText(/^3 objects under demo-documents\/reports\//);
    const saved = page.waitForEvent('download');
    await qs.row('csp-drop.txt').getByRole('button', { name: 'Actions for csp-drop.txt' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Download' }).click();
    expect((await saved).suggestedFilename()).toBe('csp-drop.txt');
    await page.getByRole('link', { name: 'demo-documents' }).first().click();
    await expect(qs.row('reports/')).toBeVisible();
    // Previews in demo mode come from the console's own origin (the demo worker), allowed by 'self' alone.
    await page.goto(`${origin}/buckets/pek3a/demo-documents?prefix=samples/&object=samples/chart.png`);
    await qs.details.getByRole('tab', { name: 'Preview' }).click();
    await expect.poll(() => qs.details.getByRole('img', { name: 'Preview of chart.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
    await qs.row('summary.pdf').getByRole('link').click();
    // The PDF is drawn by pdf.js, its worker a file of this origin (worker-src 'self').
    await expect(qs.details.getByRole('figure', { name: /^Page 1 of \d+ of summary\.pdf$/ })).toHaveAttribute('data-state', 'drawn');
    expect(violations).toEqual([]);
    await page.goto(`${origin}/buckets/pek3a/demo-documents`);
    await expect(qs.row('reports/')).toBeVisible();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Upload to demo-documents' });
    await dropFiles(panel.getByTestId('dropzone'), [{ path: 'csp-demo.txt', text: 'demo under the CSP\n', type: 'text/plain' }]);
    await panel.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(panel.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: 'csp-demo.txt' })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await page.goto(`${origin}/buckets/sh1a/demo-uploads/uploads`);
    await expect(page.getByRole('table', { name: 'Uploads not yet completed' }).getByRole('row').nth(1)).toBeVisible();
    expect(violations).toEqual([]);
    // The canary on this origin too: the watcher sees what this CSP blocks.
    await expectWatcherWorks(context, { url: origin, port: address.port, close: async () => undefined }, violations);
  } finally {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }
});

test('the build as npm run serve sends it: index.html, a hashed script and a proxied call, with their headers', async ({ serve, emulator }) => {
  const index = await rawHttp({ port: serve.port, method: 'GET', target: '/', headers: { 'accept-encoding': 'br, gzip' } });
  expect(index.status).toBe(200);
  expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(index.headers['cache-control']).toBe('no-cache');
  expect(index.headers['content-security-policy']).toBe(consoleSecurityHeaders(new URL(emulator.url))['content-security-policy']);
  expect(index.headers['x-content-type-options']).toBe('nosniff');
  expect(index.headers['referrer-policy']).toBe('no-referrer');
  expect(index.headers['x-frame-options']).toBe('DENY');
  const plainIndex = (await rawHttp({ port: serve.port, method: 'GET', target: '/' })).body.toString();
  const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(plainIndex)?.[1] ?? '';
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);

  const script = await rawHttp({ port: serve.port, method: 'GET', target: entry, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
  expect(script.status).toBe(200);
  expect(script.headers['content-encoding']).toBe('br');
  expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(script.headers['content-security-policy']).toContain("script-src 'self'");
  const identity = await rawHttp({ port: serve.port, method: 'GET', target: entry });
  expect(script.body.length).toBeLessThan(identity.body.length / 2);

  const host = new URL(emulator.url).host;
  const proxied = await rawHttp({ port: serve.port, method: 'GET', target: `/_qs/${host}/`, headers: { 'x-qsc-proxy': '1', 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'same-origin' } });
  // Unsigned: the emulator refuses it, and the answer still comes back inert.
  expect(proxied.status).toBe(403);
  expect(JSON.parse(proxied.body.toString())).toMatchObject({ code: 'permission_denied' });
  expect(proxied.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
  expect(proxied.headers['x-content-type-options']).toBe('nosniff');
  expect(proxied.headers['cross-origin-resource-policy']).toBe('same-origin');
});
