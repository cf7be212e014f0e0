import { createHash } from 'node:crypto';
import { connect, expect, OTHER_USER, test, openAdvanced } from './support/emulator.ts';
import { scrollPartsTableToEnd } from './support/parts-table.ts';

// The multipart inspector in endpoint mode against the standalone emulator over real HTTP. Uploads are
// planted straight into the emulator's store (same process), like another tool would have left them.

test('an upload of 2,500 parts with gaps pages at limit 1000 in three pages, totals and gaps exact', async ({ page, emulator }) => {
  const { store } = emulator.server;
  const key = 'e2e/gappy-2500.bin';
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
  const missing = new Set([3, 7, 8, 9]);
  // Part numbers 1..2504 without 3 and 7–9: exactly 2,500 parts of 32 bytes.
  for (let n = 1; n <= 2504; n++) if (!missing.has(n)) store.uploadPart('demo-uploads', key, uploadId, n, { body: new Uint8Array(32).fill(n % 251) });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto('/buckets/sh1a/demo-uploads/uploads?prefix=e2e/');
  const list = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(list.getByRole('row')).toHaveCount(2);
  await list.getByRole('link', { name: key }).click();
  await expect(page.getByTestId('upload-id')).toHaveText(uploadId);
  await expect(page.getByTestId('totals')).toHaveText('2,500 parts, 78.1 KiB (80,000 bytes) in total, counted over 3 pages of up to 1,000 parts.');
  await expect(page.getByTestId('part-map-summary')).toHaveText('2,500 parts present, numbers 1–2,504. Missing (4): 3, 7–9.');

  await page.getByLabel('Parts per page (1–1000)').fill('1000');
  await page.getByRole('button', { name: 'Apply' }).click();
  const status = page.getByTestId('page-status');
  const table = page.getByRole('table', { name: 'Parts of this page' });
  await expect(status).toHaveText('Page 1 of 3: 1,000 parts');
  // Only the rows in view are in the DOM: the page's size is the table's row count.
  await expect(table).toHaveAttribute('aria-rowcount', '1001');
  await scrollPartsTableToEnd(page);
  await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('1004');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(status).toHaveText('Page 2 of 3: 1,000 parts');
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('1005');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(status).toHaveText('Page 3 of 3: 500 parts');
  await scrollPartsTableToEnd(page);
  await expect(table.getByRole('row').last().getByRole('cell').first()).toHaveText('2504');
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();

  // A deep link to the second page works on its own (fresh load, session remembered in the tab).
  await page.goto(`/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(key)}&limit=1000&after=1004`);
  await expect(status).toHaveText('Page 2 of 3: 1,000 parts');
});

test('an authenticated user without a grant is refused on a publicly readable bucket, in plain words', async ({ page, emulator }) => {
  const { uploadId } = emulator.server.store.initiateMultipartUpload('demo-public', 'drafts/report.pdf', {});
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, accessKeyId: OTHER_USER.accessKeyId, secretAccessKey: OTHER_USER.secretAccessKey, remember: true });
  await page.goto('/buckets/pek3a/demo-public/uploads');
  await expect(page.getByRole('alert').first()).toContainText('permission_denied');
  await expect(page.getByTestId('permission-hint')).toContainText('judges them by that key’s permissions alone — even on a bucket that is readable by everyone');
  // Reading the parts of a known upload is refused the same way (READ, ref §10).
  await page.goto(`/buckets/pek3a/demo-public/uploads?upload=${uploadId}&key=drafts/report.pdf`);
  await expect(page.getByRole('alert').first()).toContainText('permission_denied');
  await expect(page.getByTestId('permission-hint').first()).toBeVisible();
});

test('anonymous access to a publicly readable bucket reads an upload’s parts without credentials', async ({ page, emulator }) => {
  const { store } = emulator.server;
  const { uploadId } = store.initiateMultipartUpload('demo-public', 'drafts/public-draft.bin', {});
  for (const n of [1, 2, 4]) store.uploadPart('demo-public', 'drafts/public-draft.bin', uploadId, n, { body: new Uint8Array(100) });

  await page.goto('/connect');
  await openAdvanced(page);
  await page.getByLabel('Anonymously, to a public bucket').check();
  await page.getByLabel('Endpoint URL').fill(emulator.url);
  await page.getByLabel('Zones').fill('pek3a');
  await page.getByLabel('Bucket', { exact: true }).fill('demo-public');
  await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page).not.toHaveURL(/\/connect$/, { timeout: 15_000 });

  emulator.clearRequests();
  await page.goto('/buckets/pek3a/demo-public/uploads');
  // Listing uploads needs READ by a user (ref §10); the inspector explains and offers to open one by id.
  await expect(page.getByTestId('permission-hint')).toContainText('Listing in-progress uploads always needs an access key');
  await page.getByLabel('Key', { exact: true }).fill('drafts/public-draft.bin');
  await page.getByLabel('Upload ID', { exact: true }).fill(uploadId);
  await page.getByRole('button', { name: 'Open upload' }).click();
  await expect(page.getByTestId('totals')).toHaveText('3 parts, 300 B (300 bytes) in total, counted over 1 page of up to 1,000 parts.');
  await expect(page.getByTestId('part-map-summary')).toHaveText('3 parts present, numbers 1–4. Missing (1): 3.');
  await expect(page.getByRole('table', { name: 'Parts of this page' }).getByRole('row')).toHaveCount(4);
  // The anonymous session (no key at all) read the parts: ListMultipart reached the server and succeeded.
  const parts = emulator.requests.filter((r) => r.method === 'GET' && r.url.includes(`upload_id=${uploadId}`));
  expect(parts.length).toBeGreaterThan(0);
  expect(parts.every((r) => r.status === 200)).toBe(true);
});

test('resume from a local file: parts left by another machine are checked by MD5, only missing or different ones are sent', async ({ page, emulator }) => {
  const { store } = emulator.server;
  const MiB = 1024 * 1024;
  const key = 'e2e/from-another-machine.bin';
  // 18 MiB in 4 MiB parts: 0-3 full, 4 is the last 2 MiB. Another machine sent 0 and 2 correctly, and a
  // part 3 of the right size but other bytes (say, the file changed there); 1 and 4 never arrived.
  const file = Buffer.alloc(18 * MiB);
  for (let i = 0; i < file.length; i += 4096) file.writeUInt32LE((i * 2654435761) >>> 0, i);
  const part = (n: number) => new Uint8Array(file.subarray(n * 4 * MiB, Math.min(file.length, (n + 1) * 4 * MiB)));
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
  store.uploadPart('demo-uploads', key, uploadId, 0, { body: part(0) });
  store.uploadPart('demo-uploads', key, uploadId, 2, { body: part(2) });
  store.uploadPart('demo-uploads', key, uploadId, 3, { body: new Uint8Array(4 * MiB).fill(7) });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(key)}`);
  await expect(page.getByTestId('part-map-summary')).toHaveText('3 parts present, numbers 0–3. Missing (1): 1.');

  // A file that does not fit the parts on the server is refused before anything is sent.
  emulator.clearRequests();
  const chooser = page.getByLabel('Local file to continue this upload');
  await chooser.setInputFiles({ name: 'other.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3 * MiB) });
  const resume = page.getByRole('region', { name: 'Resume from a local file' });
  await expect(resume.locator('tr[data-state]')).toHaveAttribute('data-state', 'failed', { timeout: 15_000 });
  await expect(resume).toContainText('This file does not match the parts already uploaded (different size or content).');
  expect(emulator.requests.filter((r) => r.method === 'PUT')).toEqual([]);

  await chooser.setInputFiles({ name: 'from-another-machine.bin', mimeType: 'application/octet-stream', buffer: file });
  await expect(page.getByText(`The upload was completed: object ${key} now exists.`)).toBeVisible({ timeout: 30_000 });
  const sent = emulator.requests.filter((r) => r.method === 'PUT' && r.url.includes(`upload_id=${uploadId}`)).map((r) => Number(new URL(r.url, 'http://x').searchParams.get('part_number')));
  expect(sent.sort()).toEqual([1, 3, 4]);
  const object = store.getObject('demo-uploads', key);
  expect(object.size).toBe(18 * MiB);
  expect(object.etag).toBe(createHash('md5').update(file).digest('hex'));
});

test('abort over HTTP asks first, deletes the parts on the server, and the list no longer shows the upload', async ({ page, emulator }) => {
  const { store } = emulator.server;
  const key = 'e2e/abandoned.bin';
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
  for (const n of [0, 1]) store.uploadPart('demo-uploads', key, uploadId, n, { body: new Uint8Array(64).fill(n) });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(key)}`);
  await expect(page.getByTestId('totals')).toContainText('2 parts, 128 B (128 bytes)');
  emulator.clearRequests();
  await page.getByRole('button', { name: 'Abort upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort this upload?' });
  await expect(dialog).toContainText(`Aborting deletes the 2 uploaded parts (128 B) of ${key}.`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(emulator.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

  await page.getByRole('button', { name: 'Abort upload…' }).click();
  await dialog.getByLabel('Type abort to confirm').fill('abort');
  await dialog.getByRole('button', { name: 'Abort and delete the parts' }).click();
  await expect(page.getByText(`The upload of ${key} was aborted and its parts were deleted.`)).toBeVisible();
  expect(emulator.requests.filter((r) => r.method === 'DELETE').map((r) => [r.url, r.status])).toEqual([[`/demo-uploads/${key}?upload_id=${uploadId}`, 204]]);
  expect(store.listMultipartUploads('demo-uploads', { prefix: key }).uploads).toEqual([]);
  await page.goto('/buckets/sh1a/demo-uploads/uploads?prefix=e2e/abandoned');
  await expect(page.getByRole('table', { name: 'Uploads not yet completed' })).toHaveCount(0);
});
