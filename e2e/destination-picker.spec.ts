import type { QsClient } from '../src/api/client.ts';
import { putBucket } from '../src/api/buckets/operations.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import { expect, test, uniqueBucketName } from './support/emulator.ts';

// The copy/move destination picker: buckets of every zone (another zone's shown disabled with the reason),
// folders browsed with delimiter "/", a new folder typed, the final key shown before the copy, and the
// overwrite question, in demo mode and in endpoint mode over real HTTP.

const META: ObjectMetadata = { standard: { 'content-type': 'text/plain' }, custom: {} };

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

/** A second bucket of the source's zone to copy into (demo: demo-photos; endpoint: a new one the page may use). */
async function destinationBucket(mode: Mode, api: QsClient, pageOrigin: string): Promise<string> {
  if (mode === 'demo') return 'demo-photos';
  const bucket = uniqueBucketName('dest');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putBucketCors(api, { zone: 'pek3a', bucket }, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'], max_age_seconds: 600 }],
  });
  return bucket;
}

async function status(backend: Backend, bucket: string, key: string, method: 'HEAD' | 'PUT'): Promise<number> {
  const answer = await backend.send({ operation: method === 'HEAD' ? 'HeadObject' : 'PutObject', method, zone: backend.zone, bucket, key, ...(method === 'PUT' ? { body: 'x' } : {}) });
  return answer.status;
}

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test('copy into a bucket chosen from the all-zones list and a subfolder found by browsing; the final key shows first; an existing one is asked about', async ({ page, emulator, api, pageOrigin }) => {
      const backend = mode === 'demo' ? await demoBackend(page) : await endpointBackend(page, emulator, api, pageOrigin);
      const dest = await destinationBucket(mode, api, pageOrigin);
      const prefix = uniquePrefix('pick');
      const key = `${prefix}a.txt`;
      await backend.put(key, META, 'source');
      expect(await status(backend, dest, `${prefix}sub/deeper/x.txt`, 'PUT')).toBe(201);
      const details = page.getByRole('complementary', { name: 'Object details' });
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));

      await details.getByRole('button', { name: 'Copy…' }).click();
      const dialog = page.getByRole('dialog', { name: `Copy ${key}` });
      await dialog.getByRole('button', { name: 'Browse…' }).click();
      const picker = dialog.getByRole('region', { name: 'Choose the destination folder' });
      // It opens at the source's folder; the breadcrumb leads back to every bucket.
      const path = picker.getByRole('navigation', { name: 'Destination path' });
      await expect(path.locator('[aria-current="location"]')).toHaveText(prefix.slice(0, -1));
      await path.getByRole('button', { name: 'Buckets', exact: true }).click();
      const buckets = picker.getByRole('list', { name: 'Buckets' });
      // Another zone's bucket is listed, but disabled with the reason; choosing it does nothing.
      const archive = buckets.getByRole('button', { name: /^demo-archive/ });
      await expect(archive).toHaveAttribute('aria-disabled', 'true');
      await expect(archive).toContainText('zone sh1a: copies stay within pek3a');
      // (Playwright does not click an aria-disabled control unless forced; a user's click still lands.)
      await archive.click({ force: true });
      await expect(buckets).toBeVisible();
      await expect(picker.getByRole('list', { name: 'Folders in demo-archive/' })).toHaveCount(0);
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'light' });

      // The filter narrows the list by name.
      await picker.getByRole('searchbox', { name: 'Filter buckets' }).fill(dest);
      await expect(buckets.getByRole('button')).toHaveCount(1);
      await picker.getByRole('searchbox', { name: 'Filter buckets' }).fill('no-such-bucket');
      await expect(picker.getByText('No bucket name contains “no-such-bucket”.')).toBeVisible();
      await picker.getByRole('searchbox', { name: 'Filter buckets' }).fill('');
      await buckets.getByRole('button', { name: new RegExp(`^${dest}`) }).click();
      await picker.getByRole('list', { name: `Folders in ${dest}/` }).getByRole('button', { name: prefix, exact: true }).click();
      const folders = picker.getByRole('list', { name: `Folders in ${dest}/${prefix}` });
      await expect(folders.getByRole('button')).toHaveText(['sub/']);
      await folders.getByRole('button', { name: 'sub/' }).click();
      await picker.getByRole('button', { name: `Use ${dest}/${prefix}sub/` }).click();
      await expect(picker).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Browse…' })).toBeFocused();
      await expect(dialog.getByLabel('Destination bucket')).toHaveValue(dest);
      await expect(dialog.getByLabel('Destination key')).toHaveValue(`${prefix}sub/a-copy.txt`);
      await expect(dialog.getByTestId('final-destination')).toHaveText(`Will be written to ${dest}/${prefix}sub/a-copy.txt`);
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByText(`Copied to ${prefix}sub/a-copy.txt.`)).toBeVisible();
      expect(await status(backend, dest, `${prefix}sub/a-copy.txt`, 'HEAD')).toBe(200);
      await dialog.getByRole('button', { name: 'Close' }).last().click();

      // The same destination again: the overwrite question comes before anything is written.
      await details.getByRole('button', { name: 'Copy…' }).click();
      await dialog.getByRole('button', { name: 'Browse…' }).click();
      await picker.getByRole('navigation', { name: 'Destination path' }).getByRole('button', { name: 'Buckets', exact: true }).click();
      await buckets.getByRole('button', { name: new RegExp(`^${dest}`) }).click();
      await picker.getByRole('list', { name: `Folders in ${dest}/` }).getByRole('button', { name: prefix, exact: true }).click();
      await folders.getByRole('button', { name: 'sub/' }).click();
      await picker.getByRole('button', { name: `Use ${dest}/${prefix}sub/` }).click();
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByTestId('overwrite-confirm')).toContainText(`An object already exists at ${prefix}sub/a-copy.txt`);

      // A bucket of another zone typed by hand: the picker says why instead of listing it.
      await dialog.getByLabel('Destination bucket').fill('demo-archive');
      await dialog.getByRole('button', { name: 'Browse…' }).click();
      await expect(picker.getByRole('alert')).toContainText('demo-archive is in zone sh1a, this object is in pek3a');
      await expect(picker.getByRole('list', { name: /^Folders in/ })).toHaveCount(0);
    });

    test('keyboard only: several objects copied into a new folder typed in the picker', async ({ page, emulator, api, pageOrigin }) => {
      const backend = mode === 'demo' ? await demoBackend(page) : await endpointBackend(page, emulator, api, pageOrigin);
      const prefix = uniquePrefix('keys');
      for (const name of ['one.txt', 'two.txt']) await backend.put(`${prefix}${name}`, META);
      expect(await status(backend, backend.bucket, `${prefix}old/x.txt`, 'PUT')).toBe(201);
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
      await expect(page.getByRole('grid').getByRole('checkbox', { name: 'Select two.txt', exact: true })).toBeVisible();
      for (const name of ['one.txt', 'two.txt']) await page.getByRole('grid').getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
      await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Copy…', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Copy 2 objects' });
      const browse = dialog.getByRole('button', { name: 'Browse…' });
      // Tab to "Browse…" and open it with the keyboard.
      for (let i = 0; i < 6 && !(await browse.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await expect(browse).toBeFocused();
      await page.keyboard.press('Enter');
      const picker = dialog.getByRole('region', { name: 'Choose the destination folder' });
      await expect(picker).toBeFocused();
      // Tab reaches the folder list (one stop), the arrows walk it, Enter opens the folder.
      const folders = picker.getByRole('list', { name: `Folders in ${backend.bucket}/${prefix}` });
      const old = folders.getByRole('button', { name: 'old/' });
      for (let i = 0; i < 6 && !(await old.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await expect(old).toBeFocused();
      await page.keyboard.press('End');
      await expect(old).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(picker.locator('[aria-current="location"]')).toHaveText('old');
      // A new folder: typed, Enter opens it (and does not submit the dialog).
      const name = picker.getByLabel('New folder');
      for (let i = 0; i < 8 && !(await name.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await expect(name).toBeFocused();
      await page.keyboard.type('新/');
      await page.keyboard.press('Enter');
      await expect(picker.getByText('Type a folder name without “/”.')).toBeVisible();
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Enter');
      await expect(picker.locator('[aria-current="location"]')).toHaveText('新');
      await expect(picker.getByText('No folders here.')).toBeVisible();
      await expectNoAxeViolations(page, 'dialog');
      const use = picker.getByRole('button', { name: `Use ${backend.bucket}/${prefix}old/新/` });
      for (let i = 0; i < 8 && !(await use.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(dialog.getByLabel('Destination folder')).toHaveValue(`${prefix}old/新/`);
      await expect(dialog.getByTestId('final-destinations').getByRole('listitem')).toHaveText([`${backend.bucket}/${prefix}old/新/one.txt`, `${backend.bucket}/${prefix}old/新/two.txt`]);
      await dialog.getByRole('button', { name: 'Start' }).press('Enter');
      await expect(dialog.getByTestId('transfer-result')).toHaveText(`Copied 2 objects to ${backend.bucket}/${prefix}old/新/.`);
      expect(await backend.head(`${prefix}old/新/two.txt`)).toEqual(META);
    });
  });
}

test('endpoint mode: a destination whose HEAD fails with 403 is not taken as free: the copy asks, and writes only when told', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const prefix = uniquePrefix('unknown');
  const key = `${prefix}a.txt`;
  await backend.put(key, META, 'source');
  await page.route(
    (url) => url.pathname.endsWith(`/${prefix}hidden.txt`),
    async (route) => {
      if (route.request().method() !== 'HEAD') return route.continue();
      return route.fulfill({ status: 403, headers: { 'access-control-allow-origin': pageOrigin, 'access-control-expose-headers': 'x-qs-request-id', 'x-qs-request-id': 'e2e-403' } });
    },
  );
  await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));
  const details = page.getByRole('complementary', { name: 'Object details' });
  await details.getByRole('button', { name: 'Copy…' }).click();
  const dialog = page.getByRole('dialog', { name: `Copy ${key}` });
  await dialog.getByLabel('Destination key').fill(`${prefix}hidden.txt`);
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  const question = dialog.getByTestId('overwrite-confirm');
  await expect(question).toContainText(`Could not check whether an object already exists at ${prefix}hidden.txt`);
  expect(await backend.head(`${prefix}hidden.txt`)).toBeNull();
  await question.getByRole('button', { name: 'Write anyway' }).click();
  await expect(dialog.getByText(`Copied to ${prefix}hidden.txt.`)).toBeVisible();
  expect(await backend.head(`${prefix}hidden.txt`)).toEqual(META);
});
