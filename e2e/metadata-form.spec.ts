import type { Page } from '@playwright/test';
import type { QsClient } from '../src/api/client.ts';
import { encodeRfc2047B } from '../src/api/metadata/encoding.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import { expect, test, type EmulatorHandle } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// The compact metadata form: seven keys edited without the page scrolling, ten pasted lines, the unsaved-changes
// guard, and the same encoding offer (and stored bytes) for one Chinese value in the editor, bulk edit,
// copy with REPLACE and the upload drawer. Each in demo mode and over real HTTP; results read back by HEAD.

const SEVEN: ObjectMetadata = {
  standard: { 'content-type': 'text/plain', 'cache-control': 'private, max-age=600' },
  custom: { k1: 'v1', k2: 'v2', k3: 'v3', k4: 'v4', k5: 'v5', k6: 'v6', k7: 'v7' },
};

const CHINESE = '测试作者';

async function backendFor(mode: Mode, page: Page, fixtures: { emulator: EmulatorHandle; api: QsClient; pageOrigin: string }): Promise<Backend> {
  return mode === 'demo' ? demoBackend(page) : endpointBackend(page, fixtures.emulator, fixtures.api, fixtures.pageOrigin);
}

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

function objectPath(backend: Backend, key: string, edit = false): string {
  const prefix = key.slice(0, key.lastIndexOf('/') + 1);
  return backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}${edit ? '&edit=1' : ''}`);
}

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test('seven keys edited at 1280×800 without the page scrolling (the footer stays in view), ten pasted lines, Esc and reload ask first, axe light and dark', async ({ page, emulator, api, pageOrigin }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const key = `${uniquePrefix('form')}seven.txt`;
      await backend.put(key, SEVEN);
      await backend.open(objectPath(backend, key, true));
      const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
      await expect(dialog.getByTestId('metadata-row')).toHaveCount(7);
      // Nothing typed yet: no rule errors, no encoding select for plain ASCII values.
      await dialog.getByRole('button', { name: 'Add key' }).click();
      await expect(dialog.getByText('Enter a key.')).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Remove key 8' }).click();
      await expect(dialog.getByRole('combobox', { name: /^Encoding of value/ })).toHaveCount(0);

      for (let n = 1; n <= 7; n += 1) await dialog.getByLabel(`Value ${n}`, { exact: true }).fill(`edited ${n}`);
      const review = dialog.getByRole('button', { name: 'Review changes' });
      await expect(review).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
      // Each header shows what it does and its rule, so the form is taller than the dialog: the body scrolls
      // inside it, and its footer (Review changes) stays in view wherever the body is scrolled.
      await dialog.getByLabel('Value 7', { exact: true }).scrollIntoViewIfNeeded();
      await expect(dialog.getByLabel('Value 7', { exact: true })).toBeInViewport();
      await expect(review).toBeInViewport();

      // Ten lines at once through "Paste lines"; the footer stays pinned however long the form gets.
      await dialog.getByText('Paste lines', { exact: true }).click();
      // Esc in the popover closes only the popover (no discard question, the editor stays).
      await dialog.getByLabel('One “key: value” per line').press('Escape');
      await expect(dialog.getByLabel('One “key: value” per line')).toBeHidden();
      await expect(dialog.getByTestId('unsaved-confirm')).toHaveCount(0);
      await expect(dialog).toBeVisible();
      await dialog.getByText('Paste lines', { exact: true }).click();
      const lines = Array.from({ length: 10 }, (_, i) => `x-qs-meta-pasted-${i}: value ${i}`);
      await dialog.getByLabel('One “key: value” per line').fill(lines.join('\n'));
      await dialog.getByRole('button', { name: 'Add as rows' }).click();
      await expect(dialog.getByText('10 lines added as rows.')).toBeVisible();
      await expect(dialog.getByTestId('metadata-row')).toHaveCount(17);
      await expect(dialog.getByLabel('Key 17', { exact: true })).toHaveValue('pasted-9');
      await expect(review).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);

      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'light' });

      // Esc with unsaved edits asks; "Keep editing" keeps every edit.
      await dialog.getByLabel('Value 1', { exact: true }).press('Escape');
      const confirm = dialog.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
      await expect(confirm).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(page).toHaveURL(/edit=1/);
      // A second Esc (the browser may then close a dialog without asking the page) still loses nothing.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();
      await expect(confirm).toBeVisible();
      await expect(page).toHaveURL(/edit=1/);
      await confirm.getByRole('button', { name: 'Keep editing' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(dialog.getByLabel('Value 7', { exact: true })).toHaveValue('edited 7');
      // A reload is warned about (beforeunload is cancelled while edits are unsaved).
      expect(await page.evaluate(() => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      })).toBe(true);

      await review.click();
      const diff = dialog.getByTestId('metadata-diff');
      await expect(diff).toBeVisible();
      // The side-by-side review is axe-clean too (tinted cells keep their contrast), light and dark.
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectNoAxeViolations(page, 'dialog');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect(diff.getByRole('row', { name: /x-qs-meta-k3/, exact: true })).toContainText('v3');
      await expect(diff.getByRole('row', { name: /x-qs-meta-k3/, exact: true })).toContainText('edited 3');
      await expect(diff.getByRole('row', { name: /x-qs-meta-pasted-4/, exact: true })).toContainText('value 4');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
      const custom: Record<string, string> = {};
      for (let n = 1; n <= 7; n += 1) custom[`k${n}`] = `edited ${n}`;
      for (let i = 0; i < 10; i += 1) custom[`pasted-${i}`] = `value ${i}`;
      expect(await backend.head(key)).toEqual({ standard: SEVEN.standard, custom });
      // Saved: nothing unsaved, so reload is not held and Esc closes at once.
      expect(await page.evaluate(() => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      })).toBe(false);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page).not.toHaveURL(/edit=1/);
    });

    test('the same Chinese value gets the same encoding offer in the editor, bulk edit, copy with REPLACE and the upload drawer, and is stored identically', async ({ page, emulator, api, pageOrigin }) => {
      test.setTimeout(120_000);
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('same');
      const stored = encodeRfc2047B(CHINESE);
      await backend.put(`${prefix}edit.txt`, { standard: { 'content-type': 'text/plain' }, custom: {} });
      await backend.put(`${prefix}bulk-a.txt`, { standard: { 'content-type': 'text/plain' }, custom: {} });
      await backend.put(`${prefix}bulk-b.txt`, { standard: { 'content-type': 'text/plain' }, custom: {} });
      const expectOffer = async (scope: ReturnType<Page['getByRole']>, n: number) => {
        await expect(scope.getByLabel(`Encoding of value ${n}`)).toHaveValue('rfc2047-b');
        await expect(scope.getByLabel(`Encoding of value ${n}`).locator('option:checked')).toHaveText('RFC 2047 (Base64)');
        await expect(scope.getByTestId('stored-value').last()).toHaveText(stored);
        await expect(scope.getByTestId('decoded-value').last()).toHaveText(CHINESE);
      };

      // Editor.
      await backend.open(objectPath(backend, `${prefix}edit.txt`, true));
      const editor = page.getByRole('dialog', { name: `Edit metadata of ${prefix}edit.txt` });
      await editor.getByRole('button', { name: 'Add key' }).click();
      await editor.getByLabel('Key 1', { exact: true }).fill('author');
      await editor.getByLabel('Value 1', { exact: true }).fill(CHINESE);
      await expectOffer(editor, 1);
      await editor.getByRole('button', { name: 'Review changes' }).click();
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
      expect((await backend.head(`${prefix}edit.txt`))?.custom).toEqual({ author: stored });
      await editor.getByRole('button', { name: 'Close' }).first().click();
      await expect(editor).toBeHidden();

      // Copy with REPLACE.
      const details = page.getByRole('complementary', { name: 'Object details' });
      await backend.open(objectPath(backend, `${prefix}bulk-a.txt`));
      await details.getByRole('tab', { name: 'Overview' }).click();
      await details.getByRole('button', { name: 'Copy…' }).click();
      const copy = page.getByRole('dialog', { name: `Copy ${prefix}bulk-a.txt` });
      await copy.getByLabel('Destination key').fill(`${prefix}copied.txt`);
      await copy.getByLabel('Set new metadata for the copy').check();
      await copy.getByRole('button', { name: 'Add key' }).click();
      // No error before typing; trying to copy with the key still empty says what is missing.
      await expect(copy.getByText('Enter a key.')).toHaveCount(0);
      await copy.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(copy.getByText('Enter a key.')).toBeVisible();
      await copy.getByLabel('Key 1', { exact: true }).fill('author');
      await copy.getByLabel('Value 1', { exact: true }).fill(CHINESE);
      await expectOffer(copy, 1);
      await copy.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(copy.getByText(`Copied to ${prefix}copied.txt.`)).toBeVisible();
      expect((await backend.head(`${prefix}copied.txt`))?.custom).toEqual({ author: stored });
      await copy.getByRole('button', { name: 'Close' }).last().click();
      await expect(copy).toBeHidden();

      // Bulk edit of two objects.
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
      const grid = page.getByRole('grid');
      for (const name of ['bulk-a.txt', 'bulk-b.txt']) await grid.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
      await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Edit metadata of 2 objects' }).click();
      const bulk = page.getByRole('dialog', { name: 'Edit metadata of 2 objects' });
      await bulk.getByRole('button', { name: 'Add key operation' }).click();
      await expect(bulk.getByText('Enter a key.')).toHaveCount(0);
      await bulk.getByLabel('Key 1', { exact: true }).fill('author');
      await bulk.getByLabel('Value 1', { exact: true }).fill(CHINESE);
      await expectOffer(bulk, 1);
      await expectNoAxeViolations(page, 'dialog');
      await bulk.getByRole('button', { name: 'Apply to 2 objects' }).click();
      await expect(bulk.getByTestId('job-summary')).toHaveText('2 of 2 done: 2 changed, 0 already up to date, 0 skipped, 0 failed.');
      for (const name of ['bulk-a.txt', 'bulk-b.txt']) expect((await backend.head(`${prefix}${name}`))?.custom).toEqual({ author: stored });
      await bulk.getByRole('button', { name: 'Close' }).first().click();
      await expect(bulk).toBeHidden();
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // Upload drawer: the value the drawer used to refuse gets the same offer and is stored the same way.
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const panel = page.getByRole('region', { name: `Upload to ${backend.bucket}` });
      await dropFiles(panel.getByTestId('dropzone'), [{ path: 'uploaded.txt', text: 'hello\n', type: 'text/plain' }]);
      await panel.getByText('Headers and metadata for this batch').click();
      await panel.getByRole('button', { name: 'Add key' }).click();
      await expect(panel.getByText('Enter a key.')).toHaveCount(0);
      await panel.getByLabel('Key 1', { exact: true }).fill('author');
      await panel.getByLabel('Value 1', { exact: true }).fill(CHINESE);
      await expectOffer(panel, 1);
      await expect(panel.getByText(/encode other text/i)).toHaveCount(0);
      await expectNoAxeViolations(page, '.uploads-drawer');
      await panel.getByRole('button', { name: /^Upload 1 files?$/ }).click();
      await expect(panel.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: `${prefix}uploaded.txt`, exact: true })).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      expect((await backend.head(`${prefix}uploaded.txt`))?.custom).toEqual({ author: stored });
    });
  });
}

test('in Chinese: the table, the encoding offer, pasting into a key field, and Back and Cancel ask before unsaved edits are lost', async ({ page }) => {
  const backend = await demoBackend(page);
  const key = `${uniquePrefix('zh-form')}文档.txt`;
  await backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } });
  await backend.open(objectPath(backend, key));
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await page.getByRole('tab', { name: '元数据' }).click();
  await page.getByRole('button', { name: '编辑元数据' }).click();
  const dialog = page.getByRole('dialog', { name: `编辑 ${key} 的元数据` });
  await expect(dialog.getByRole('columnheader', { name: '键' })).toBeVisible();
  await dialog.getByRole('button', { name: '添加键' }).click();
  // Many lines pasted into a key field become rows.
  await dialog.getByLabel('键 2', { exact: true }).evaluate((input) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'b: 2\nc: 上海\nd: 4');
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(dialog.getByTestId('metadata-row')).toHaveCount(4);
  await expect(dialog.getByText('已添加 3 行。')).toBeVisible();
  await expect(dialog.getByLabel('值 3 的编码')).toHaveValue('rfc2047-b');
  await expect(dialog.getByTestId('decoded-value')).toHaveText('上海');
  // The browser's Back button would close the editor (its open state is in the URL): it asks instead.
  await page.goBack();
  const confirm = dialog.getByRole('alertdialog', { name: '放弃未保存的更改？' });
  await expect(confirm).toBeVisible();
  await expect(page).toHaveURL(/edit=1/);
  await confirm.getByRole('button', { name: '继续编辑' }).click();
  await expect(dialog.getByTestId('metadata-row')).toHaveCount(4);
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page, 'dialog');
  await confirm.getByRole('button', { name: '放弃更改' }).click();
  await expect(dialog).toBeHidden();
  expect((await backend.head(key))?.custom).toEqual({ a: '1' });
});

test('closing the tab with unsaved edits gets the browser’s leave-page prompt (as a reload would); without edits it does not', async ({ context }) => {
  // Tabs of their own: the page fixture treats every browser dialog as a failure, and here one is expected.
  const open = async () => {
    const tab = await context.newPage();
    const prompts: string[] = [];
    tab.on('dialog', (prompt) => {
      prompts.push(prompt.type());
      void prompt.accept();
    });
    await tab.goto('/buckets/pek3a/demo-documents?prefix=reports/&object=reports%2Freadme.md&edit=1');
    const dialog = tab.getByRole('dialog', { name: 'Edit metadata of reports/readme.md' });
    await expect(dialog.getByLabel('Cache-Control', { exact: true })).toBeVisible();
    return { tab, dialog, prompts };
  };

  const clean = await open();
  await clean.dialog.getByLabel('Cache-Control', { exact: true }).click();
  const cleanClosed = clean.tab.waitForEvent('close');
  await clean.tab.close({ runBeforeUnload: true });
  await cleanClosed;
  expect(clean.prompts).toEqual([]);

  const edited = await open();
  await edited.dialog.getByLabel('Cache-Control', { exact: true }).fill('no-store');
  // The edit is reported to the guard once React has rendered it: wait for that, not for time.
  await expect.poll(() => edited.tab.evaluate(() => {
    const probe = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(probe);
    return probe.defaultPrevented;
  })).toBe(true);
  const editedClosed = edited.tab.waitForEvent('close');
  await edited.tab.close({ runBeforeUnload: true });
  await editedClosed;
  expect(edited.prompts).toEqual(['beforeunload']);
});
