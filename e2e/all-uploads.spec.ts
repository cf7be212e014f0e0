import { listMultipartUploads } from '../src/api/multipart/operations.ts';
import { expect as demoExpect, expectNoAxeViolations, test as demoTest } from './fixtures.ts';
import { connect, expect, test } from './support/emulator.ts';

// In-progress uploads of every bucket in one table (the view across buckets), in the demo and in endpoint
// mode against the standalone emulator over real HTTP.

const DAY_MS = 86_400_000;

test('endpoint: uploads of buckets in two zones in one table, oldest first; filtered by age; two aborted across buckets, the service keeps the third', async ({ page, emulator, api }) => {
  const { store } = emulator.server;
  // Backdated uploads: the store hands out its own record, whose start time the test moves into the past.
  const old = store.initiateMultipartUpload('demo-uploads', 'e2e-all/ten-days.bin', {});
  old.created.setTime(Date.now() - 10 * DAY_MS);
  const older = store.initiateMultipartUpload('demo-photos', 'e2e-all/twelve-days.bin', {});
  older.created.setTime(Date.now() - 12 * DAY_MS);
  store.uploadPart('demo-photos', 'e2e-all/twelve-days.bin', older.uploadId, 1, { body: new Uint8Array(300) });
  const fresh = store.initiateMultipartUpload('demo-documents', 'e2e-all/today.bin', {});

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.getByRole('link', { name: 'In-progress uploads, all buckets' }).click();
  await expect(page).toHaveURL(/\/uploads$/);
  await expect(page.getByRole('heading', { level: 1, name: 'In-progress uploads in all buckets' })).toBeVisible();
  await expect(page).toHaveTitle(/Multipart uploads in all buckets/);
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  const rowOf = (key: string) => table.getByRole('row', { name: new RegExp(key.replace(/[.]/g, '\\.')) });
  await expect(rowOf('e2e-all/twelve-days.bin')).toContainText('demo-photos (pek3a)');
  await expect(rowOf('e2e-all/twelve-days.bin')).toContainText('12 days');
  await expect(rowOf('e2e-all/twelve-days.bin')).toContainText('300 B');
  await expect(rowOf('e2e-all/ten-days.bin')).toContainText('demo-uploads (sh1a)');
  await expect(rowOf('e2e-all/today.bin')).toContainText('demo-documents (pek3a)');
  // Oldest first, whichever bucket they are in.
  const keys = await table.getByRole('link', { name: /^e2e-all\// }).allTextContents();
  expect(keys).toEqual(['e2e-all/twelve-days.bin', 'e2e-all/ten-days.bin', 'e2e-all/today.bin']);
  await expect(page.getByTestId('uploads-status')).toContainText('of 5 buckets');
  await expectNoAxeViolations(page);

  await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Older than 7 days' });
  await expect(rowOf('e2e-all/today.bin')).toHaveCount(0);
  await expect(rowOf('e2e-all/ten-days.bin')).toBeVisible();
  await page.getByLabel('Select the upload of e2e-all/ten-days.bin in demo-uploads').check();
  await page.getByLabel('Select the upload of e2e-all/twelve-days.bin in demo-photos').check();
  await page.getByRole('button', { name: 'Abort 2 uploads…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort 2 uploads?' });
  await expect(dialog.getByRole('listitem')).toHaveText(['demo-photos/e2e-all/twelve-days.bin', 'demo-uploads/e2e-all/ten-days.bin']);
  await dialog.getByLabel('Type abort to confirm').fill('abort');
  await dialog.getByRole('button', { name: 'Abort 2 uploads' }).click();
  await expect(page.getByText('2 uploads aborted; their parts were deleted.')).toBeVisible();
  await expect(rowOf('e2e-all/ten-days.bin')).toHaveCount(0);
  await expect(rowOf('e2e-all/twelve-days.bin')).toHaveCount(0);

  const left = async (zone: string, bucket: string) => (await listMultipartUploads(api, { zone, bucket, prefix: 'e2e-all/' })).uploads.map((u) => u.upload_id);
  expect(await left('sh1a', 'demo-uploads')).toEqual([]);
  expect(await left('pek3a', 'demo-photos')).toEqual([]);
  expect(await left('pek3a', 'demo-documents')).toEqual([fresh.uploadId]);
  await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Any age' });
  await expect(rowOf('e2e-all/today.bin')).toBeVisible();
});

test('endpoint: the key prefix filter is asked of every bucket and kept in the URL; a prefix nothing starts with says so and offers to clear it', async ({ page, emulator }) => {
  const { store } = emulator.server;
  store.initiateMultipartUpload('demo-uploads', 'e2e-prefix/videos/a.mp4', {});
  store.initiateMultipartUpload('demo-photos', 'e2e-prefix/videos/b.mp4', {});
  store.initiateMultipartUpload('demo-documents', 'e2e-prefix/docs/c.pdf', {});
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.searchParams.has('uploads') && request.method() === 'GET') requests.push(`${url.pathname}?${url.searchParams.get('prefix') ?? ''}`);
  });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.getByRole('link', { name: 'In-progress uploads, all buckets' }).click();
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(table.getByRole('link', { name: 'e2e-prefix/docs/c.pdf' })).toBeVisible();

  requests.length = 0;
  await page.getByLabel('Filter by key prefix').fill('e2e-prefix/videos/');
  await expect(page).toHaveURL(/\/uploads\?prefix=e2e-prefix\/videos\/$/);
  await expect(table.getByRole('link', { name: /^e2e-prefix\// })).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'e2e-prefix/videos/a.mp4' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'e2e-prefix/videos/b.mp4' })).toBeVisible();
  // Each bucket was asked for the prefix, not listed whole and filtered here.
  expect(requests.length).toBeGreaterThanOrEqual(5);
  expect(requests.every((r) => r.endsWith('?e2e-prefix/videos/'))).toBe(true);

  // A reload keeps the filter; an upload's link carries it to the bucket's own page.
  await page.reload();
  await expect(page.getByLabel('Filter by key prefix')).toHaveValue('e2e-prefix/videos/');
  await expect(table.getByRole('link', { name: /^e2e-prefix\// })).toHaveCount(2);
  expect(await table.getByRole('link', { name: 'e2e-prefix/videos/a.mp4' }).getAttribute('href')).toContain('prefix=e2e-prefix/videos/');

  await page.getByLabel('Filter by key prefix').fill('e2e-prefix/none/');
  await expect(page.getByText('No in-progress uploads with keys starting with “e2e-prefix/none/”.')).toBeVisible();
  // The empty view offers the next step: clearing the prefix brings every upload back.
  await page.getByRole('button', { name: 'Clear the prefix' }).click();
  await expect(page).toHaveURL(/\/uploads$/);
  await expect(page.getByLabel('Filter by key prefix')).toHaveValue('');
  await expect(table.getByRole('link', { name: 'e2e-prefix/docs/c.pdf' })).toBeVisible();
});

test('endpoint: an upload key with a bidi control is shown with the control visible, in the table, its checkbox and its parts view', async ({ page, emulator }) => {
  const key = 'e2e-bidi/invoice\u202etxt.exe';
  const shown = 'e2e-bidi/invoice\u27e8U+202E\u27e9txt.exe';
  emulator.server.store.initiateMultipartUpload('demo-uploads', key, {});
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto('/uploads?prefix=e2e-bidi/');
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(table.getByRole('link', { name: shown })).toBeVisible();
  await expect(page.getByLabel(`Select the upload of ${shown} in demo-uploads`)).toBeVisible();
  await table.getByRole('link', { name: shown }).click();
  await expect(page.getByRole('heading', { level: 2, name: shown })).toBeVisible();
});

test('endpoint: a bucket whose uploads cannot be listed is named under the table with the reason, not left out silently', async ({ page, emulator }) => {
  const { store } = emulator.server;
  store.initiateMultipartUpload('demo-uploads', 'e2e-all-denied/x.bin', {});
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  // Every ListMultipartUploads of demo-photos is refused by the service for this one test.
  await page.route((url) => url.pathname.includes('demo-photos') && url.searchParams.has('uploads'), (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', headers: { 'access-control-allow-origin': '*', 'x-qs-request-id': 'req-denied-1' }, body: JSON.stringify({ code: 'permission_denied', message: 'no READ on demo-photos', request_id: 'req-denied-1', url: 'https://docs.qingcloud.com' }) }),
  );
  await page.goto('/uploads');
  const partial = page.getByTestId('all-uploads-partial');
  await expect(partial).toContainText('The uploads of demo-photos could not be listed');
  await expect(partial.getByRole('link', { name: 'Open demo-photos' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Uploads not yet completed' }).getByRole('row', { name: /e2e-all-denied\/x\.bin/ })).toBeVisible();
});

demoTest('demo: the sidebar link opens the uploads of all buckets, in light and dark, with the same table as one bucket’s page', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'In-progress uploads, all buckets' }).click();
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await demoExpect(page.getByTestId('uploads-status')).toHaveText('3 uploads in 1 bucket (of 5 buckets).');
  await demoExpect(table.getByRole('row', { name: /backups\/db-dump\.sql/ })).toContainText('demo-uploads (sh1a)');
  await demoExpect(table.getByRole('row', { name: /backups\/db-dump\.sql/ })).toContainText('2,500 parts');
  await demoExpect(page.getByRole('link', { name: 'In-progress uploads, all buckets' })).toHaveAttribute('aria-current', 'page');
  await demoExpect(page.getByRole('navigation', { name: 'Location' }).getByRole('listitem')).toHaveText(['Buckets', 'In-progress uploads in all buckets']);
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  // The bucket column leads to that bucket's own uploads page.
  await table.getByRole('row', { name: /backups\/db-dump\.sql/ }).getByRole('link', { name: 'demo-uploads' }).click();
  await demoExpect(page.getByRole('heading', { level: 1, name: 'In-progress uploads in demo-uploads' })).toBeVisible();
});
