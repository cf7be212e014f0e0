import { ConsolePage, expectNoAxeViolations, bucketsInZone } from './fixtures.ts';
import { connect, expect, test as base, openAdvanced } from './support/emulator.ts';

// Virtual-host style against the standalone emulator: the console addresses `qingstor.local` (service),
// `<zone>.qingstor.local` and `<bucket>.<zone>.qingstor.local` (ref §1.1) on the emulator's port.
// Chromium resolves those names to the loopback relay through --host-resolver-rules (the port is kept),
// so every bucket host is its own origin with its own CORS (and the preflights of writes).
const test = base.extend<Record<never, never>>({
  launchOptions: [
    async ({ launchOptions }, use) => {
      const rules = '--host-resolver-rules=MAP qingstor.local 127.0.0.1,MAP *.qingstor.local 127.0.0.1';
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), rules] });
    },
    { scope: 'worker' },
  ],
});

test('virtual-host style: service, zone and bucket hosts each answer with real CORS', async ({ page, emulator, pageOrigin }) => {
  const port = emulator.port;
  const endpoint = `http://qingstor.local:${port}`;
  await page.goto('/connect');
  await page.getByLabel('Endpoint URL').fill(endpoint);
  // A DNS name can carry zone labels: the form suggests them.
  await expect(page.getByLabel('Zone in the host name (pek3a.qingstor.com)')).toBeChecked();
  emulator.clearRequests();
  await connect(page, { endpoint, style: 'virtual-host', remember: true });
  await expect(bucketsInZone(page, 'pek3a').getByRole('link', { name: 'demo-photos' })).toBeVisible();
  // ListBuckets went to the global service host (all zones, ref §9.1).
  expect(emulator.requests.some((r) => r.method === 'GET' && r.host === `qingstor.local:${port}` && /^\/\?/.test(r.url) && r.status === 200)).toBe(true);

  const qs = new ConsolePage(page);
  await page.getByRole('main').getByRole('link', { name: 'demo-photos' }).click();
  await expect(qs.row('photos/')).toBeVisible();
  await qs.row('photos/').getByRole('link').click();
  await qs.row('2024/').getByRole('link').click();
  await qs.row('06/').getByRole('link').click();
  await expect(qs.row('街景.png')).toBeVisible();
  const vhost = `demo-photos.pek3a.qingstor.local:${port}`;
  const listed = emulator.requests.filter((r) => r.host === vhost);
  // The bucket is in the host, so the listing is `GET /?...` there, signed in its query for the resource
  // `/demo-photos/` (ref §2.3, §2.5) and sent without a preflight.
  expect(listed.some((r) => r.method === 'GET' && r.url.startsWith('/?') && r.url.includes('prefix=photos%2F2024%2F06%2F') && r.url.includes('&signature=') && r.origin === pageOrigin && r.status === 200)).toBe(true);
  expect(listed.filter((r) => r.method === 'OPTIONS' && r.preflightMethod === 'GET')).toEqual([]);
  expect(emulator.requests.some((r) => r.url.startsWith('/demo-photos'))).toBe(false);

  await qs.row('街景.png').getByRole('link').click();
  await expect(qs.details.getByTestId('details-key')).toHaveText('photos/2024/06/街景.png');
  await expect(qs.details).toContainText('image/png');
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  const href = (await qs.details.getByTestId('download-link').getAttribute('href')) ?? '';
  expect(href.startsWith(`http://${vhost}/photos/2024/06/%E8%A1%97%E6%99%AF.png?`)).toBe(true);
  const fetched = await page.evaluate(async (u) => {
    const response = await fetch(u);
    return { status: response.status, type: response.headers.get('content-type'), size: (await response.arrayBuffer()).byteLength };
  }, href);
  expect(fetched.status).toBe(200);
  expect(fetched.type).toBe('image/png');
  expect(fetched.size).toBeGreaterThan(0);
  await expectNoAxeViolations(page);
});

test('virtual-host style: a wrong secret is refused on the service host with the request id', async ({ page, emulator }) => {
  await page.goto('/connect');
  await page.getByLabel('Endpoint URL').fill(`http://qingstor.local:${emulator.port}`);
  await openAdvanced(page);
  await page.getByLabel('Virtual-host style (bucket in the host name)').check();
  await page.getByLabel('Access key ID').fill('QSDEMOACCESSKEYID0001');
  await page.getByLabel('Secret access key').fill('wrong-secret-wrong-secret-wrong-secret-00');
  await page.getByRole('button', { name: 'Check and connect' }).click();
  const verdict = page.locator('[data-verdict="credentials"]');
  await expect(verdict).toContainText('signature_not_matched', { timeout: 15_000 });
  await expect(verdict.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
});
