import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { openAdvanced } from './support/emulator.ts';

// Endpoint mode without a reachable endpoint: the form, its validation, the network verdict and the
// CORS dialog. Journeys against the standalone emulator live in their own spec.

test('the Connect screen loads without the demo backend and validates its fields', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/connect');
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await expect(page.getByText('Demo data — simulated backend')).toHaveCount(0);
  // Endpoint mode never downloads the emulator chunk nor registers its service worker.
  expect(requested.filter((path) => /mockServiceWorker|\/assets\/browser-/.test(path))).toEqual([]);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  expect(requested.some((path) => path.startsWith('/assets/connect-route-'))).toBe(true);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a full http:// or https:// URL')).toBeVisible();
  await expect(page.getByText('Enter the access key ID.')).toBeVisible();
  await expect(page.getByText('Enter the secret access key.')).toBeVisible();
  await expectNoAxeViolations(page);

  // The form asks for the endpoint, the key id and the secret; the rest waits under "Advanced".
  await expect(page.getByLabel('Endpoint URL')).toBeVisible();
  await expect(page.getByLabel('Access key ID')).toBeVisible();
  await expect(page.getByLabel('Zones')).toBeHidden();
  await expect(page.getByLabel('Same-origin proxy (optional)')).toBeHidden();
  await openAdvanced(page);
  await page.getByLabel('Anonymously, to a public bucket').check();
  await expect(page.getByLabel('Secret access key')).toHaveCount(0);
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByText('A bucket name has 6–63 lowercase letters')).toBeVisible();
});

test('an endpoint where nothing answers is said so plainly, not blamed on CORS', async ({ page }) => {
  await page.goto('/connect');
  await page.getByLabel('Endpoint URL').fill('https://qingstor.invalid');
  await expect(page.getByLabel('Zone in the host name (pek3a.qingstor.com)')).toBeChecked();
  await openAdvanced(page);
  await page.getByLabel('Zones').fill('pek3a, sh1a');
  await page.getByLabel('Access key ID').fill('QSDEMOACCESSKEYID0001');
  await page.getByLabel('Secret access key').fill('not-the-real-secret');
  await page.getByLabel('Bucket', { exact: true }).fill('demo-photos');
  await page.getByRole('button', { name: 'Check and connect' }).click();

  // The host name does not resolve: nothing answered, so this is not a CORS problem (the CORS case,
  // with a server that answers, is in connect-remembered.spec.ts).
  const verdict = page.getByRole('alert').filter({ hasText: 'Nothing answers at' });
  await expect(verdict).toBeVisible({ timeout: 15_000 });
  await expect(verdict).toHaveAttribute('data-reason', 'unreachable');
  await expect(verdict.getByRole('heading')).toHaveText(/^Nothing answers at https:\/\/(pek3a\.)?qingstor\.invalid\.$/);
  await expect(verdict).toContainText('endpoint_unreachable');
  await expect(verdict).toContainText('This is not a CORS problem');
  await expect(verdict.getByRole('button', { name: 'What is CORS and how do I fix it?' })).toHaveCount(0);
  // The secret never reaches the URL.
  expect(page.url()).not.toContain('not-the-real-secret');
  await expectNoAxeViolations(page);
});

test('"Back to demo data" leaves endpoint mode', async ({ page }) => {
  await page.goto('/connect');
  await page.getByRole('button', { name: 'Back to demo data' }).click();
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect to an endpoint' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await page.reload();
  // The choice is per tab and survives a reload, without any secret stored.
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('qsc.session'))).toBeNull();
});

test('a deep link without a connection goes through Connect and keeps where it was going', async ({ page }) => {
  await page.goto('/connect');
  // The tab's choice is recorded during boot; the user sees Connect before following the link.
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await page.goto('/buckets/pek3a/demo-photos?prefix=photos/2024/');
  await expect(page).toHaveURL(/\/connect\?next=\/buckets\/pek3a\/demo-photos%3Fprefix%3Dphotos\/2024\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
});

test("a deep link starts downloading its view with the entry, from index.html's boot script", async ({ page }) => {
  const bucketView = () => page.locator('link[rel="modulepreload"][href^="/assets/bucket-route-"]');
  await page.goto('/buckets/pek3a/demo-photos');
  await expect(page.locator('#main').getByRole('grid')).toBeVisible();
  await expect(bucketView()).toHaveCount(1);
  // The bucket list does not fetch the bucket view's code ahead of a click.
  await page.goto('/');
  await expect(page.locator('#main').getByRole('link', { name: 'demo-archive' })).toBeVisible();
  await expect(bucketView()).toHaveCount(0);
});

test('a first visit and a reload preload the demo backend in a demo tab, and an endpoint tab still never downloads it', async ({ page }) => {
  const demoPreloads = () => page.locator('link[rel="modulepreload"][href^="/assets/browser-"]');
  await page.goto('/');
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  // A first visit outside the serve proxy (no qsc-serve tag in the page) is a demo tab: its backend
  // downloads with the entry, not after it (e2e/proxy.spec.ts: behind the proxy it does not).
  await expect(demoPreloads()).toHaveCount(1);
  await page.reload();
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  await expect(demoPreloads()).toHaveCount(1);
  await expect(page.locator('#main').getByRole('link', { name: 'demo-archive' })).toBeVisible();

  // The same tab switched to endpoint mode: a reload preloads nothing and requests no emulator chunk.
  await page.goto('/connect');
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await expect(demoPreloads()).toHaveCount(0);
  expect(requested.filter((path) => /\/assets\/browser-/.test(path))).toEqual([]);
});
