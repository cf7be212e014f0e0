import net from 'node:net';
import { putBucket } from '../src/api/buckets/operations.ts';
import { putObject } from '../src/api/objects/write.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { connect, expect, test, uniqueBucketName, openAdvanced } from './support/emulator.ts';

// Connections remembered (endpoint, zones, addressing and access key id; the secret only with the tab
// opt-in, never in localStorage), and the two ways a connection can fail without a readable answer.

test.use({ expectCorsBlocks: true });

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

async function storedText(page: import('@playwright/test').Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ ...localStorage }));
}

test('a reload in endpoint mode offers the last connection without its secret; Disconnect forgets it', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: 'pek3a, sh1a' });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  expect(await storedText(page)).not.toContain(DEMO_SECRET_ACCESS_KEY);

  // Not remembered in the tab: the reload forgets the session but offers the connection again.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  const host = new URL(emulator.url).host;
  const label = `${DEMO_ACCESS_KEY_ID} @ ${host}`;
  const recent = page.getByRole('region', { name: 'Recent connections' });
  await expect(recent.getByRole('listitem')).toHaveCount(1);
  await expect(recent.getByRole('listitem')).toContainText(label);
  await expect(recent.getByRole('listitem')).toContainText('path style');
  await expect(page.getByTestId('filled-from-recent')).toHaveText(`The form holds your last connection (${label}). Enter the secret access key to connect again.`);
  await expect(page.getByLabel('Endpoint URL')).toHaveValue(emulator.url);
  await expect(page.getByLabel('Zones')).toHaveValue('pek3a, sh1a');
  await expect(page.getByLabel('Zone in the host name (pek3a.qingstor.com)')).not.toBeChecked();
  await expect(page.getByLabel('Path style (bucket in the path)', { exact: false })).toBeChecked();
  await expect(page.getByLabel('Access key ID')).toHaveValue(DEMO_ACCESS_KEY_ID);
  await expect(page.getByLabel('Secret access key')).toHaveValue('');
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });

  // The secret is typed again, this time kept in the tab: the next offer carries it (sessionStorage only).
  await page.getByLabel('Secret access key').fill(DEMO_SECRET_ACCESS_KEY);
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  expect(await storedText(page)).not.toContain(DEMO_SECRET_ACCESS_KEY);

  // Disconnect forgets this connection: the list no longer offers it and its secret is gone from the tab.
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent connections' })).toHaveCount(0);
  await expect(page.getByTestId('filled-from-recent')).toHaveCount(0);
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(DEMO_SECRET_ACCESS_KEY);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await expect(page.getByLabel('Endpoint URL')).toHaveValue('');
});

test('"Use" fills the form from a past connection, with the secret kept in this tab; "Forget" removes it', async ({ page, emulator }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: 'sh1a', remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  // A second, different connection (another zone list and the other user) made later in the same tab.
  await page.evaluate(() => sessionStorage.removeItem('qsc.session'));
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: 'pek3a', accessKeyId: 'QSOTHERACCESSKEYID002', secretAccessKey: 'otherSecretAccessKey00000000000000000002' });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.evaluate(() => sessionStorage.removeItem('qsc.session'));
  await page.goto('/connect');

  const host = new URL(emulator.url).host;
  const recent = page.getByRole('region', { name: 'Recent connections' });
  await expect(recent.getByRole('listitem')).toHaveCount(2);
  await expect(recent.getByRole('listitem').first()).toContainText(`QSOTHERACCESSKEYID002 @ ${host}`);
  await expect(page.getByLabel('Access key ID')).toHaveValue('QSOTHERACCESSKEYID002');

  await recent.getByRole('button', { name: `Use connection ${DEMO_ACCESS_KEY_ID} @ ${host}` }).click();
  await expect(page.getByLabel('Zones')).toHaveValue('sh1a');
  await expect(page.getByLabel('Access key ID')).toHaveValue(DEMO_ACCESS_KEY_ID);
  await expect(page.getByLabel('Secret access key')).toHaveValue(DEMO_SECRET_ACCESS_KEY);
  await expect(page.getByLabel('Remember in this tab')).toBeChecked();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  // A successful check goes straight into the console; back on Connect, the list is there to forget from.
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible({ timeout: 15_000 });
  await page.evaluate(() => sessionStorage.removeItem('qsc.session'));
  await page.goto('/connect');

  await recent.getByRole('button', { name: `Forget connection QSOTHERACCESSKEYID002 @ ${host}` }).click();
  await expect(recent.getByRole('listitem')).toHaveCount(1);
  expect(await storedText(page)).not.toContain('QSOTHERACCESSKEYID002');
});

test('a server that answers but is blocked by the browser is CORS; a closed port is "nothing answers"', async ({ page, emulator, api, pageOrigin }) => {
  const bucket = uniqueBucketName('no-cors');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putObject(api, { zone: 'pek3a', bucket, key: 'a.txt', body: 'a' });

  await page.goto('/connect');
  await openAdvanced(page);
  await page.getByLabel('Anonymously, to a public bucket').check();
  await page.getByLabel('Endpoint URL').fill(emulator.url);
  await page.getByLabel('Zones').fill('pek3a');
  await page.getByLabel('Bucket', { exact: true }).fill(bucket);
  await page.getByRole('button', { name: 'Check and connect' }).click();
  const cors = page.locator('[data-verdict="network"]');
  await expect(cors).toHaveAttribute('data-reason', 'cors', { timeout: 15_000 });
  await expect(cors).toContainText(`The server at ${emulator.url} answered, but the browser blocked its answer (CORS).`);
  await expect(cors).toContainText('network_error_cors');
  await cors.getByRole('button', { name: 'What is CORS and how do I fix it?' }).click();
  const dialog = page.getByRole('dialog', { name: 'The browser blocked the answer (CORS)' });
  await expect(dialog).toContainText(pageOrigin);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  const port = await closedPort();
  await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${port}`);
  await page.getByRole('button', { name: 'Check and connect' }).click();
  const none = page.getByRole('alert').filter({ hasText: 'Nothing answers at' });
  await expect(none).toBeVisible({ timeout: 15_000 });
  await expect(none).toHaveAttribute('data-reason', 'unreachable');
  await expect(none.getByRole('heading')).toHaveText(`Nothing answers at http://127.0.0.1:${port}.`);
  await expect(none).toContainText('endpoint_unreachable');
  await expect(none.getByRole('button', { name: 'What is CORS and how do I fix it?' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
