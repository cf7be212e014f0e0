import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { putBucket } from '../src/api/buckets/operations.ts';
import type { QsClient } from '../src/api/client.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import { connect, expect, test, uniqueBucketName, type EmulatorHandle } from './support/emulator.ts';
import { moreAction } from './fixtures.ts';

// Bulk jobs in endpoint mode against the standalone emulator over real HTTP, checked on the server: what the
// emulator holds afterwards and which requests reached it (the recording relay).

const zone = 'pek3a';

interface Seeded {
  bucket: string;
  keys: string[];
}

/** A bucket whose CORS rule lets the console read everything, with `count` objects under `prefix` (made in the store). */
async function seeded(emulator: EmulatorHandle, api: QsClient, pageOrigin: string, count: number, prefix = 'big/'): Promise<Seeded> {
  const bucket = uniqueBucketName('jobs');
  await putBucket(api, { zone, bucket });
  await putBucketCors(api, { zone, bucket }, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'], max_age_seconds: 600 }],
  });
  const keys = Array.from({ length: count }, (_, i) => `${prefix}${i % 4 === 0 ? 'deep/' : ''}o-${String(i).padStart(5, '0')}.txt`);
  for (const [i, key] of keys.entries()) emulator.server.store.putObject(bucket, key, { body: new TextEncoder().encode(`body ${i}`), metadata: original(i) });
  return { bucket, keys };
}

function original(i: number) {
  return { standard: { 'content-type': 'text/plain', 'content-disposition': `attachment; filename="f${i}.txt"` }, custom: { idx: String(i), keep: 'yes' } };
}

function edited(i: number) {
  const o = original(i);
  return { standard: { ...o.standard, 'cache-control': 'max-age=600' }, custom: { ...o.custom, tier: 'hot' } };
}

/** Connects (remembered in this tab, so reloads keep the session) and opens `path`. */
async function open(page: Page, emulator: EmulatorHandle, path: string): Promise<void> {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: zone, remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
  await page.goto(path);
}

/** The folder's job dialog with Cache-Control and one custom key set, once the folder is counted. */
async function editFolder(page: Page, prefix: string, count: string) {
  await moreAction(page, 'Bulk-edit this folder…');
  const dialog = page.getByRole('dialog', { name: `Edit metadata of all objects in ${prefix}` });
  await expect(dialog.getByTestId('bulk-listed')).toHaveText(`${count} objects in this folder and its subfolders will be edited.`, { timeout: 60_000 });
  await dialog.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
  await dialog.getByLabel('New value of Cache-Control').fill('max-age=600');
  await dialog.getByRole('button', { name: 'Add key operation' }).click();
  await dialog.getByLabel('Key 1', { exact: true }).fill('tier');
  await dialog.getByLabel('Value 1', { exact: true }).fill('hot');
  return dialog;
}

/** Copies (PUT with x-qs-copy-source) the server answered 201, per key. */
function copiesPerKey(emulator: EmulatorHandle, bucket: string): Map<string, number> {
  const copies = new Map<string, number>();
  for (const r of emulator.requests) {
    if (r.method !== 'PUT' || r.status !== 201 || r.headers['x-qs-copy-source'] === undefined) continue;
    const key = decodeURIComponent(r.url.split('?')[0]?.slice(bucket.length + 2) ?? '');
    copies.set(key, (copies.get(key) ?? 0) + 1);
  }
  return copies;
}

test('a bulk edit of 3,000 objects, reloaded half way, is resumed from the offer and edits every object exactly once, losing no other header or key', async ({ page, emulator, api, pageOrigin }) => {
  test.setTimeout(900_000);
  const { bucket, keys } = await seeded(emulator, api, pageOrigin, 3000);
  await open(page, emulator, `/buckets/${zone}/${bucket}?prefix=big%2F`);
  const dialog = await editFolder(page, 'big/', '3,000');
  emulator.clearRequests();
  await dialog.getByRole('button', { name: 'Apply to 3,000 objects' }).click();
  await expect(dialog.getByTestId('job-summary')).toHaveText(/^(1,[5-9]\d\d|2,\d\d\d) of 3,000 done/, { timeout: 600_000 });
  await page.reload();

  const offer = page.getByTestId('jobs-resume-offer');
  await expect(offer).toContainText(`Edit metadata of all objects in big/ in ${bucket}`);
  await offer.getByRole('button', { name: 'Resume' }).click();
  await page.getByTestId('jobs-indicator').click();
  await page.getByRole('link', { name: 'Edit metadata of all objects in big/' }).click();
  const job = page.getByRole('region', { name: 'Edit metadata of all objects in big/' });
  await expect(job.getByTestId('job-summary')).toHaveText('3,000 of 3,000 done: 3,000 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 600_000 });
  await expect(job.getByTestId('job-phase')).toHaveText('Finished.');

  const copies = copiesPerKey(emulator, bucket);
  expect(copies.size).toBe(3000);
  expect([...copies].filter(([, n]) => n !== 1)).toEqual([]);
  const store = emulator.server.store;
  const wrong = keys.filter((key, i) => !sameMetadata(store.getObject(bucket, key).metadata, edited(i)));
  expect(wrong).toEqual([]);
});

function sameMetadata(actual: { standard: Record<string, string | undefined>; custom: Record<string, string> }, expected: { standard: Record<string, string>; custom: Record<string, string> }): boolean {
  const sorted = (o: Record<string, string | undefined>) => JSON.stringify(Object.entries(o).sort());
  return sorted(actual.standard) === sorted(expected.standard) && sorted(actual.custom) === sorted(expected.custom);
}

test('cancel stops the job’s requests within a second; the downloaded report lists every object it settled; it goes on later from where it stopped', async ({ page, emulator, api, pageOrigin }) => {
  test.setTimeout(600_000);
  const { bucket, keys } = await seeded(emulator, api, pageOrigin, 1200);
  await open(page, emulator, `/buckets/${zone}/${bucket}?prefix=big%2F`);
  const dialog = await editFolder(page, 'big/', '1,200');
  emulator.clearRequests();
  await dialog.getByRole('button', { name: 'Apply to 1,200 objects' }).click();
  await expect(dialog.getByTestId('job-summary')).toHaveText(/^([2-9]\d\d|1,\d\d\d) of 1,200 done/, { timeout: 300_000 });
  const cancelledAt = Date.now();
  await dialog.getByRole('button', { name: 'Cancel the rest' }).click();
  await expect(dialog.getByTestId('job-phase')).toHaveText('Cancelled: the objects not started are left as they are.');

  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile(await (await download).path(), 'utf8');
  const summary = (await dialog.getByTestId('job-summary').textContent()) ?? '';
  const settled = Number(/^([\d,]+) of/.exec(summary)?.[1]?.replace(',', ''));
  const rows = csv.trim().split('\r\n').slice(1);
  expect(rows).toHaveLength(settled);
  expect(rows.every((row) => row.includes(',changed,'))).toBe(true);
  // The job's requests (its objects, and its listing, which has no delimiter): none began a second after the click.
  const late = emulator.requests.filter((r) => r.at > cancelledAt + 1000 && (r.url.startsWith(`/${bucket}/`) || (r.url.startsWith(`/${bucket}?`) && !r.url.includes('delimiter='))));
  expect(late).toEqual([]);
  expect(settled).toBeLessThan(1200);

  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect(dialog.getByTestId('job-summary')).toHaveText('1,200 of 1,200 done: 1,200 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 300_000 });
  const full = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download JSON' }).click();
  const report: unknown = JSON.parse(await readFile(await (await full).path(), 'utf8'));
  const reported = Array.isArray(report) ? report.map((row: { key?: unknown }) => row.key) : [];
  expect(new Set(reported)).toEqual(new Set(keys));
  expect([...copiesPerKey(emulator, bucket).values()].every((n) => n === 1)).toBe(true);
});

test('undo puts back every object the job changed, and reports (without overwriting) one another writer changed in between', async ({ page, emulator, api, pageOrigin }) => {
  test.setTimeout(300_000);
  const { bucket, keys } = await seeded(emulator, api, pageOrigin, 300);
  await open(page, emulator, `/buckets/${zone}/${bucket}?prefix=big%2F`);
  const dialog = await editFolder(page, 'big/', '300');
  await dialog.getByRole('button', { name: 'Apply to 300 objects' }).click();
  await expect(dialog.getByTestId('job-summary')).toHaveText('300 of 300 done: 300 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 120_000 });
  // Another writer, after the job and before its undo.
  const victim = keys[42] ?? '';
  const store = emulator.server.store;
  store.copyObject({ sourceBucket: bucket, sourceKey: victim, bucket, key: victim, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/csv' }, custom: { theirs: 'yes' } } });

  await dialog.getByRole('button', { name: 'Undo this job (300 objects)' }).click();
  // The undo is a job of its own: the dialog shows it now.
  const undo = page.getByRole('dialog', { name: 'Undo: Edit metadata of all objects in big/' });
  await expect(undo.getByTestId('job-summary')).toHaveText('300 of 300 done: 299 restored, 0 already as before, 1 skipped, 0 failed.', { timeout: 120_000 });
  const row = undo.getByTestId('job-problems').locator('tr[data-status="skipped"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('rowheader')).toHaveText(victim);
  await expect(row).toContainText('Someone else changed it since it was read');
  for (const [i, key] of keys.entries()) {
    const metadata = store.getObject(bucket, key).metadata;
    expect(sameMetadata(metadata, key === victim ? { standard: { 'content-type': 'text/csv' }, custom: { theirs: 'yes' } } : original(i))).toBe(true);
  }
});

test('a job over the whole bucket starts only once the bucket’s name is typed', async ({ page, emulator, api, pageOrigin }) => {
  test.setTimeout(180_000);
  const { bucket, keys } = await seeded(emulator, api, pageOrigin, 40, '');
  await open(page, emulator, `/buckets/${zone}/${bucket}`);
  await moreAction(page, 'Bulk-edit the whole bucket…');
  const dialog = page.getByRole('dialog', { name: `Edit metadata of every object in the bucket ${bucket}` });
  await expect(dialog.getByTestId('bulk-listed')).toHaveText('40 objects in this bucket will be edited.');
  await dialog.getByLabel('Content-Type', { exact: true }).selectOption({ label: 'Set to' });
  await dialog.getByLabel('New value of Content-Type').fill('text/markdown');
  const apply = dialog.getByRole('button', { name: 'Apply to 40 objects' });
  await expect(apply).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Preview changes' })).toBeDisabled();
  await dialog.getByLabel('Type the bucket’s name to confirm').fill(`${bucket}x`);
  await expect(apply).toBeDisabled();
  await dialog.getByLabel('Type the bucket’s name to confirm').fill(bucket);
  await expect(apply).toBeEnabled();
  await apply.click();
  await expect(dialog.getByTestId('job-summary')).toHaveText('40 of 40 done: 40 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 120_000 });
  for (const key of keys) expect(emulator.server.store.getObject(bucket, key).metadata.standard['content-type']).toBe('text/markdown');
});

test('another tab sees the job running and cannot start a second one on the same folder', async ({ page, context, emulator, api, pageOrigin }) => {
  test.setTimeout(300_000);
  const { bucket } = await seeded(emulator, api, pageOrigin, 400);
  await open(page, emulator, `/buckets/${zone}/${bucket}?prefix=big%2F`);
  const dialog = await editFolder(page, 'big/', '400');
  await dialog.getByRole('button', { name: 'Apply to 400 objects' }).click();
  await dialog.getByRole('button', { name: 'Pause' }).click();
  await expect(dialog.getByTestId('job-phase')).toHaveText('Paused: the objects already being written finish; no new ones start until you resume.');

  const second = await context.newPage();
  await open(second, emulator, `/buckets/${zone}/${bucket}?prefix=big%2F`);
  const other = await editFolder(second, 'big/', '400');
  await other.getByRole('button', { name: 'Apply to 400 objects' }).click();
  await expect(other.getByRole('alert')).toHaveText('Another job is working on these objects right now: Edit metadata of all objects in big/. Wait for it to end, or see it under Jobs.');
  await other.getByRole('button', { name: 'Close' }).first().click();
  await second.goto('/jobs');
  const row = second.getByRole('row', { name: /Edit metadata of all objects in big\// });
  await expect(row).toContainText('Running in another tab');
  await second.close();

  await dialog.getByRole('button', { name: 'Resume' }).click();
  await expect(dialog.getByTestId('job-summary')).toHaveText('400 of 400 done: 400 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 120_000 });
});
