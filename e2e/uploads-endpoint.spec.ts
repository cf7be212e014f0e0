import { listObjects } from '../src/api/objects/operations.ts';
import { headObject } from '../src/api/objects/read.ts';
import { listMultipartUploads, listParts } from '../src/api/multipart/operations.ts';
import { DEMO_USER } from '../mocks/seed.ts';
import type { Page } from '@playwright/test';
import { connect, expect, OTHER_USER, test } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// Upload journeys in endpoint mode against the standalone emulator over real HTTP (real CORS, preflights,
// and the browser's own XHR upload progress). The emulator enforces QingStor's real 4 MiB minimum part size.

const MiB = 1024 * 1024;
test.use({ emulatorOptions: { seed: 'demo', users: [DEMO_USER, OTHER_USER], minPartSize: 4 * MiB } });

/** Connects to the emulator (remembered in the tab), opens `bucket` and its upload panel. */
async function openUploadPanel(page: Page, emulatorUrl: string, bucket: string) {
  await page.goto('/connect');
  await connect(page, { endpoint: emulatorUrl, remember: true });
  await page.goto(`/buckets/pek3a/${bucket}`);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  return page.getByRole('region', { name: `Upload to ${bucket}` });
}

test('drop files and a folder with metadata over real HTTP; the objects carry the metadata', async ({ page, emulator, api }) => {
  const panel = await openUploadPanel(page, emulator.url, 'demo-documents');
  await panel.getByLabel('Target prefix').fill('e2e-endpoint/');
  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'a.txt', text: 'alpha\n', type: 'text/plain' },
    { path: 'b.bin', size: 2 * MiB, seed: 5 },
    { path: 'tree/inner/c.txt', text: 'gamma\n', type: 'text/plain' },
  ]);
  await panel.getByText('Headers and metadata for this batch').click();
  await panel.getByLabel('Content-Disposition', { exact: true }).fill('attachment');
  await panel.getByRole('button', { name: 'Add key' }).click();
  await panel.getByLabel('Key 1', { exact: true }).fill('Project');
  await panel.getByLabel('Value 1', { exact: true }).fill('apollo');
  await panel.getByRole('button', { name: 'Upload 3 files' }).click();

  const transfers = panel.getByRole('table', { name: 'Transfers' });
  for (const key of ['e2e-endpoint/a.txt', 'e2e-endpoint/b.bin', 'e2e-endpoint/tree/inner/c.txt']) {
    await expect(transfers.getByRole('row', { name: key, exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  }
  await expect(panel.getByTestId('uploads-totals')).toContainText('3 of 3 files done');

  // What a different client sees (the console's api code, signed in Node).
  const head = await headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'e2e-endpoint/tree/inner/c.txt' });
  expect(head.size).toBe(6);
  expect(head.contentType).toBe('text/plain');
  expect(head.metadata.standard['content-disposition']).toBe('attachment');
  // Custom keys are case-insensitive and come back lower-case (ref §6).
  expect(head.metadata.custom).toEqual({ project: 'apollo' });
  await transfers.getByRole('button', { name: 'Show details of e2e-endpoint/b.bin' }).click();
  const etag = await transfers.getByRole('row', { name: 'Details of e2e-endpoint/b.bin' }).getByTestId('item-etag').textContent();
  expect((await headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'e2e-endpoint/b.bin' })).etag).toBe(etag);
});

test('a 64 MB multipart upload pauses, survives a page reload, and resumes with only the missing parts', async ({ page, emulator, api }) => {
  let panel = await openUploadPanel(page, emulator.url, 'demo-photos');
  await panel.getByText('Transfer settings').click();
  await panel.getByLabel('Part size (MiB)').fill('4');
  await panel.getByRole('button', { name: 'Apply settings' }).click();

  // Parts 6 and later are held in flight until the page goes away, so the pause always lands mid-upload
  // with exactly parts 0-5 on the server (however fast this machine is).
  let holding = true;
  const released: Array<() => void> = [];
  await page.route(
    (url) => Number(url.searchParams.get('part_number') ?? -1) >= 6,
    async (route) => {
      if (holding) await new Promise<void>((resolve) => released.push(resolve));
      // A held request of the old page is gone by now; there is nothing left to continue.
      await route.continue().catch(() => undefined);
    },
  );

  const file = { path: 'resume-64mb.bin', size: 64 * MiB, seed: 29, lastModified: 1_710_000_000_000 };
  await dropFiles(panel.getByTestId('dropzone'), [file]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  let item = panel.getByRole('row', { name: 'resume-64mb.bin', exact: true });
  await item.getByRole('button', { name: 'Show details of resume-64mb.bin' }).click();
  let details = panel.getByRole('row', { name: 'Details of resume-64mb.bin' });
  await expect(details).toContainText('parts 6 of 16', { timeout: 30_000 });
  // Closing the panel leaves the transfer running; the toolbar button counts it, and reopening shows it.
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await expect(panel).toBeHidden();
  // The header's global indicator counts it too, with the overall progress, and opens the drawer.
  const indicator = page.getByRole('banner').getByRole('button', { name: /^1 upload running, \d+% — show uploads$/ });
  await expect(indicator).toBeVisible();
  await indicator.click();
  await expect(panel).toBeVisible();
  await page.getByRole('button', { name: 'Close uploads' }).click();
  await expect(panel).toBeHidden();
  // The toolbar's Upload keeps its one label while transfers run (the header counts them): it reopens the drawer.
  await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
  await item.getByRole('button', { name: 'Show details of resume-64mb.bin' }).click();
  await expect(details).toContainText('parts 6 of 16');
  await item.getByRole('button', { name: 'Pause resume-64mb.bin' }).click();
  await expect(item).toHaveAttribute('data-state', 'paused');
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeVisible();
  const uploadId = (await details.getByTestId('item-upload-id').textContent()) ?? '';
  expect(uploadId).toMatch(/^[0-9a-f]{32}$/);

  // The server has the upload with some parts; then the page goes away.
  const before = await listMultipartUploads(api, { zone: 'pek3a', bucket: 'demo-photos', prefix: 'resume-64mb.bin' });
  expect(before.uploads.map((u) => u.upload_id)).toEqual([uploadId]);
  expect((await listParts(api, { zone: 'pek3a', bucket: 'demo-photos', key: 'resume-64mb.bin', uploadId })).object_parts.map((p) => p.part_number)).toEqual([0, 1, 2, 3, 4, 5]);
  holding = false;
  for (const release of released) release();
  await page.reload();

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  const remembered = panel.getByRole('region', { name: 'In-progress uploads this browser remembers' });
  await expect(remembered).toContainText('resume-64mb.bin');
  await expect(remembered).toContainText('64.0 MiB');

  // The same file chosen again: the console offers to resume the remembered upload.
  await dropFiles(panel.getByTestId('dropzone'), [file]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  const offer = panel.getByRole('alert').filter({ hasText: 'partly uploaded before' });
  await expect(offer).toContainText('resume-64mb.bin');
  await offer.getByRole('button', { name: 'Resume', exact: true }).click();

  item = panel.getByRole('row', { name: 'resume-64mb.bin', exact: true });
  await expect(item).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await item.getByRole('button', { name: 'Show details of resume-64mb.bin' }).click();
  details = panel.getByRole('row', { name: 'Details of resume-64mb.bin' });
  await expect(details).toContainText('6 already on the server were kept');
  await expect(details.getByTestId('item-upload-id')).toHaveText(uploadId);

  const head = await headObject(api, { zone: 'pek3a', bucket: 'demo-photos', key: 'resume-64mb.bin' });
  expect(head.size).toBe(64 * MiB);
  const after = await listMultipartUploads(api, { zone: 'pek3a', bucket: 'demo-photos', prefix: 'resume-64mb.bin' });
  expect(after.uploads).toEqual([]);
  await expect(page.getByRole('grid').getByRole('link', { name: 'resume-64mb.bin', exact: true })).toBeVisible();
});

test('"Parts at once" bounds the parts of one file in flight over real HTTP', async ({ page, emulator, api }) => {
  // Every part request is held until the test releases it, and the test releases one only once the limit
  // is reached (or every remaining part is held): a console sending more would have more held by then.
  const held: (() => void)[] = [];
  let maxHeld = 0;
  await page.route(
    (url) => url.searchParams.has('part_number'),
    async (route) => {
      await new Promise<void>((resolve) => {
        held.push(resolve);
        maxHeld = Math.max(maxHeld, held.length);
      });
      await route.continue();
    },
  );
  const panel = await openUploadPanel(page, emulator.url, 'demo-photos');
  await panel.getByText('Transfer settings').click();
  await panel.getByLabel('Part size (MiB)').fill('4');
  await panel.getByLabel('Parts at once (per file)').fill('3');
  await panel.getByRole('button', { name: 'Apply settings' }).click();
  await expect(panel.getByText('Saved. New transfers use these settings.')).toBeVisible();

  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'parallel-40mb.bin', size: 40 * MiB, seed: 31 }]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  for (let remaining = 10; remaining > 0; remaining -= 1) {
    await expect.poll(() => held.length, { timeout: 20_000 }).toBe(Math.min(3, remaining));
    held.shift()?.();
  }
  const item = panel.getByRole('row', { name: 'parallel-40mb.bin', exact: true });
  await expect(item).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await item.getByRole('button', { name: 'Show details of parallel-40mb.bin' }).click();
  await expect(panel.getByRole('row', { name: 'Details of parallel-40mb.bin' })).toContainText('parts 10 of 10');
  expect(maxHeld).toBe(3);
  expect((await headObject(api, { zone: 'pek3a', bucket: 'demo-photos', key: 'parallel-40mb.bin' })).size).toBe(40 * MiB);
});

test('an existing key is asked about before the batch starts; "Keep both" stores the file next to it over real HTTP', async ({ page, emulator, api }) => {
  const panel = await openUploadPanel(page, emulator.url, 'demo-documents');
  await panel.getByLabel('Target prefix').fill('e2e-conflict/');
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'a.txt', text: 'first\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file', exact: true }).click();
  await expect(transfers.getByRole('row', { name: 'e2e-conflict/a.txt', exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await panel.getByRole('button', { name: 'Clear finished' }).click();

  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'a.txt', text: 'second, longer\n', type: 'text/plain' },
    { path: 'b.txt', text: 'b\n', type: 'text/plain' },
  ]);
  await panel.getByRole('button', { name: 'Upload 2 files', exact: true }).click();
  const question = panel.getByRole('region', { name: '1 file already exists in demo-documents. What should happen to it?' });
  await expect(question).toContainText('e2e-conflict/a.txt');
  await question.getByRole('button', { name: 'Keep both (upload as “name (1).ext”)' }).click();
  await expect(transfers.getByRole('row', { name: 'e2e-conflict/a (1).txt', exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(transfers.getByRole('row', { name: 'e2e-conflict/b.txt', exact: true })).toHaveAttribute('data-state', 'done');

  // Over HTTP: the original is untouched, the new file sits beside it.
  expect((await headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'e2e-conflict/a.txt' })).size).toBe(6);
  expect((await headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'e2e-conflict/a (1).txt' })).size).toBe(15);
});

test('a conflict check that fails (403) stops the batch with the key named; "keep both" refuses a name over 1,023 bytes', async ({ page, emulator, api }) => {
  // The check of one key (a listing with that key as prefix) answers 403 (the browser may read it: the answer
  // carries the CORS headers).
  await page.route(
    (url) => url.searchParams.get('prefix') === 'conflict-check/denied.txt',
    async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const origin = route.request().headers()['origin'] ?? '*';
      return route.fulfill({ status: 403, headers: { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'x-qs-request-id', 'x-qs-request-id': 'e2e-head-403' } });
    },
  );
  const panel = await openUploadPanel(page, emulator.url, 'demo-documents');
  await panel.getByLabel('Target prefix').fill('conflict-check/');
  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'denied.txt', text: 'd\n', type: 'text/plain' },
    { path: 'free.txt', text: 'f\n', type: 'text/plain' },
  ]);
  await panel.getByRole('button', { name: 'Upload 2 files' }).click();
  const problem = panel.getByRole('alert').filter({ hasText: 'could not check whether “conflict-check/denied.txt” already exists' });
  await expect(problem).toContainText('Nothing was uploaded');
  await expect(problem).toContainText('403');
  // Nothing started, the files stay staged, and the free one was not written either.
  await expect(panel.getByRole('table', { name: 'Transfers' })).toHaveCount(0);
  await expect(panel.getByTestId('staged-summary')).toContainText('2 files');
  await expect(headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'conflict-check/free.txt' })).rejects.toMatchObject({ status: 404 });
  await panel.getByRole('button', { name: 'Clear the list' }).click();

  // A key of exactly 1,023 bytes that exists: "name (1).ext" would be 1,027 bytes, so keep both is refused.
  const prefix = 'conflict-check/';
  const name = `${'n'.repeat(1023 - prefix.length - '.txt'.length)}.txt`;
  await dropFiles(panel.getByTestId('dropzone'), [{ path: name, text: 'v1\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  await expect(transfers.locator('tr[data-state]')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await dropFiles(panel.getByTestId('dropzone'), [{ path: name, text: 'v2\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  await panel.getByRole('button', { name: 'Keep both (upload as “name (1).ext”)' }).click();
  await expect(panel.getByRole('alert').filter({ hasText: 'Keep both is not possible' })).toContainText('longer than 1,023 bytes');
  // The question stays for another answer; nothing new was queued.
  await expect(panel.getByRole('button', { name: 'Skip existing files' })).toBeVisible();
  await expect(transfers.locator('tr[data-state]')).toHaveCount(1);
});

test('files dropped on the object list whose conflict check fails (403) start nothing and say why in a toast', async ({ page, emulator, api }) => {
  await page.route(
    (url) => url.searchParams.get('prefix') === 'drop-check-denied.txt',
    async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const origin = route.request().headers()['origin'] ?? '*';
      return route.fulfill({ status: 403, headers: { 'access-control-allow-origin': origin } });
    },
  );
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto('/buckets/pek3a/demo-documents');
  const grid = page.getByRole('grid');
  await expect(grid).toBeVisible();
  await dropFiles(grid, [
    { path: 'drop-check-denied.txt', text: 'd\n', type: 'text/plain' },
    { path: 'drop-check-free.txt', text: 'f\n', type: 'text/plain' },
  ]);
  await expect(page.getByTestId('toast').filter({ hasText: 'Nothing was uploaded: could not check whether “drop-check-denied.txt” already exists' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /upload.* running/ })).toHaveCount(0);
  await expect(headObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'drop-check-free.txt' })).rejects.toMatchObject({ status: 404 });
});

test('50 files dropped on a folder with the drawer closed: the header reaches 100 % and the service holds all 50 with their bytes', async ({ page, emulator, api }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums/');
  const list = page.getByRole('grid');
  await expect(list).toBeVisible();
  const folder = `drop50-${Date.now().toString(36)}`;
  const files = Array.from({ length: 50 }, (_, i) => ({ path: `${folder}/f-${String(i + 1).padStart(2, '0')}.bin`, size: 64 * 1024 + i, seed: i + 1 }));
  await dropFiles(list, files);
  await expect(page.getByRole('banner').getByRole('button', { name: /^\d+ uploads? running, \d+% — show uploads$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Upload to demo-photos' })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Uploads finished, 100% — show uploads' })).toBeVisible({ timeout: 90_000 });
  const listing = await listObjects(api, { zone: 'pek3a', bucket: 'demo-photos', prefix: `albums/${folder}/`, limit: 100 });
  expect(listing.keys.map((k) => [k.key, k.size])).toEqual(files.map((f) => [`albums/${f.path}`, f.size]));
});
