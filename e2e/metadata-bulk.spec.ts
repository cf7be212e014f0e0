import type { Page } from '@playwright/test';
import type { QsClient } from '../src/api/client.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import { expectNoAxeViolations, moreAction, slowDemoAnswers } from './fixtures.ts';
import { expect, test, type EmulatorHandle } from './support/emulator.ts';

// Bulk metadata edit (a job) over a whole folder and over a selection: the dry run, pause/resume, failures and
// their retry, and the unsaved-changes guard; each in demo mode and in endpoint mode. Endpoint-only journeys
// at scale (reload and resume, cancel, report, undo, the whole bucket, two tabs) are in bulk-jobs.spec.ts.

async function backendFor(mode: Mode, page: Page, fixtures: { emulator: EmulatorHandle; api: QsClient; pageOrigin: string }): Promise<Backend> {
  return mode === 'demo' ? demoBackend(page) : endpointBackend(page, fixtures.emulator, fixtures.api, fixtures.pageOrigin);
}

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

/** Puts `keys` a few at a time (the page's backend answers one fetch after another in demo mode). */
async function putAll(backend: Backend, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 10) {
    await Promise.all(keys.slice(start, start + 10).map((key, i) => backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: { idx: String(start + i) } })));
  }
}

/** `count` objects (text/plain) in a fresh folder of the demo, and that folder open. */
async function demoFolder(page: Page, name: string, count: number): Promise<{ backend: Backend; prefix: string; keys: string[] }> {
  // A network's pace (15 ms an answer), so the runs below are still under way when the journey acts on them.
  await page.addInitScript(slowDemoAnswers, 15);
  const backend = await demoBackend(page);
  const prefix = uniquePrefix(name);
  const keys = Array.from({ length: count }, (_, i) => `${prefix}o-${String(i).padStart(3, '0')}.txt`);
  await putAll(backend, keys);
  await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
  return { backend, prefix, keys };
}

/** The folder's bulk edit once it has listed `count` objects, with Content-Type set to text/csv. */
async function setCsvInFolderBulk(page: Page, prefix: string, count: number) {
  const bulk = page.getByRole('dialog', { name: `Edit metadata of all objects in ${prefix}` });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText(`${count} objects in this folder and its subfolders will be edited.`);
  await bulk.getByLabel('Content-Type', { exact: true }).selectOption({ label: 'Set to' });
  await bulk.getByLabel('New value of Content-Type').fill('text/csv');
  return bulk;
}

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test('bulk edit of a folder of 200 objects: paused and resumed, 2 failures shown with their code and request id, retried successfully', async ({ page, emulator, api, pageOrigin }) => {
      test.setTimeout(240_000);
      // The demo at a network's pace, so the job is still under way when Pause is clicked.
      if (mode === 'demo') await page.addInitScript(slowDemoAnswers, 15);
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('bulk200');
      const keys = Array.from({ length: 200 }, (_, i) => `${prefix}${i < 150 ? '' : 'sub/'}o-${String(i).padStart(3, '0')}.txt`);
      await putAll(backend, keys);
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));

      await moreAction(page, 'Bulk-edit this folder…');
      const bulk = page.getByRole('dialog', { name: `Edit metadata of all objects in ${prefix}` });
      await expect(bulk.getByTestId('bulk-listed')).toHaveText('200 objects in this folder and its subfolders will be edited.');
      await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
      await bulk.getByLabel('New value of Cache-Control').fill('max-age=120');
      await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
      const summary = bulk.getByTestId('job-summary');
      const phase = bulk.getByTestId('job-phase');
      await expect(summary).toHaveText(/^[1-9]\d* of 200 done/, { timeout: 30_000 });

      // Pause: the objects being written finish, then nothing runs while objects are still waiting.
      await bulk.getByRole('button', { name: 'Pause' }).click();
      await expect(phase).toHaveText('Paused: the objects already being written finish; no new ones start until you resume.', { timeout: 30_000 });
      const pausedText = (await summary.textContent()) ?? '';
      const done = Number(/^(\d+) of/.exec(pausedText)?.[1]);
      expect(done).toBeLessThan(90);
      await expect(summary).toHaveText(pausedText);
      // Injected failures: two objects the job listed but has not reached yet disappear while it is paused.
      const victims = [keys[95] ?? '', keys[98] ?? ''];
      for (const victim of victims) await backend.remove(victim);
      await bulk.getByRole('button', { name: 'Resume' }).click();
      await expect(summary).not.toHaveText(pausedText);

      await expect(summary).toHaveText('200 of 200 done: 198 changed, 0 already up to date, 0 skipped, 2 failed.', { timeout: 180_000 });
      const failedRows = bulk.getByTestId('job-problems').locator('tr[data-status="failed"]');
      await expect(failedRows).toHaveCount(2);
      for (const [i, victim] of victims.entries()) {
        const row = failedRows.nth(i);
        await expect(row.getByRole('rowheader')).toHaveText(victim);
        await expect(row.getByRole('alert')).toContainText('not_found');
        await expect(row.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
      }

      for (const victim of victims) await backend.put(victim, { standard: { 'content-type': 'text/plain' }, custom: { back: 'yes' } });
      await bulk.getByRole('button', { name: 'Retry 2 failed' }).click();
      await expect(summary).toHaveText('200 of 200 done: 200 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 60_000 });
      await expect(bulk.getByTestId('job-problems-none')).toHaveText('No object was skipped or failed.');
      for (const [i, key] of keys.entries()) {
        const custom = victims.includes(key) ? { back: 'yes' } : { idx: String(i) };
        expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain', 'cache-control': 'max-age=120' }, custom });
      }
      // The job is over: closing asks nothing.
      await bulk.getByRole('button', { name: 'Close' }).first().click();
      await expect(bulk).toBeHidden();
    });

    test('dry run of a selection: before → after per object, one object over the 2 KB limit is skipped; Esc with edits asks first; axe light and dark', async ({ page, emulator, api, pageOrigin }) => {
      test.setTimeout(120_000);
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('dryrun');
      const keys = Array.from({ length: 5 }, (_, i) => `${prefix}d-${i}.txt`);
      await putAll(backend, keys);
      // 1,900 bytes of custom metadata: 200 more break the 2 KB total.
      const big = keys[2] ?? '';
      const bigMetadata = { standard: { 'content-type': 'text/plain' }, custom: { filler: 'f'.repeat(1900) } };
      await backend.put(big, bigMetadata);
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
      await page.getByRole('checkbox', { name: 'Select all 5 loaded objects' }).check();
      await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Edit metadata of 5 objects' }).click();
      const bulk = page.getByRole('dialog', { name: 'Edit metadata of 5 objects' });
      await expect(bulk.getByTestId('bulk-listed')).toHaveText('5 selected objects will be edited.');
      await bulk.getByRole('button', { name: 'Add key operation' }).click();
      await bulk.getByLabel('Key 1', { exact: true }).fill('note');
      await bulk.getByLabel('Value 1', { exact: true }).fill('n'.repeat(200));

      // Esc with edits asks; "Keep editing" keeps them.
      await bulk.getByLabel('Value 1', { exact: true }).press('Escape');
      const confirm = bulk.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Keep editing' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(bulk.getByLabel('Value 1', { exact: true })).toHaveValue('n'.repeat(200));
      // So do the dialog's Close and the form's Cancel.
      for (const name of ['Close', 'Cancel']) {
        await bulk.getByRole('button', { name, exact: true }).first().click();
        await expect(confirm).toBeVisible();
        await confirm.getByRole('button', { name: 'Keep editing' }).click();
        await expect(confirm).toHaveCount(0);
        await expect(bulk).toBeVisible();
      }

      await bulk.getByRole('button', { name: 'Preview changes' }).click();
      await expect(bulk.getByTestId('bulk-preview-summary')).toHaveText('Preview of 5 objects: 4 would change, 1 over a limit.');
      const preview = bulk.getByTestId('bulk-preview');
      const over = preview.getByRole('row', { name: big });
      await expect(over).toHaveAttribute('data-status', 'invalid');
      await expect(over).toContainText('Over a limit, skipped');
      await expect(over.getByRole('alert')).toContainText('metadata_too_large');
      const fine = preview.getByRole('row', { name: keys[0] ?? '' });
      await expect(fine).toContainText('Would change');
      await expect(fine).toContainText(`x-qs-meta-note: — → ${'n'.repeat(200)}`);
      // Nothing was written by the preview.
      expect((await backend.head(keys[0] ?? ''))?.custom).toEqual({ idx: '0' });

      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'light' });

      // The run checks every object as the preview did: the one over the limit is skipped, with the reason.
      await bulk.getByRole('button', { name: 'Apply to 5 objects' }).click();
      const summary = bulk.getByTestId('job-summary');
      await expect(summary).toHaveText('5 of 5 done: 4 changed, 0 already up to date, 1 skipped, 0 failed.', { timeout: 60_000 });
      const skipped = bulk.getByTestId('job-problems').locator('tr[data-status="skipped"]');
      await expect(skipped).toHaveCount(1);
      await expect(skipped.getByRole('rowheader')).toHaveText(big);
      await expect(skipped).toContainText('Skipped');
      await expect(skipped.getByRole('alert')).toContainText('metadata_too_large');
      await expect(skipped.getByRole('alert')).toContainText('at most 2,048 bytes are allowed');
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'light' });
      for (const [i, key] of keys.entries()) {
        expect(await backend.head(key)).toEqual(key === big ? bigMetadata : { standard: { 'content-type': 'text/plain' }, custom: { idx: String(i), note: 'n'.repeat(200) } });
      }
    });
  });
}

test('demo mode: cancel while paused leaves the rest untouched; they run later on request', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix, keys } = await demoFolder(page, 'cancel', 100);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 100);
  await bulk.getByRole('button', { name: 'Apply to 100 objects' }).click();
  await bulk.getByRole('button', { name: 'Pause' }).click();
  const phase = bulk.getByTestId('job-phase');
  await expect(phase).toHaveText('Paused: the objects already being written finish; no new ones start until you resume.', { timeout: 30_000 });
  await bulk.getByRole('button', { name: 'Cancel the rest' }).click();
  await expect(phase).toHaveText('Cancelled: the objects not started are left as they are.');
  const summary = bulk.getByTestId('job-summary');
  await expect(summary).toHaveText(/^\d+ of 100 done: \d+ changed, 0 already up to date, 0 skipped, 0 failed\.$/);
  const done = Number(/^(\d+) of/.exec((await summary.textContent()) ?? '')?.[1]);
  expect(done).toBeLessThan(100);
  const untouched = keys.at(-1) ?? '';
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/plain');

  await bulk.getByRole('button', { name: 'Resume' }).click();
  await expect(summary).toHaveText('100 of 100 done: 100 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 60_000 });
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/csv');
});

test('demo mode: closing a running dry run asks to stop it; closing a running job leaves it running, never unseen: the header links to it on the Jobs page, where it is cancelled', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix, keys } = await demoFolder(page, 'close', 200);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 200);

  // Esc during the dry run (it reads 100 objects): the question is about stopping the preview; nothing was written.
  await bulk.getByRole('button', { name: 'Preview changes' }).click();
  await page.keyboard.press('Escape');
  const previewQuestion = page.getByRole('alertdialog', { name: 'Stop the preview?' });
  await expect(previewQuestion).toContainText('Nothing has been written.');
  await previewQuestion.getByRole('button', { name: 'Don’t stop' }).click();
  await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click({ timeout: 30_000 });
  await expect(bulk.getByTestId('job-summary')).toHaveText(/^\d+ of 200 done/);

  // Esc while it runs: no question, the dialog closes and the job goes on, shown in the header.
  await page.keyboard.press('Escape');
  await expect(bulk).toBeHidden();
  await page.getByTestId('jobs-indicator').click();
  await expect(page).toHaveURL(/\/jobs$/);
  await page.getByRole('link', { name: `Edit metadata of all objects in ${prefix}` }).click();
  const job = page.getByRole('region', { name: `Edit metadata of all objects in ${prefix}` });
  await job.getByRole('button', { name: 'Cancel the rest' }).click();
  await expect(job.getByTestId('job-phase')).toHaveText('Cancelled: the objects not started are left as they are.');
  await expect(page.getByTestId('jobs-indicator')).toHaveCount(0);
  expect((await backend.head(keys.at(-1) ?? ''))?.standard['content-type']).toBe('text/plain');
});

test('demo mode: undo is a job of its own; cancelling it leaves the objects it did not reach with the bulk values', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix, keys } = await demoFolder(page, 'undo', 200);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 200);
  await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
  await expect(bulk.getByTestId('job-summary')).toHaveText('200 of 200 done: 200 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 60_000 });

  await bulk.getByRole('button', { name: 'Undo this job (200 objects)' }).click();
  const undo = page.getByRole('dialog', { name: `Undo: Edit metadata of all objects in ${prefix}` });
  await undo.getByRole('button', { name: 'Cancel the rest' }).click();
  await expect(undo.getByTestId('job-phase')).toHaveText('Cancelled: the objects not started are left as they are.');
  // The undo stopped: the last objects (restored last, if at all) still carry the bulk edit's value.
  expect((await backend.head(keys.at(-1) ?? ''))?.standard['content-type']).toBe('text/csv');
  await undo.getByRole('button', { name: 'Resume' }).click();
  await expect(undo.getByTestId('job-summary')).toHaveText('200 of 200 done: 200 restored, 0 already as before, 0 skipped, 0 failed.', { timeout: 60_000 });
  expect((await backend.head(keys.at(-1) ?? ''))?.standard['content-type']).toBe('text/plain');
});

test('demo mode: going back while a job from a row menu runs closes its dialog without a question; the job goes on and finishes', async ({ page }) => {
  test.setTimeout(120_000);
  // The folder, then the bucket's root: Back returns to the folder, in the same object browser.
  const { backend, prefix, keys } = await demoFolder(page, 'leave', 200);
  await expect(page.getByRole('grid')).toBeVisible();
  await backend.open(backend.path());
  await page.getByRole('button', { name: `Actions for ${prefix}` }).click();
  await page.getByRole('menuitem', { name: 'Bulk-edit this folder…' }).click();
  const bulk = await setCsvInFolderBulk(page, prefix, 200);
  await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
  await expect(bulk.getByTestId('job-summary')).toBeVisible();

  await page.goBack();
  // Closed, not left open over the folder's page; the job is not stopped.
  await expect(bulk).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`prefix=${encodeURIComponent(prefix)}$`));
  await expect(page.getByTestId('jobs-indicator')).toHaveText('1 job running');
  await expect(page.getByTestId('jobs-indicator')).toHaveCount(0, { timeout: 60_000 });
  expect((await backend.head(keys.at(-1) ?? ''))?.standard['content-type']).toBe('text/csv');
});

test("demo mode: a folder's row menu, its bulk edit and its delete dialog name the folder as the table shows it, its bidi control visible", async ({ page }) => {
  const backend = await demoBackend(page);
  // A folder whose name a right-to-left override would show reversed ('…exe.txt' read as '…txt.exe').
  const folder = `${uniquePrefix('bidi').slice(0, -1)}\u202etxt.exe/`;
  await putAll(backend, [`${folder}a.txt`]);
  await backend.open(backend.path());
  const shown = folder.replace('\u202e', '\u27e8U+202E\u27e9');
  // The row's menu button and the menu name the folder the same visible way.
  await page.getByRole('button', { name: `Actions for ${shown}` }).click();
  await expect(page.getByRole('menu', { name: `Actions for ${shown}` })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Bulk-edit this folder…' }).click();
  const bulk = page.getByRole('dialog', { name: `Edit metadata of all objects in ${shown}` });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText('1 object in this folder and its subfolders will be edited.');
  await expect(bulk.getByRole('heading', { level: 2 })).toHaveText(`Edit metadata of all objects in ${shown}`);
  await bulk.getByRole('button', { name: 'Close' }).first().click();
  // So does the delete-folder dialog reached from the same menu.
  await page.getByRole('button', { name: `Actions for ${shown}` }).click();
  await page.getByRole('menuitem', { name: 'Delete folder…' }).click();
  await expect(page.getByRole('dialog', { name: new RegExp(`^Delete folder .*${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })).toBeVisible();
});

test('demo mode, in Chinese: the folder entry, the dry run with an object over the limit, the run and its skipped object', async ({ page }) => {
  test.setTimeout(120_000);
  const backend = await demoBackend(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  const prefix = uniquePrefix('批量预览');
  const keys = Array.from({ length: 3 }, (_, i) => `${prefix}对象-${i}.txt`);
  await putAll(backend, keys);
  const big = keys[1] ?? '';
  await backend.put(big, { standard: { 'content-type': 'text/plain' }, custom: { filler: 'f'.repeat(1900) } });
  await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
  await page.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menu', { name: '更多操作' }).getByRole('menuitem', { name: '批量编辑此文件夹…' }).click();
  const bulk = page.getByRole('dialog', { name: `编辑 ${prefix} 中所有对象的元数据` });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText('将编辑此文件夹及其子文件夹中的 3 个对象。');
  await bulk.getByRole('button', { name: '添加键操作' }).click();
  await bulk.getByLabel('键 1', { exact: true }).fill('note');
  await bulk.getByLabel('值 1', { exact: true }).fill('n'.repeat(200));
  await bulk.getByRole('button', { name: '预览更改' }).click();
  await expect(bulk.getByTestId('bulk-preview-summary')).toHaveText('3 个对象的预览：2 个将被修改，1 个超出限制。');
  await expect(bulk.getByTestId('bulk-preview').getByRole('row', { name: big })).toContainText('超出限制，已跳过');
  await expectNoAxeViolations(page, 'dialog');
  await bulk.getByRole('button', { name: '应用到 3 个对象' }).click();
  await expect(bulk.getByTestId('job-summary')).toHaveText('已完成 3 / 3：2 个已修改，0 个无需修改，1 个已跳过，0 个失败。', { timeout: 60_000 });
  await expect(bulk.getByTestId('job-problems').locator('tr[data-status="skipped"]')).toContainText('已跳过');
  await expectNoAxeViolations(page, 'dialog');
  await bulk.getByRole('button', { name: '关闭' }).first().click();
  await expect(bulk).toBeHidden();
});

test('demo mode: a folder of thousands of objects is counted and offered whole (no cap): its dry run reads the first 100', async ({ page }) => {
  // The demo's archive bucket holds 100,000 objects in day folders; a month holds thousands.
  const backend = await demoBackend(page);
  await backend.open(`/buckets/sh1a/demo-archive?prefix=${encodeURIComponent('logs/2024/01/')}`);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of all objects in logs/2024/01/' });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText(/^[\d,]{5,} objects in this folder and its subfolders will be edited\.$/, { timeout: 60_000 });
  const count = /^([\d,]+) objects/.exec((await bulk.getByTestId('bulk-listed').textContent()) ?? '')?.[1] ?? '';
  await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
  await bulk.getByLabel('New value of Cache-Control').fill('max-age=60');
  await expect(bulk.getByRole('button', { name: `Apply to ${count} objects` })).toBeEnabled();
  await bulk.getByRole('button', { name: 'Preview changes' }).click();
  await expect(bulk.getByTestId('bulk-preview-summary')).toHaveText(`Preview of the first 100 of ${count} objects: 100 would change.`, { timeout: 60_000 });
  await expect(bulk.getByTestId('bulk-preview').locator('tbody tr')).toHaveCount(100);
  await bulk.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(bulk).toBeHidden();
});
