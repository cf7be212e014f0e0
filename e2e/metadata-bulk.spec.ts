import type { Page } from '@playwright/test';
import type { QsClient } from '../src/api/client.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import { expectNoAxeViolations, moreAction, slowDemoAnswers } from './fixtures.ts';
import { expect, test, type EmulatorHandle } from './support/emulator.ts';

// Bulk metadata edit over a whole folder and over a selection: the dry run, pause/resume, failures and
// their retry, and the unsaved-changes guard; each in demo mode and in endpoint mode.

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

      // Injected failures: two objects disappear after the folder was listed.
      const victims = [keys[41] ?? '', keys[172] ?? ''];
      for (const victim of victims) await backend.remove(victim);
      await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
      const summary = bulk.getByTestId('bulk-summary');
      const results = bulk.getByTestId('bulk-results');
      await expect(results.locator('tr[data-status="done"]').first()).toBeVisible({ timeout: 30_000 });

      // Pause: the objects being written finish, then nothing runs while objects are still waiting.
      await bulk.getByRole('button', { name: 'Pause' }).click();
      await expect(bulk.getByText('Paused: the objects already being written finish; no new ones start until you resume.')).toBeVisible();
      await expect(results.locator('tr[data-status="running"]')).toHaveCount(0, { timeout: 30_000 });
      const waiting = await results.locator('tr[data-status="pending"]').count();
      expect(waiting).toBeGreaterThan(0);
      const pausedText = await summary.textContent();
      await expect(summary).toHaveText(/^\d+ of 200 finished/);
      await bulk.getByRole('button', { name: 'Resume' }).click();
      await expect(summary).not.toHaveText(pausedText ?? '');

      await expect(summary).toHaveText('200 of 200 finished: 198 changed, 0 already up to date, 2 failed.', { timeout: 180_000 });
      const failedRows = results.locator('tr[data-status="failed"]');
      await expect(failedRows).toHaveCount(2);
      for (const [i, victim] of victims.entries()) {
        const row = failedRows.nth(i);
        await expect(row.getByRole('rowheader')).toHaveText(victim);
        await expect(row.getByRole('alert')).toContainText('not_found');
        await expect(row.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);
      }
      // Every changed object shows the request id of its copy.
      await expect(results.locator('tr[data-status="done"]').first()).toContainText(/[0-9a-f]{16,32}/);

      for (const victim of victims) await backend.put(victim, { standard: { 'content-type': 'text/plain' }, custom: { back: 'yes' } });
      await bulk.getByRole('button', { name: 'Retry 2 failed' }).click();
      await expect(summary).toHaveText('200 of 200 finished: 200 changed, 0 already up to date, 0 failed.', { timeout: 60_000 });
      for (const [i, key] of keys.entries()) {
        const custom = victims.includes(key) ? { back: 'yes' } : { idx: String(i) };
        expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain', 'cache-control': 'max-age=120' }, custom });
      }
      // The run is over: closing asks nothing.
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
      await expect(bulk.getByTestId('bulk-preview-summary')).toHaveText(
        'Preview of 5 objects: 4 would change, 1 over a limit.',
      );
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

      await bulk.getByRole('button', { name: 'Apply to the 4 objects that pass' }).click();
      const summary = bulk.getByTestId('bulk-summary');
      await expect(summary).toHaveText('4 of 4 finished: 4 changed, 0 already up to date, 0 failed.', { timeout: 60_000 });
      await expect(bulk.getByText('1 object is skipped; it is listed last, with the reason.')).toBeVisible();
      const skipped = bulk.getByTestId('bulk-results').locator('tr[data-status="skipped"]');
      await expect(skipped).toHaveCount(1);
      await expect(skipped.getByRole('rowheader')).toHaveText(big);
      await expect(skipped).toContainText('Over a limit, skipped');
      await expect(skipped.getByRole('alert')).toContainText('metadata_too_large');
      await expect(bulk.getByTestId('bulk-results').locator('tr[data-status="done"]')).toHaveCount(4);
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

test('demo mode: cancel while paused leaves the rest untouched and reports them as not started; they run later on request', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix } = await demoFolder(page, 'cancel', 100);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 100);
  await bulk.getByRole('button', { name: 'Apply to 100 objects' }).click();
  await bulk.getByRole('button', { name: 'Pause' }).click();
  const results = bulk.getByTestId('bulk-results');
  await expect(results.locator('tr[data-status="running"]')).toHaveCount(0, { timeout: 30_000 });
  await bulk.getByRole('button', { name: 'Cancel the rest' }).click();
  const summary = bulk.getByTestId('bulk-summary');
  await expect(summary).toHaveText(/^\d+ of 100 finished: \d+ changed, 0 already up to date, 0 failed, \d+ not started\.$/);
  const notStarted = results.locator('tr[data-status="cancelled"]');
  const count = await notStarted.count();
  expect(count).toBeGreaterThan(0);
  await expect(notStarted.first()).toContainText('Not started');
  const untouched = (await notStarted.last().getByRole('rowheader').textContent()) ?? '';
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/plain');

  await bulk.getByRole('button', { name: `Run the ${count} object${count === 1 ? '' : 's'} not started` }).click();
  await expect(summary).toHaveText('100 of 100 finished: 100 changed, 0 already up to date, 0 failed.', { timeout: 60_000 });
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/csv');
});

test('demo mode: closing a running bulk edit or dry run asks to stop it, in those words; stopping leaves the objects not started untouched', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix } = await demoFolder(page, 'close', 200);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 200);

  // 200 objects: the dry run and the run each take long enough to be paused while objects still wait.
  // Esc during a paused dry run: the question is about stopping the preview; nothing was written.
  await bulk.getByRole('button', { name: 'Preview changes' }).click();
  await bulk.getByRole('button', { name: 'Pause' }).click();
  await page.keyboard.press('Escape');
  const previewQuestion = page.getByRole('alertdialog', { name: 'Stop the preview?' });
  await expect(previewQuestion).toContainText('Nothing has been written.');
  await previewQuestion.getByRole('button', { name: 'Don’t stop' }).click();
  await bulk.getByRole('button', { name: 'Resume' }).click();
  await bulk.getByRole('button', { name: 'Apply to the 200 objects that pass' }).click({ timeout: 30_000 });
  await bulk.getByRole('button', { name: 'Pause' }).click();
  const results = bulk.getByTestId('bulk-results');
  await expect(results.locator('tr[data-status="running"]')).toHaveCount(0, { timeout: 30_000 });
  const waiting = results.locator('tr[data-status="pending"]');
  expect(await waiting.count()).toBeGreaterThan(0);
  const untouched = (await waiting.last().getByRole('rowheader').textContent()) ?? '';

  // Esc while the run is paused: the question is about stopping the run, not about unsaved edits.
  await page.keyboard.press('Escape');
  const question = page.getByRole('alertdialog', { name: 'Stop the bulk edit?' });
  await expect(question).toContainText('Objects being written now finish; the ones not started yet are left as they are.');
  await expect(question.getByRole('button', { name: 'Don’t stop' })).toBeFocused();
  await question.getByRole('button', { name: 'Don’t stop' }).click();
  await expect(question).toBeHidden();
  await expect(bulk).toBeVisible();

  await bulk.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('alertdialog', { name: 'Stop the bulk edit?' }).getByRole('button', { name: 'Stop and close' }).click();
  await expect(bulk).toBeHidden();
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/plain');
});

test('demo mode: closing while an undo runs asks to stop the undo, and stopping leaves the rest with the bulk values', async ({ page }) => {
  test.setTimeout(120_000);
  const { backend, prefix, keys } = await demoFolder(page, 'undo', 200);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = await setCsvInFolderBulk(page, prefix, 200);
  await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
  await expect(bulk.getByTestId('bulk-summary')).toHaveText('200 of 200 finished: 200 changed, 0 already up to date, 0 failed.', { timeout: 60_000 });

  await bulk.getByRole('button', { name: 'Undo this bulk edit (200 objects)' }).click();
  await page.keyboard.press('Escape');
  const question = page.getByRole('alertdialog', { name: 'Stop the undo?' });
  await expect(question).toContainText('the others keep the values this bulk edit wrote');
  await question.getByRole('button', { name: 'Stop and close' }).click();
  await expect(bulk).toBeHidden();
  // The undo stopped: the last objects (restored last, if at all) still carry the bulk edit's value.
  expect((await backend.head(keys.at(-1) ?? ''))?.standard['content-type']).toBe('text/csv');
});

test('demo mode: going back while a bulk edit from a row menu runs asks to stop it, and "Stop and close" does both before leaving', async ({ page }) => {
  test.setTimeout(120_000);
  // The folder, then the bucket's root: Back returns to the folder, in the same object browser.
  const { backend, prefix } = await demoFolder(page, 'leave', 200);
  await expect(page.getByRole('grid')).toBeVisible();
  await backend.open(backend.path());
  await page.getByRole('button', { name: `Actions for ${prefix}` }).click();
  await page.getByRole('menuitem', { name: 'Bulk-edit this folder…' }).click();
  const bulk = await setCsvInFolderBulk(page, prefix, 200);
  await bulk.getByRole('button', { name: 'Apply to 200 objects' }).click();
  await bulk.getByRole('button', { name: 'Pause' }).click();
  const results = bulk.getByTestId('bulk-results');
  await expect(results.locator('tr[data-status="running"]')).toHaveCount(0, { timeout: 30_000 });
  const untouched = (await results.locator('tr[data-status="pending"]').last().getByRole('rowheader').textContent()) ?? '';

  await page.goBack();
  await page.getByRole('alertdialog', { name: 'Stop the bulk edit?' }).getByRole('button', { name: 'Stop and close' }).click();
  // Stopped and closed, not left open (still paused, resumable) over the folder's page.
  await expect(bulk).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`prefix=${encodeURIComponent(prefix)}$`));
  expect((await backend.head(untouched))?.standard['content-type']).toBe('text/plain');
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
  await bulk.getByRole('button', { name: '应用到通过预览的 2 个对象' }).click();
  await expect(bulk.getByTestId('bulk-summary')).toHaveText('已完成 2 / 2：2 个已修改，0 个无需修改，0 个失败。', { timeout: 60_000 });
  await expect(bulk.getByText('跳过 1 个对象；列在最后，并注明原因。')).toBeVisible();
  await expect(bulk.getByTestId('bulk-results').locator('tr[data-status="skipped"]')).toContainText('超出限制，已跳过');
  await expectNoAxeViolations(page, 'dialog');
  await bulk.getByRole('button', { name: '关闭' }).first().click();
  await expect(bulk).toBeHidden();
});

test('demo mode: a folder of more than 1000 objects is refused with a clear message before anything is read', async ({ page }) => {
  // The demo's archive bucket holds 100,000 objects in day folders; a month holds thousands.
  const backend = await demoBackend(page);
  await backend.open(`/buckets/sh1a/demo-archive?prefix=${encodeURIComponent('logs/2024/01/')}`);
  await moreAction(page, 'Bulk-edit this folder…');
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of all objects in logs/2024/01/' });
  await expect(bulk.getByRole('alert')).toHaveText(
    'This folder holds more than 1,000 objects. A bulk edit changes at most 1,000 at a time: open a subfolder, or select objects in the table.',
  );
  await expect(bulk.getByRole('button', { name: /^Apply/ })).toHaveCount(0);
  await bulk.getByRole('button', { name: 'Close' }).first().click();
  await expect(bulk).toBeHidden();
});
