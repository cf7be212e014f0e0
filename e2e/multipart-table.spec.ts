import { getBucketLifecycle } from '../src/api/lifecycle/operations.ts';
import { listMultipartUploads } from '../src/api/multipart/operations.ts';
import { headObject } from '../src/api/objects/read.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { connect, expect, test } from './support/emulator.ts';
import { scrollPartsTableToEnd } from './support/parts-table.ts';

// The in-progress uploads table and the auto-abort lifecycle rule, in endpoint mode against the standalone
// emulator over real HTTP: what the console wrote is read back with a client of its own.

test('abort 3 of 5 uploads selected in the table: asks first, reports, and the service keeps only the other 2', async ({ page, emulator, api }) => {
  const { store } = emulator.server;
  const keys = ['e2e-abort/a.bin', 'e2e-abort/b.bin', 'e2e-abort/c.bin', 'e2e-abort/d.bin', 'e2e-abort/e.bin'];
  for (const key of keys) {
    const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
    store.uploadPart('demo-uploads', key, uploadId, 1, { body: new Uint8Array(100) });
  }
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto('/buckets/sh1a/demo-uploads/uploads?prefix=e2e-abort/');
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(table.getByRole('row', { name: /e2e-abort\/a\.bin/ })).toContainText('1 part');
  await expect(table.getByRole('row', { name: /e2e-abort\/a\.bin/ })).toContainText('100 B');

  for (const key of ['e2e-abort/a.bin', 'e2e-abort/c.bin', 'e2e-abort/e.bin']) await page.getByLabel(`Select the upload of ${key}`).check();
  await page.getByRole('button', { name: 'Abort 3 uploads…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort 3 uploads?' });
  await expect(dialog.getByRole('listitem')).toHaveText(['e2e-abort/a.bin', 'e2e-abort/c.bin', 'e2e-abort/e.bin']);
  // Irreversible for three uploads at once: the word is typed first.
  await expect(dialog.getByRole('button', { name: 'Abort 3 uploads' })).toBeDisabled();
  await dialog.getByLabel('Type abort to confirm').fill('abort');
  await dialog.getByRole('button', { name: 'Abort 3 uploads' }).click();
  await expect(page.getByText('3 uploads aborted; their parts were deleted.')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(page.getByTestId('uploads-status')).toHaveText('2 uploads');

  const left = await listMultipartUploads(api, { zone: 'sh1a', bucket: 'demo-uploads', prefix: 'e2e-abort/' });
  expect(left.uploads.map((u) => u.key)).toEqual(['e2e-abort/b.bin', 'e2e-abort/d.bin']);

  // The demo emulator's 16 B minimum part size is no choice against a real endpoint.
  await table.getByRole('link', { name: 'e2e-abort/b.bin' }).click();
  await expect(page.getByTestId('upload-id')).toBeVisible();
  await expect(page.getByLabel('Smallest part size allowed')).toHaveCount(0);
});

test('the auto-abort rule is written with one click, changed and removed, and other lifecycle rules are kept as they were', async ({ page, emulator, api }) => {
  const { store } = emulator.server;
  const theirs = { id: 'expire-logs', status: 'enabled', filter: { prefix: 'logs/' }, expiration: { days: 30 } } as const;
  store.putBucketLifecycle('demo-uploads', [theirs]);
  const rulesOverHttp = async () => (await getBucketLifecycle(api, { zone: 'sh1a', bucket: 'demo-uploads' })).rule;
  try {
    await page.goto('/connect');
    await connect(page, { endpoint: emulator.url, remember: true });
    await page.goto('/buckets/sh1a/demo-uploads/uploads');
    const state = page.getByTestId('auto-abort-state');
    await expect(state).toHaveText('In-progress uploads are kept, with their parts, until someone completes or aborts them.');

    await page.getByRole('button', { name: 'Abort uploads older than 7 days automatically' }).click();
    await expect(state).toHaveText('A lifecycle rule aborts in-progress uploads in this bucket 7 days after they start (rule “qsc-abort-incomplete-uploads”).');
    expect(await rulesOverHttp()).toEqual([
      theirs,
      { id: 'qsc-abort-incomplete-uploads', status: 'enabled', filter: { prefix: '' }, abort_incomplete_multipart_upload: { days_after_initiation: 7 } },
    ]);

    await page.getByRole('button', { name: 'Change days…' }).click();
    const days = page.getByLabel('Abort in-progress uploads after (days)');
    await days.fill('0');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByText('Enter a whole number of days from 1 to 3,650.')).toBeVisible();
    await days.fill('3');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect(state).toHaveText('A lifecycle rule aborts in-progress uploads in this bucket 3 days after they start (rule “qsc-abort-incomplete-uploads”).');
    expect((await rulesOverHttp()).map((r) => [r.id, r.abort_incomplete_multipart_upload?.days_after_initiation])).toEqual([['expire-logs', undefined], ['qsc-abort-incomplete-uploads', 3]]);

    await page.getByRole('button', { name: 'Remove rule…' }).click();
    await page.getByRole('button', { name: 'Remove the rule' }).click();
    await expect(state).toHaveText('In-progress uploads are kept, with their parts, until someone completes or aborts them.');
    expect(await rulesOverHttp()).toEqual([theirs]);
  } finally {
    store.deleteBucketLifecycle('demo-uploads');
  }
});

test('in demo mode the table filters by age and the demo-only part size choice stays on the demo', async ({ page }) => {
  await page.goto('/buckets/sh1a/demo-uploads/uploads');
  const table = page.getByRole('table', { name: 'Uploads not yet completed' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Older than 1 day' });
  await expect(page.getByText('None of the loaded uploads is older than 1 day.')).toBeVisible();
  await page.getByLabel('Age', { exact: true }).selectOption({ label: 'Any age' });
  await page.getByLabel('Select the upload of backups/db-dump.sql').check();
  await expect(page.getByRole('button', { name: 'Abort 1 upload…' })).toBeEnabled();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.getByLabel('Language').selectOption('zh-CN');
  await expect(page.getByRole('button', { name: '中止 1 个上传…' })).toBeEnabled();
  await expect(page.getByTestId('auto-abort-state')).toHaveText('进行中的上传及其分段会一直保留，直到有人完成或中止它们。');
  await page.getByLabel('语言').selectOption('en');
  await table.getByRole('link', { name: 'videos/holiday-4k.mp4' }).click();
  await expect(page.getByLabel('Smallest part size allowed')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Location' })).toContainText('videos/holiday-4k.mp4');
});

test('the parts table marks gaps and odd sizes, and "Go to part" opens the page that holds a part', async ({ page, emulator }) => {
  const { store } = emulator.server;
  const key = 'e2e-parts/odd.bin';
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
  // Parts 1–2000 of 10 bytes, except part 3 (4 bytes) and part 1500, which is missing; the last part is 7 bytes.
  for (let n = 1; n <= 2000; n++) {
    if (n === 1500) continue;
    store.uploadPart('demo-uploads', key, uploadId, n, { body: new Uint8Array(n === 3 ? 4 : n === 2000 ? 7 : 10) });
  }
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(key)}&limit=1000`);
  const table = page.getByRole('table', { name: 'Parts of this page' });
  await expect(page.getByTestId('totals')).toContainText('1,999 parts');
  await expect(table.getByRole('row', { name: /^3 / })).toContainText('smaller than most parts');
  await expect(table.getByRole('row', { name: /^4 / })).toBeVisible();
  await expect(table.getByRole('row', { name: /^4 / })).not.toContainText('than most parts');

  await page.getByLabel('Go to part').fill('1500');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(page.getByTestId('page-status')).toHaveText('Page 2 of 2: 999 parts');
  // Part 1500 is missing: the next present part is marked, and says what is missing before it.
  const target = table.locator('tr[aria-current="true"]');
  await expect(target).toHaveCount(1);
  await expect(target.getByRole('cell').first()).toHaveText('15011 missing before it');
  await expect(target).toBeInViewport();
  // The last part may be smaller than the others: no mark.
  await scrollPartsTableToEnd(page);
  await expect(table.getByRole('row', { name: /^2000 / })).toBeVisible();
  await expect(table.getByRole('row', { name: /^2000 / })).not.toContainText('than most parts');

  await page.getByLabel('Go to part').fill('10001');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(page.getByText('Enter a part number from 0 to 10,000.')).toBeVisible();
});

test('Complete with only the parts listed: the rest is left out, and what was never uploaded is said', async ({ page, emulator, api }) => {
  const { store } = emulator.server;
  const key = 'e2e-choose/video.bin';
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', key, {});
  for (const n of [1, 2, 3, 5]) store.uploadPart('demo-uploads', key, uploadId, n, { body: new Uint8Array(5 * 1024 * 1024).fill(n) });
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/sh1a/demo-uploads/uploads?upload=${uploadId}&key=${encodeURIComponent(key)}&limit=100`);
  await expect(page.getByRole('button', { name: 'Complete with 4 parts' })).toBeEnabled();
  await page.getByLabel('only these parts').check();
  const parts = page.getByLabel('Part numbers and ranges');
  await parts.fill('2-x');
  await expect(page.getByTestId('complete-selection')).toHaveText('“2-x” is not a part number or a range from low to high (0–10,000).');
  await expect(page.getByRole('button', { name: 'Complete with 0 parts' })).toBeDisabled();
  await parts.fill('1-2, 4');
  await expect(page.getByTestId('complete-selection')).toHaveText('2 uploaded parts chosen. 1 listed part was never uploaded and is left out: 4.');
  await page.getByRole('button', { name: 'Complete with 2 parts' }).click();
  await expect(page.getByText(`The upload was completed: object ${key} now exists.`)).toBeVisible();
  const head = await headObject(api, { zone: 'sh1a', bucket: 'demo-uploads', key });
  expect(head.size).toBe(2 * 5 * 1024 * 1024);
});
