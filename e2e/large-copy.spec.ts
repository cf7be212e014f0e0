/**
 * Metadata edits of objects above the copy limit, in endpoint mode against the standalone emulator started
 * with a lowered copy limit (64 KiB), which the console is told through the Connect form. The save is a
 * multipart copy onto the same key: the journey checks what a user sees (the explanation, progress, a
 * cancel) and what reached the server (every part copy conditional on the reviewed version, no upload
 * left behind, the body unchanged).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { putBucket } from '../src/api/buckets/operations.ts';
import type { QsClient } from '../src/api/client.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import { listMultipartUploads } from '../src/api/multipart/operations.ts';
import { getObject, headObject } from '../src/api/objects/read.ts';
import { putObject } from '../src/api/objects/write.ts';
import { DEMO_USER } from '../mocks/seed.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { connect, expect, OTHER_USER, test, uniqueBucketName, type EmulatorHandle, openAdvanced } from './support/emulator.ts';

const COPY_LIMIT = 64 * 1024;
const SIZE = 200_000; // 4 parts: 3 × 64 KiB + 3,392 bytes
const METADATA = {
  standard: { 'content-type': 'video/mp4', 'cache-control': 'private, max-age=600', 'content-disposition': 'attachment; filename="clip.mp4"' },
  custom: { camera: 'X100' },
};

test.use({ emulatorOptions: { seed: 'demo', users: [DEMO_USER, OTHER_USER], copyLimit: COPY_LIMIT } });

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

interface Setup {
  bucket: string;
  key: string;
  body: Uint8Array<ArrayBuffer>;
}

async function setUp(api: QsClient, pageOrigin: string): Promise<Setup> {
  const bucket = uniqueBucketName('large');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putBucketCors(api, { zone: 'pek3a', bucket }, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'], max_age_seconds: 600 }],
  });
  const key = 'videos/clip.mp4';
  const body = new Uint8Array(randomBytes(SIZE));
  await putObject(api, { zone: 'pek3a', bucket, key, body, metadata: METADATA });
  return { bucket, key, body };
}

/** Connects with the emulator's copy limit typed into the Connect form, then opens the object's editor. */
async function openEditor(page: Page, emulator: EmulatorHandle, setup: Setup): Promise<void> {
  await page.goto('/connect');
  await openAdvanced(page);
  await page.getByLabel('Copy limit in bytes (optional)').fill(String(COPY_LIMIT));
  await connect(page, { endpoint: emulator.url, zones: 'pek3a', remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.goto(`/buckets/pek3a/${setup.bucket}?prefix=${encodeURIComponent('videos/')}&object=${encodeURIComponent(setup.key)}&edit=1`);
}

/** Holds the browser's second part copy until `release()`; preflights and other requests pass. */
async function holdSecondPart(page: Page): Promise<{ release(): void }> {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.searchParams.get('part_number') === '2' && url.searchParams.has('upload_id'),
    async (route: Route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      await released;
      // A cancelled save has aborted this request in the page already.
      await route.continue().catch(() => undefined);
    },
  );
  return { release };
}

function partCopies(emulator: EmulatorHandle) {
  return emulator.requests.filter((r) => r.method === 'PUT' && /[?&]part_number=/.test(r.url));
}

test('editing an object above the copy limit: multipart copy with progress, every part conditional, body and ETag unchanged', async ({ page, emulator, api, pageOrigin }) => {
  const setup = await setUp(api, pageOrigin);
  const ref = { zone: 'pek3a', bucket: setup.bucket, key: setup.key };
  const before = await headObject(api, ref);
  const held = await holdSecondPart(page);
  await openEditor(page, emulator, setup);

  const dialog = page.getByRole('dialog', { name: `Edit metadata of ${setup.key}` });
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await expect(dialog.getByTestId('large-copy')).toContainText('This object (195.3 KiB) is larger than one copy can take (64.0 KiB).');
  emulator.clearRequests();
  await dialog.getByRole('button', { name: 'Save' }).click();

  // Part 1 is copied, part 2 is held: the progress shows it.
  await expect(dialog.getByRole('progressbar', { name: 'Copy progress' })).toBeVisible();
  await expect(dialog.getByText('Copied 1 of 4 parts (64.0 KiB of 195.3 KiB).')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel save' })).toBeEnabled();
  await expectNoAxeViolations(page, 'dialog');
  held.release();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();

  const after = await headObject(api, ref);
  expect(after.metadata).toEqual({ standard: { ...METADATA.standard, 'cache-control': 'no-cache' }, custom: METADATA.custom });
  expect(after.size).toBe(SIZE);
  expect(after.etag).toBe(before.etag);
  const read = await getObject(api, ref);
  expect(md5(new Uint8Array(await read.body.arrayBuffer()))).toBe(md5(setup.body));

  const parts = partCopies(emulator);
  expect(parts.map((r) => r.headers['x-qs-copy-range'])).toEqual(['bytes=0-65535', 'bytes=65536-131071', 'bytes=131072-196607', 'bytes=196608-199999']);
  for (const part of parts) {
    expect(part.status).toBe(201);
    expect(part.headers['x-qs-copy-source']).toBe(`/${setup.bucket}/videos/clip.mp4`);
    expect(part.headers['x-qs-copy-source-if-match']).toBe(before.etag);
  }
  // No single PUT-copy was tried (it would be refused above the limit).
  expect(emulator.requests.filter((r) => r.method === 'PUT' && r.headers['x-qs-copy-source'] !== undefined && !/part_number=/.test(r.url))).toEqual([]);
  expect((await listMultipartUploads(api, { zone: 'pek3a', bucket: setup.bucket })).uploads).toEqual([]);
});

test('cancelling the save of an object above the copy limit leaves it as it was and no upload behind', async ({ page, emulator, api, pageOrigin }) => {
  const setup = await setUp(api, pageOrigin);
  const ref = { zone: 'pek3a', bucket: setup.bucket, key: setup.key };
  const before = await headObject(api, ref);
  const held = await holdSecondPart(page);
  await openEditor(page, emulator, setup);

  const dialog = page.getByRole('dialog', { name: `Edit metadata of ${setup.key}` });
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-store');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  emulator.clearRequests();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Copied 1 of 4 parts (64.0 KiB of 195.3 KiB).')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel save' }).click();
  held.release();
  await expect(dialog.getByText('Save cancelled. The in-progress upload was removed; the object is as it was.')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  const after = await headObject(api, ref);
  expect({ metadata: after.metadata, etag: after.etag, lastModified: after.lastModifiedRaw, size: after.size }).toEqual({
    metadata: before.metadata,
    etag: before.etag,
    lastModified: before.lastModifiedRaw,
    size: SIZE,
  });
  const read = await getObject(api, ref);
  expect(md5(new Uint8Array(await read.body.arrayBuffer()))).toBe(md5(setup.body));
  expect((await listMultipartUploads(api, { zone: 'pek3a', bucket: setup.bucket })).uploads).toEqual([]);
  expect(emulator.requests.some((r) => r.method === 'DELETE' && /[?&]upload_id=/.test(r.url) && r.status === 204)).toBe(true);
  expect(emulator.requests.some((r) => r.method === 'POST' && /[?&]upload_id=/.test(r.url))).toBe(false);
});
