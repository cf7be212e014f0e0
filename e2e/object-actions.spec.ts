import { moreAction } from './fixtures.ts';
import type { Page } from '@playwright/test';
import type { QsClient } from '../src/api/client.ts';
import { encodeRfc2047B } from '../src/api/metadata/encoding.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import { expect, test, type EmulatorHandle } from './support/emulator.ts';

// Copy (COPY vs REPLACE), move keeps metadata, delete (single and a selection), new folder — in demo mode
// and in endpoint mode over real HTTP, checked with raw signed requests.

const META: ObjectMetadata = {
  standard: { 'content-type': 'text/plain', 'cache-control': 'max-age=30', 'content-disposition': 'inline' },
  custom: { author: 'Alice', tag: 'blue' },
};

async function backendFor(mode: Mode, page: Page, fixtures: { emulator: EmulatorHandle; api: QsClient; pageOrigin: string }): Promise<Backend> {
  return mode === 'demo' ? demoBackend(page) : endpointBackend(page, fixtures.emulator, fixtures.api, fixtures.pageOrigin);
}

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test('copy or move onto an existing key asks first and replaces only when told; another zone is refused with the reason', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('exists');
      const key = `${prefix}a.txt`;
      const taken = `${prefix}taken.txt`;
      await backend.put(key, META, 'source body');
      await backend.put(taken, { standard: { 'content-type': 'text/plain' }, custom: { keep: 'me' } }, 'the other body');
      const details = page.getByRole('complementary', { name: 'Object details' });
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));

      await details.getByRole('button', { name: 'Copy…' }).click();
      const dialog = page.getByRole('dialog', { name: `Copy ${key}` });
      await dialog.getByLabel('Destination key').fill(taken);
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      const confirm = dialog.getByTestId('overwrite-confirm');
      await expect(confirm).toContainText(`An object already exists at ${taken} (14 B, modified`);
      // Nothing was written while the question stands.
      expect(await backend.head(taken)).toEqual({ standard: { 'content-type': 'text/plain' }, custom: { keep: 'me' } });
      // Another key clears the question; an unused one copies at once.
      await dialog.getByLabel('Destination key').fill(`${prefix}free.txt`);
      await expect(confirm).toHaveCount(0);
      await dialog.getByLabel('Destination key').fill(taken);
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await confirm.getByRole('button', { name: 'Replace it' }).click();
      await expect(dialog.getByText(`Copied to ${taken}.`)).toBeVisible();
      expect(await backend.head(taken)).toEqual(META);
      await dialog.getByRole('button', { name: 'Close' }).last().click();

      await details.getByRole('button', { name: 'Move or rename…' }).click();
      const move = page.getByRole('dialog', { name: `Move or rename ${key}` });
      await move.getByLabel('Destination key').fill(taken);
      await move.getByRole('button', { name: 'Move', exact: true }).click();
      await expect(move.getByTestId('overwrite-confirm')).toContainText(`An object already exists at ${taken}`);
      expect(await backend.head(key)).toEqual(META);
      // The typed destination would be lost: Cancel asks first.
      await move.getByRole('button', { name: 'Cancel' }).click();
      await move.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
      await expect(move).toBeHidden();

      await details.getByRole('button', { name: 'Copy…' }).click();
      await dialog.getByLabel('Destination bucket').fill('demo-archive');
      await dialog.getByLabel('Destination key').fill(`${prefix}elsewhere.txt`);
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByRole('alert')).toContainText('demo-archive is in zone sh1a, this object is in pek3a');
    });

    test('the copy and move dialogs ask before Esc or Cancel throws away a typed destination; untouched they close at once', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('guard');
      const key = `${prefix}a.txt`;
      await backend.put(key, META);
      const details = page.getByRole('complementary', { name: 'Object details' });
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));
      const dialog = page.getByRole('dialog', { name: `Copy ${key}` });
      const question = dialog.getByRole('alertdialog', { name: 'Discard unsaved changes?' });

      // Nothing typed: Esc closes without a question.
      await details.getByRole('button', { name: 'Copy…' }).click();
      await expect(dialog.getByLabel('Destination key')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // A typed key: Esc asks; "Keep editing" keeps it; Cancel asks again; "Discard changes" closes.
      await details.getByRole('button', { name: 'Copy…' }).click();
      await dialog.getByLabel('Destination key').fill(`${prefix}typed.txt`);
      await page.keyboard.press('Escape');
      await expect(question).toBeVisible();
      await question.getByRole('button', { name: 'Keep editing' }).click();
      await expect(question).toHaveCount(0);
      await expect(dialog.getByLabel('Destination key')).toHaveValue(`${prefix}typed.txt`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await question.getByRole('button', { name: 'Discard changes' }).click();
      await expect(dialog).toBeHidden();
      expect(await backend.head(`${prefix}typed.txt`)).toBeNull();

      // The move dialog asks the same way; discarded, nothing moved.
      await details.getByRole('button', { name: 'Move or rename…' }).click();
      const move = page.getByRole('dialog', { name: `Move or rename ${key}` });
      await move.getByLabel('Destination key').fill(`${prefix}moved.txt`);
      await page.keyboard.press('Escape');
      const moveQuestion = move.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
      await expect(moveQuestion).toBeVisible();
      await moveQuestion.getByRole('button', { name: 'Discard changes' }).click();
      await expect(move).toBeHidden();
      expect(await backend.head(key)).toEqual(META);
      expect(await backend.head(`${prefix}moved.txt`)).toBeNull();

      // Reopened, the form starts afresh (and a copy that was written leaves nothing to ask about).
      await details.getByRole('button', { name: 'Copy…' }).click();
      await expect(dialog.getByLabel('Destination key')).toHaveValue(`${prefix}a-copy.txt`);
      await dialog.getByLabel('Destination key').fill(`${prefix}written.txt`);
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByText(`Copied to ${prefix}written.txt.`)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });

    test('copy keeps (COPY) or replaces (REPLACE) metadata; move keeps it; delete asks first', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('act');
      const key = `${prefix}a.txt`;
      await backend.put(key, META);
      const details = page.getByRole('complementary', { name: 'Object details' });
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));

      // COPY: the copy gets the source's metadata.
      await details.getByRole('button', { name: 'Copy…' }).click();
      let dialog = page.getByRole('dialog', { name: `Copy ${key}` });
      await expect(dialog.getByLabel('Destination key')).toHaveValue(`${prefix}a-copy.txt`);
      await expect(dialog.getByLabel('Keep the metadata of the original')).toBeChecked();
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByText(`Copied to ${prefix}a-copy.txt.`)).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      expect(await backend.head(`${prefix}a-copy.txt`)).toEqual(META);

      // REPLACE: the copy gets the edited fields; everything not edited is still sent.
      await details.getByRole('button', { name: 'Copy…' }).click();
      dialog = page.getByRole('dialog', { name: `Copy ${key}` });
      await dialog.getByLabel('Destination key').fill(`${prefix}a-replaced.txt`);
      await dialog.getByLabel('Set new metadata for the copy').check();
      await dialog.getByLabel('Content-Type', { exact: true }).fill('text/csv');
      await dialog.getByRole('button', { name: 'Remove key 2' }).click();
      await dialog.getByRole('button', { name: 'Add key' }).click();
      await dialog.getByLabel('Key 2', { exact: true }).fill('note');
      await dialog.getByLabel('Value 2', { exact: true }).fill('副本');
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect(dialog.getByText(`Copied to ${prefix}a-replaced.txt.`)).toBeVisible();
      await dialog.getByRole('button', { name: 'Show the copy' }).click();
      await expect(details.getByTestId('details-key')).toHaveText(`${prefix}a-replaced.txt`);
      expect(await backend.head(`${prefix}a-replaced.txt`)).toEqual({
        standard: { 'content-type': 'text/csv', 'cache-control': 'max-age=30', 'content-disposition': 'inline' },
        custom: { author: 'Alice', note: encodeRfc2047B('副本') },
      });
      // The source is untouched.
      expect(await backend.head(key)).toEqual(META);

      // Move/rename keeps the metadata; the old key is gone and the panel follows the object.
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));
      await details.getByRole('button', { name: 'Move or rename…' }).click();
      dialog = page.getByRole('dialog', { name: `Move or rename ${key}` });
      await dialog.getByLabel('Destination key').fill(`${prefix}renamed/b.txt`);
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await expect(details.getByTestId('details-key')).toHaveText(`${prefix}renamed/b.txt`);
      expect(await backend.head(`${prefix}renamed/b.txt`)).toEqual(META);
      expect(await backend.head(key)).toBeNull();

      // Delete with confirmation: Cancel keeps it, Delete removes it and closes the panel.
      await details.getByRole('button', { name: 'Delete…' }).click();
      dialog = page.getByRole('dialog', { name: `Delete ${prefix}renamed/b.txt` });
      await expect(dialog.getByText('Delete this object? This cannot be undone.')).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await backend.head(`${prefix}renamed/b.txt`)).toEqual(META);
      await details.getByRole('button', { name: 'Delete…' }).click();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(details).toBeHidden();
      expect(await backend.head(`${prefix}renamed/b.txt`)).toBeNull();
    });

    test('new folder, and deleting a selection with DeleteMultipleObjects', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('sel');
      for (const name of ['one.txt', 'two.txt', 'three.txt']) await backend.put(`${prefix}${name}`, META);
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));

      await moreAction(page, 'New folder…');
      const folder = page.getByRole('dialog', { name: `New folder in ${backend.bucket}/${prefix}` });
      await folder.getByRole('button', { name: 'Create folder' }).click();
      await expect(folder.getByText('Enter a name.')).toBeVisible();
      await folder.getByLabel('Folder name').fill('报告');
      await expect(folder.getByText(`${prefix}报告/`)).toBeVisible();
      await folder.getByRole('button', { name: 'Create folder' }).click();
      await expect(folder).toBeHidden();
      await expect(page.getByRole('grid').getByRole('link', { name: '报告/', exact: true })).toBeVisible();
      expect((await backend.send({ operation: 'HeadObject', method: 'HEAD', zone: backend.zone, bucket: backend.bucket, key: `${prefix}报告/` })).status).toBe(200);

      const grid = page.getByRole('grid');
      const selection = page.getByRole('region', { name: 'Selection' });
      // Keyboard only: the list's active row (the first, one.txt) toggles with Space.
      await grid.focus();
      await page.keyboard.press('Space');
      await expect(grid.getByRole('checkbox', { name: 'Select one.txt', exact: true })).toBeChecked();
      await grid.getByRole('checkbox', { name: 'Select two.txt', exact: true }).check();
      await expect(selection.getByTestId('selection-status')).toHaveText(/^2 objects selected · /);
      await selection.getByRole('button', { name: 'Delete 2 selected…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete 2 objects' });
      await expect(confirm).toContainText(`${prefix}one.txt`);
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(confirm.getByText('2 objects deleted.')).toBeVisible();
      expect(await backend.head(`${prefix}one.txt`)).toBeNull();
      expect(await backend.head(`${prefix}two.txt`)).toBeNull();
      expect(await backend.head(`${prefix}three.txt`)).toEqual(META);
      await confirm.getByRole('button', { name: 'Close' }).last().click();
      await expect(grid.getByRole('checkbox', { name: 'Select one.txt', exact: true })).toHaveCount(0);
      await expect(grid.getByRole('checkbox', { name: 'Select three.txt', exact: true })).toBeVisible();
    });

    test('in Chinese: copy with COPY and with REPLACE, and move', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('zh');
      const key = `${prefix}文件.txt`;
      await backend.put(key, META);
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}`));
      await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
      const details = page.getByRole('complementary', { name: '对象详情' });

      // COPY (the default): the copy carries the source's metadata unchanged.
      await details.getByRole('button', { name: '复制…' }).click();
      const keep = page.getByRole('dialog', { name: `复制 ${key}` });
      await expect(keep.getByLabel('保留原对象的元数据')).toBeChecked();
      await keep.getByLabel('目标键').fill(`${prefix}保留.txt`);
      await keep.getByRole('button', { name: '复制', exact: true }).click();
      await expect(keep.getByText(`已复制到 ${prefix}保留.txt。`)).toBeVisible();
      expect(await backend.head(`${prefix}保留.txt`)).toEqual(META);
      await keep.getByRole('button', { name: '关闭' }).last().click();
      await expect(keep).toBeHidden();

      // REPLACE: the edited field changes, everything else is sent as it was.
      await details.getByRole('button', { name: '复制…' }).click();
      const dialog = page.getByRole('dialog', { name: `复制 ${key}` });
      await dialog.getByLabel('为副本设置新的元数据').check();
      await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
      await dialog.getByRole('button', { name: '复制', exact: true }).click();
      await expect(dialog.getByText(`已复制到 ${prefix}文件-copy.txt。`)).toBeVisible();
      expect(await backend.head(`${prefix}文件-copy.txt`)).toEqual({ standard: { ...META.standard, 'cache-control': 'no-cache' }, custom: META.custom });
      await dialog.getByRole('button', { name: '关闭' }).last().click();

      await details.getByRole('button', { name: '移动或重命名…' }).click();
      const move = page.getByRole('dialog', { name: `移动或重命名 ${key}` });
      await expect(move.getByText('移动会保留内容和全部元数据；原来的键将消失。')).toBeVisible();
      await move.getByLabel('目标键').fill(`${prefix}移动后.txt`);
      await move.getByRole('button', { name: '移动', exact: true }).click();
      await expect(details.getByTestId('details-key')).toHaveText(`${prefix}移动后.txt`);
      expect(await backend.head(`${prefix}移动后.txt`)).toEqual(META);
    });
  });
}
