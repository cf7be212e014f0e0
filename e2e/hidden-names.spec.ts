import type { Page } from '@playwright/test';
import { putBucket } from '../src/api/buckets/operations.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import { buildCorsRule } from '../src/api/cors/rule.ts';
import { putBucketLifecycle } from '../src/api/lifecycle/operations.ts';
import { initiateMultipartUpload } from '../src/api/multipart/operations.ts';
import { putObject } from '../src/api/objects/write.ts';
import { HIDDEN_NAMES } from '../src/test-data/hidden-names.ts';
import { connect, expect, test, uniqueBucketName } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// 21 names that hide something (tag characters, invisible operators, soft hyphen, fillers, separators,
// joiners, bidi controls, …) as objects, folders, in-progress uploads and lifecycle rule prefixes: wherever
// the console shows one (the list, a folder's crumbs and heading, the tab title, the details title, the share
// text, a dialog, the uploads page and its rules), no hidden character is on the page raw, and each name is
// there with its characters shown as code points.

/**
 * A character that must not be on the page raw: any control but the line breaks and tabs innerText makes, any
 * format character, line or paragraph separator, default-ignorable code point. Stricter than the console's
 * rule (it keeps joiners inside emoji and joining scripts; these names have none) and independent of it.
 */
const RAW_HIDDEN = /[^\P{Cc}\n\r\t]|[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/** Every text of the page a person or a screen reader meets, with each raw hidden character pointed out. */
async function rawHiddenCharacters(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found = [`title: ${document.title}`, document.body.innerText];
    for (const element of document.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-description]')) {
      for (const name of ['aria-label', 'title', 'alt', 'placeholder', 'aria-description']) {
        const value = element.getAttribute(name);
        if (value) found.push(`${name}: ${value}`);
      }
    }
    return found;
  });
  return texts.flatMap((text) => {
    const at = text.search(RAW_HIDDEN);
    if (at < 0) return [];
    const c = text.codePointAt(at) ?? 0;
    return [`U+${c.toString(16).toUpperCase().padStart(4, '0')} raw in …${text.slice(Math.max(0, at - 30), at)}⟦here⟧${text.slice(at, at + 30)}…`];
  });
}

async function expectNoRawHiddenCharacters(page: Page, where: string): Promise<void> {
  expect(await rawHiddenCharacters(page), where).toEqual([]);
}

// Tall enough for the virtualised list to render all 42 rows at once.
test.use({ viewport: { width: 1280, height: 2400 } });

test('hidden characters in names are never on the page raw: list, crumbs, heading, tab title, details, share, every dialog naming one (delete, copy, move, metadata, folder delete, bulk edit), uploads and rules', async ({ page, api, emulator, pageOrigin }) => {
  test.setTimeout(180_000);
  const zone = 'pek3a';
  const bucket = uniqueBucketName('hidden');
  await putBucket(api, { zone, bucket });
  await putBucketCors(api, { zone, bucket }, { cors_rules: [buildCorsRule(pageOrigin)] });
  for (const { name } of HIDDEN_NAMES) {
    await putObject(api, { zone, bucket, key: name, body: 'a name that hides something' });
    await putObject(api, { zone, bucket, key: `${name}/${name}`, body: 'inside' });
    await initiateMultipartUpload(api, { zone, bucket, key: `${name}/upload.bin` });
  }
  await putBucketLifecycle(api, { zone, bucket }, HIDDEN_NAMES.map(({ name }, i) => ({
    id: `rule-${i}`, status: 'enabled', filter: { prefix: `${name}/` }, abort_incomplete_multipart_upload: { days_after_initiation: 7 },
  })));

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/${zone}/${bucket}`);
  const list = page.getByRole('grid');
  for (const { shown } of HIDDEN_NAMES) {
    await expect(list.getByRole('link', { name: shown, exact: true })).toBeVisible();
    await expect(list.getByRole('link', { name: `${shown}/`, exact: true })).toBeVisible();
  }
  await expectNoRawHiddenCharacters(page, 'the list');

  // A dialog naming one: Delete from the row's menu.
  const rlo = HIDDEN_NAMES.find((n) => n.name.includes('\u202e'));
  if (rlo === undefined) throw new Error('no U+202E name');
  await page.getByRole('row').filter({ has: page.getByRole('link', { name: rlo.shown, exact: true }) }).getByRole('button', { name: `Actions for ${rlo.shown}` }).click();
  await page.getByRole('menuitem', { name: /^Delete/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(rlo.shown);
  await expectNoRawHiddenCharacters(page, 'the delete dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Every other dialog that names an object or a folder.
  const rowOf = (shown: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: shown, exact: true }) });
  for (const [shown, item] of [[rlo.shown, 'Copy…'], [rlo.shown, 'Move or rename…'], [rlo.shown, 'Edit metadata…'], [`${rlo.shown}/`, 'Delete folder…'], [`${rlo.shown}/`, 'Bulk-edit this folder…']] as const) {
    await rowOf(shown).getByRole('button', { name: `Actions for ${shown}` }).click();
    await page.getByRole('menuitem', { name: item }).click();
    await expect(page.getByRole('dialog')).toContainText(rlo.shown);
    await expectNoRawHiddenCharacters(page, `the ${item} dialog`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }

  const details = page.getByTestId('object-details');
  for (const { what, name, shown } of HIDDEN_NAMES) {
    // Inside the folder, with the object of the same name open: crumbs, heading, tab title, details title.
    await page.goto(`/buckets/${zone}/${bucket}?prefix=${encodeURIComponent(`${name}/`)}&object=${encodeURIComponent(`${name}/${name}`)}`);
    await expect(details.getByRole('heading', { level: 2 })).toHaveText(shown);
    await expect(page.getByRole('navigation', { name: 'Location' })).toContainText(shown);
    await expect(page).toHaveTitle(`${bucket}/${shown}/${shown} — QingStor Console`);
    await expectNoRawHiddenCharacters(page, `inside the folder: ${what}`);
    await details.getByRole('tab', { name: 'Share' }).click();
    await details.getByRole('button', { name: 'Create download link' }).click();
    await expect(details.getByTestId('download-link')).toHaveText(`Download ${shown}`);
    await expectNoRawHiddenCharacters(page, `the share link: ${what}`);
  }

  // The bucket's in-progress uploads and its lifecycle rules' prefixes.
  await page.goto(`/buckets/${zone}/${bucket}/uploads`);
  for (const { shown } of HIDDEN_NAMES) {
    await expect(page.getByRole('main')).toContainText(`${shown}/upload.bin`);
    await expect(page.getByRole('main')).toContainText(`“${shown}/”`);
  }
  await expectNoRawHiddenCharacters(page, 'the uploads page');
});

test('hidden characters in the names of files being uploaded are never on the page raw: the panel, the overwrite question, the transfers and the header indicator', async ({ page, api, emulator, pageOrigin }) => {
  test.setTimeout(120_000);
  const zone = 'pek3a';
  const bucket = uniqueBucketName('hidden-up');
  await putBucket(api, { zone, bucket });
  await putBucketCors(api, { zone, bucket }, { cors_rules: [buildCorsRule(pageOrigin)] });
  // One of the names is taken already, so the upload asks before it overwrites.
  const taken = HIDDEN_NAMES.find((n) => n.name.includes('\u202e'));
  if (taken === undefined) throw new Error('no U+202E name');
  await putObject(api, { zone, bucket, key: taken.name, body: 'earlier' });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/${zone}/${bucket}`);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: `Upload to ${bucket}` });
  await dropFiles(panel.getByTestId('dropzone'), HIDDEN_NAMES.map(({ name }) => ({ path: name, text: 'a file that hides something', type: 'text/plain' })));
  await expectNoRawHiddenCharacters(page, 'the files chosen');
  await panel.getByRole('button', { name: `Upload ${HIDDEN_NAMES.length} files` }).click();
  await expect(panel).toContainText(taken.shown);
  await expectNoRawHiddenCharacters(page, 'the overwrite question');
  await panel.getByRole('button', { name: 'Overwrite' }).click();
  const transfers = panel.getByRole('table', { name: 'Transfers' });
  for (const { shown } of HIDDEN_NAMES) await expect(transfers.getByRole('row', { name: shown, exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expectNoRawHiddenCharacters(page, 'the transfers and the header indicator');
});
