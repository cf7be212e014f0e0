import type { Route } from '@playwright/test';
import { getBucketAcl } from '../src/api/acl/operations.ts';
import { putBucket } from '../src/api/buckets/operations.ts';
import { getBucketCors, putBucketCors } from '../src/api/cors/operations.ts';
import { buildCorsRule } from '../src/api/cors/rule.ts';
import { listObjects, nextObjectsMarker } from '../src/api/objects/operations.ts';
import { deleteObject, putObject } from '../src/api/objects/write.ts';
import { pages } from '../src/api/protocol/paging.ts';
import { listAllBuckets } from '../src/api/service/operations.ts';
import { DEMO_USER } from '../mocks/seed.ts';
import { ConsolePage, expectNoAxeViolations, moreAction } from './fixtures.ts';
import { connect, expect, OTHER_USER, uniqueBucketName, type EmulatorHandle, openAdvanced } from './support/emulator.ts';
import { test } from './support/serve.ts';
import type { QsClient } from '../src/api/client.ts';

// Folders and buckets against the standalone emulator: a recursive folder delete of 1,501 keys (counted
// first, two DeleteMultipleObjects batches, progress, a stop between batches), and create bucket →
// settings → public read → an anonymous read, through the same-origin proxy of `npm run serve` (a browser
// cannot create or configure a bucket that has no CORS rule for it yet; the real service is the same).

test.use({ emulatorOptions: { seed: 'demo', users: [DEMO_USER, OTHER_USER] } });

async function countUnder(api: QsClient, bucket: string, prefix: string): Promise<number> {
  let count = 0;
  const listing = pages({
    fetchPage: (marker: string | undefined) => listObjects(api, { zone: 'pek3a', bucket, prefix, marker: marker ?? '', limit: 1000 }),
    nextMarker: nextObjectsMarker,
  });
  for await (const page of listing) count += page.keys.length;
  return count;
}

async function putMany(api: QsClient, bucket: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 100) {
    await Promise.all(keys.slice(i, i + 100).map((key) => putObject(api, { zone: 'pek3a', bucket, key, body: 'x' })));
  }
}

test('delete a folder of 1,501 objects: counted first, deleted in batches with progress, stopped, then finished', async ({ page, emulator, api, pageOrigin }) => {
  test.setTimeout(120_000);
  const bucket = uniqueBucketName('folder-del');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putBucketCors(api, { zone: 'pek3a', bucket }, { cors_rules: [buildCorsRule(pageOrigin)] });
  const keys = ['big/', ...Array.from({ length: 1_499 }, (_, i) => `big/${i < 700 ? 'sub/' : ''}file-${String(i).padStart(4, '0')}.txt`), 'big/last.txt'];
  await putMany(api, bucket, [...keys, 'keep.txt']);
  expect(await countUnder(api, bucket, 'big/')).toBe(1_501);

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.goto(`/buckets/pek3a/${bucket}?prefix=big/`);
  const qs = new ConsolePage(page);
  await expect(qs.row('file-0700.txt')).toBeVisible();

  // Hold the first DeleteMultipleObjects until Stop was pressed: the stop then lands between batches.
  let release: () => void = () => undefined;
  const held = new Promise<void>((done) => {
    release = done;
  });
  let deleteRequests = 0;
  await page.route((url) => url.search === '?delete', async (route: Route) => {
    deleteRequests += 1;
    if (deleteRequests === 1) await held;
    await route.continue();
  });

  await moreAction(page, 'Delete folder…');
  const dialog = page.getByRole('dialog', { name: `Delete folder ${bucket}/big/` });
  await expect(dialog.getByTestId('folder-count')).toHaveText('Objects in this folder and its subfolders: 1,501 (1.5 KiB).', { timeout: 30_000 });
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete all (1,501)' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Deleting' })).toHaveAttribute('max', '1501');
  await expect(dialog).toContainText('Progress: 0 / 1,501');
  await dialog.getByRole('button', { name: 'Stop' }).click();
  await expect(dialog.getByRole('button', { name: 'Stopping after this batch…' })).toBeDisabled();
  release();
  await expect(dialog.getByTestId('folder-result')).toHaveText('Deleted: 1,000 of 1,501.', { timeout: 30_000 });
  await expect(dialog).toContainText('Stopped. Not deleted: 501.');
  expect(deleteRequests).toBe(1);
  expect(await countUnder(api, bucket, 'big/')).toBe(501);
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // Again: the count is fresh. This time the server's answer is made to refuse two keys (the emulator only
  // refuses invalid keys, which a listing never returns), to show how per-key failures are reported.
  await page.unrouteAll({ behavior: 'wait' });
  const refused: string[] = [];
  await page.route((url) => url.search === '?delete', async (route: Route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { deleted: { key: string }[]; errors: { key: string; code: string; message?: string }[] };
    const [a, b, ...rest] = body.deleted;
    const moved = [a, b].filter((e) => e !== undefined);
    refused.push(...moved.map((e) => e.key));
    await route.fulfill({ response, json: { deleted: rest, errors: [...body.errors, ...moved.map((e) => ({ key: e.key, code: 'permission_denied', message: 'refused for the test' }))] } });
  });
  await moreAction(page, 'Delete folder…');
  await expect(dialog.getByTestId('folder-count')).toHaveText(/^Objects in this folder and its subfolders: 501 \(/, { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Delete all (501)' }).click();
  await expect(dialog.getByTestId('folder-result')).toHaveText('Deleted: 499 of 501.', { timeout: 30_000 });
  const failures = dialog.getByRole('alert');
  await expect(failures.getByRole('heading')).toHaveText('Not deleted (2):');
  expect(refused).toHaveLength(2);
  for (const key of refused) await expect(failures.getByRole('listitem').filter({ hasText: key })).toContainText('permission_denied');
  await expect(dialog.getByRole('button', { name: 'Go to the parent folder' })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // A clean run (nothing left but what the server really kept: here nothing) offers the parent folder.
  await page.unrouteAll({ behavior: 'wait' });
  await putMany(api, bucket, ['big/again.txt']);
  await moreAction(page, 'Delete folder…');
  await expect(dialog.getByTestId('folder-count')).toHaveText('Objects in this folder and its subfolders: 1 (1 B).', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Delete all (1)' }).click();
  await expect(dialog.getByTestId('folder-result')).toHaveText('Deleted: 1 of 1.');
  await dialog.getByRole('button', { name: 'Go to the parent folder' }).click();
  await expect(page).toHaveURL(new RegExp(`/buckets/pek3a/${bucket}$`));
  await expect(qs.row('keep.txt')).toBeVisible();
  await expect(qs.row('big/')).toHaveCount(0);
  expect(await countUnder(api, bucket, 'big/')).toBe(0);
  expect(await countUnder(api, bucket, '')).toBe(1);
});

async function anonymousGet(emulator: EmulatorHandle, bucket: string, key: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${emulator.url}/${bucket}/${key}`);
  return { status: response.status, body: await response.text() };
}

test('create bucket → settings → public read on → an anonymous read works; CORS suggestion; a non-empty bucket is not deleted', async ({ page, emulator, api, serve }) => {
  const bucket = uniqueBucketName('created');
  await page.goto(`${serve.url}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Connect to QingStor' })).toBeVisible();
  await openAdvanced(page);
  await page.getByLabel('Zones').fill('pek3a, sh1a');
  await page.getByLabel('Access key ID').fill(DEMO_USER.accessKeyId);
  await page.getByLabel('Secret access key').fill(DEMO_USER.secretAccessKey);
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();

  await page.getByRole('button', { name: 'Create bucket…' }).click();
  const create = page.getByRole('dialog', { name: 'Create bucket' });
  await create.getByLabel('Bucket name').fill('Bad_Name');
  await expect(create.getByText('Use only lower-case letters, digits and "-".')).toBeVisible();
  await expect(create.getByLabel('Bucket name')).toHaveAttribute('aria-invalid', 'true');
  await create.getByLabel('Bucket name').fill(bucket);
  await expect(create.getByLabel('Bucket name')).not.toHaveAttribute('aria-invalid', 'true');
  await create.getByLabel('Zone').selectOption('pek3a');
  await expectNoAxeViolations(page);
  await create.getByRole('button', { name: 'Create bucket' }).click();
  await expect(create).toContainText(`Bucket ${bucket} created in zone pek3a.`);
  // A success in words: the service's request id is for failures.
  await expect(create).not.toContainText(/request id/i);
  expect((await listAllBuckets(api)).find((b) => b.name === bucket)?.location).toBe('pek3a');
  await create.getByRole('link', { name: `Settings of ${bucket}` }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Settings of ${bucket}` })).toBeVisible();
  await expect(page.getByTestId('bucket-stats')).toContainText('Objects0');
  await expect(page.getByTestId('public-read-state')).toHaveText(/Public read is off/);
  await expect(page.getByRole('region', { name: 'CORS rules' })).toContainText('No CORS rules');
  await expect(page.getByRole('region', { name: 'Bucket policy' })).toContainText('No bucket policy');
  await expectNoAxeViolations(page);

  await putObject(api, { zone: 'pek3a', bucket, key: 'hello.txt', body: 'hello, anyone' });
  expect((await anonymousGet(emulator, bucket, 'hello.txt')).status).toBe(403);
  await page.getByRole('button', { name: 'Make public…' }).click();
  const ask = page.getByRole('dialog', { name: `Make ${bucket} public?` });
  await ask.getByRole('textbox', { name: `Type ${bucket} to confirm` }).fill(bucket);
  await ask.getByRole('button', { name: 'Make public' }).click();
  await expect(page.getByTestId('public-read-state')).toHaveText(/Public read is on/);
  expect(await anonymousGet(emulator, bucket, 'hello.txt')).toEqual({ status: 200, body: 'hello, anyone' });
  expect((await getBucketAcl(api, { zone: 'pek3a', bucket })).acl).toContainEqual({ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' });

  // The console's own CORS rule, one click; then a rule of one's own, then removing it again.
  const cors = page.getByRole('region', { name: 'CORS rules' });
  await cors.getByRole('button', { name: "Add the console's rule" }).click();
  await expect(cors).toContainText("This bucket already has the console's rule.");
  expect((await getBucketCors(api, { zone: 'pek3a', bucket })).cors_rules).toEqual([buildCorsRule(serve.url)]);
  const add = cors.getByRole('form', { name: 'Add a rule' });
  await add.getByLabel('Allowed origin').fill('has space');
  await add.getByRole('button', { name: 'Add rule' }).click();
  await expect(add.getByText('Enter an origin such as https://console.example.com (no spaces), or *.')).toBeVisible();
  await add.getByLabel('Allowed origin').fill('https://other.example');
  await add.getByRole('button', { name: 'Add rule' }).click();
  await expect(cors.getByRole('row')).toHaveCount(3);
  expect((await getBucketCors(api, { zone: 'pek3a', bucket })).cors_rules).toEqual([buildCorsRule(serve.url), { allowed_origin: 'https://other.example', allowed_methods: ['GET', 'HEAD'], allowed_headers: ['*'] }]);
  await cors.getByRole('button', { name: 'Remove rule 2 (https://other.example)' }).click();
  await expect(cors.getByRole('row')).toHaveCount(2);
  await expectNoAxeViolations(page);

  // Delete: refused while an object remains, with a plain message; done once it is empty.
  // Deleting asks for the bucket's name, typed, first.
  await page.getByRole('button', { name: `Delete bucket ${bucket}…` }).click();
  const del = page.getByRole('dialog', { name: `Delete bucket ${bucket}` });
  const typed = del.getByRole('textbox', { name: `Type ${bucket} to confirm` });
  await expect(typed).toBeFocused();
  await expect(del.getByRole('button', { name: 'Delete bucket' })).toBeDisabled();
  await typed.fill(bucket);
  await del.getByRole('button', { name: 'Delete bucket' }).click();
  await expect(del.getByRole('alert')).toContainText(`Bucket ${bucket} is not empty (objects: 1), so it was not deleted.`);
  await expect(del.getByRole('button', { name: 'Delete bucket' })).toHaveCount(0);
  await del.getByRole('button', { name: 'Close' }).click();
  await deleteObject(api, { zone: 'pek3a', bucket, key: 'hello.txt' });
  await page.getByRole('button', { name: `Delete bucket ${bucket}…` }).click();
  await expect(typed).toHaveValue('');
  await typed.fill(bucket);
  await del.getByRole('button', { name: 'Delete bucket' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await expect(page.getByRole('link', { name: bucket })).toHaveCount(0);
  expect((await listAllBuckets(api)).some((b) => b.name === bucket)).toBe(false);
});

test.describe('directly to the endpoint', () => {
  test.use({ expectCorsBlocks: true });

  test('creating a bucket straight from the browser is blocked by CORS, and the console says why and what to do', async ({ page, emulator, api }) => {
    const bucket = uniqueBucketName('direct');
    await page.goto('/connect');
    await connect(page, { endpoint: emulator.url, remember: true });
    await page.getByRole('button', { name: 'Create bucket…' }).click();
    const create = page.getByRole('dialog', { name: 'Create bucket' });
    await create.getByLabel('Bucket name').fill(bucket);
    await create.getByRole('button', { name: 'Create bucket' }).click();
    await expect(create.getByRole('alert')).toContainText('network_error_cors', { timeout: 15_000 });
    await expect(create).toContainText('A browser cannot create a bucket on another origin: the new bucket has no CORS rule yet');
    await expectNoAxeViolations(page);
    expect((await listAllBuckets(api)).some((b) => b.name === bucket)).toBe(false);
  });
});
