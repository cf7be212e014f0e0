import { putBucketCors } from '../src/api/cors/operations.ts';
import { encodeRfc2047B } from '../src/api/metadata/encoding.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { demoBackend, endpointBackend, MODES, type Backend, type Mode } from './metadata-backend.ts';
import type { Page } from '@playwright/test';
import type { QsClient } from '../src/api/client.ts';
import { expect, test, type EmulatorHandle } from './support/emulator.ts';

// The metadata editor's journeys, each in demo mode (msw worker) and in endpoint mode (the
// standalone emulator over real HTTP, real CORS). Results are verified with raw signed requests.

const ORIGINAL: ObjectMetadata = {
  standard: {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'private, max-age=600',
    'content-disposition': 'inline',
    'content-encoding': 'identity',
    expires: 'Wed, 31 Dec 2031 23:59:59 GMT',
  },
  custom: { author: 'Alice', project: '%E9%A1%B9%E7%9B%AE' },
};

async function backendFor(mode: Mode, page: Page, fixtures: { emulator: EmulatorHandle; api: QsClient; pageOrigin: string }): Promise<Backend> {
  return mode === 'demo' ? demoBackend(page) : endpointBackend(page, fixtures.emulator, fixtures.api, fixtures.pageOrigin);
}

function objectPath(backend: Backend, key: string, edit = false): string {
  const prefix = key.slice(0, key.lastIndexOf('/') + 1);
  return backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}${edit ? '&edit=1' : ''}`);
}

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

for (const mode of MODES) {
  test.describe(`${mode} mode`, () => {
    test('validation at each limit, non-ASCII encoded and shown decoded, diff, save keeps every untouched header, undo', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const key = `${uniquePrefix('edit')}report.txt`;
      await backend.put(key, ORIGINAL);
      await backend.open(objectPath(backend, key, true));

      const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
      await expect(dialog.getByLabel('Cache-Control', { exact: true })).toHaveValue('private, max-age=600');
      await expect(dialog.getByLabel('Value 2', { exact: true })).toHaveValue('项目');
      await dialog.getByRole('button', { name: 'Add key' }).click();
      const newKey = dialog.getByLabel('Key 3', { exact: true });
      for (const length of [511, 512]) {
        await newKey.fill('k'.repeat(length));
        await expect(dialog.getByText(`${length} / 512 bytes`)).toBeVisible();
        await expect(newKey).not.toHaveAttribute('aria-invalid', 'true');
      }
      await newKey.fill('k'.repeat(513));
      await expect(dialog.getByText('This key is 513 bytes long; at most 512 bytes are allowed.')).toBeVisible();
      await expect(newKey).toHaveAttribute('aria-invalid', 'true');

      await newKey.fill('city');
      const value = dialog.getByLabel('Value 3', { exact: true });
      // author(6)+Alice(5) + project(7)+18 = 36; city(4) + 2009 = 2049 > 2048.
      await value.fill('x'.repeat(2009));
      await expect(dialog.getByText('Keys and values together take 2,049 bytes; at most 2,048 bytes are allowed.')).toBeVisible();
      await value.fill('x'.repeat(2008));
      await expect(dialog.getByTestId('total-bytes')).toHaveText('Total: 2,048 / 2,048 bytes');
      await expect(dialog.getByText(/at most 2,048 bytes are allowed/)).toHaveCount(0);

      await value.fill('北京 café');
      const row = dialog.getByTestId('metadata-row').nth(2);
      await expect(row.getByTestId('stored-value')).toHaveText('%E5%8C%97%E4%BA%AC%20caf%C3%A9');
      await expect(row.getByTestId('decoded-value')).toHaveText('北京 café');
      await dialog.getByLabel('Encoding of value 3').selectOption({ label: 'As typed (printable ASCII only)' });
      await expect(dialog.getByText(/This value contains characters outside printable ASCII/)).toBeVisible();
      await dialog.getByLabel('Encoding of value 3').selectOption({ label: 'RFC 2047 (Base64)' });
      await expect(row.getByTestId('stored-value')).toHaveText(encodeRfc2047B('北京 café'));
      await expect(row.getByTestId('decoded-value')).toHaveText('北京 café');
      await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');

      await dialog.getByRole('button', { name: 'Review changes' }).click();
      const diff = dialog.getByTestId('metadata-diff');
      await expect(diff.locator('tbody tr')).toHaveCount(2);
      await expect(diff.getByRole('row', { name: /cache-control/ })).toContainText('Changed');
      await expect(diff.getByRole('row', { name: /cache-control/ })).toContainText('private, max-age=600');
      await expect(diff.getByRole('row', { name: /x-qs-meta-city/ })).toContainText('Added');
      await expect(diff.getByRole('row', { name: /x-qs-meta-city/ })).toContainText('北京 café');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();

      expect(await backend.head(key)).toEqual({
        standard: { ...ORIGINAL.standard, 'cache-control': 'no-cache' },
        custom: { ...ORIGINAL.custom, city: encodeRfc2047B('北京 café') },
      });

      await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
      await expect(dialog.getByText('Restored', { exact: true })).toBeVisible();
      expect(await backend.head(key)).toEqual(ORIGINAL);
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await expect(dialog).toBeHidden();
      await expect(page).not.toHaveURL(/edit=1/);
    });

    test('each field shows what it does and its rule; a save ends with Saved and a toast whose Undo, after the editor closed, restores and says Restored', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const key = `${uniquePrefix('toast-undo')}notes.txt`;
      await backend.put(key, ORIGINAL);
      await backend.open(objectPath(backend, key, true));
      const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
      // Description and rule are on screen, not only for screen readers.
      const cacheField = dialog.getByTestId('std-cache-control');
      await expect(cacheField.getByText('How long browsers and CDNs may keep a copy before asking again.')).toBeVisible();
      await expect(cacheField.getByText('Directives separated by commas, such as public, max-age=3600')).toBeVisible();
      await expect(dialog.getByText('Keys: letters, digits, - _ and . (at most 512 bytes).', { exact: false })).toBeVisible();

      await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-store');
      await dialog.getByRole('button', { name: 'Review changes' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
      expect((await backend.head(key))?.standard['cache-control']).toBe('no-store');
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await expect(dialog).toBeHidden();

      const toast = page.getByTestId('toast').filter({ hasText: 'Saved the metadata of notes.txt.' });
      await expect(toast).toBeVisible();
      await toast.getByRole('button', { name: 'Undo', exact: true }).click();
      const restored = page.getByTestId('toast').filter({ hasText: 'Restored the metadata of notes.txt.' });
      await expect(restored).toBeVisible();
      await expect(toast).toHaveCount(0);
      expect(await backend.head(key)).toEqual(ORIGINAL);
      // The object's own history says the same, and offers no second undo.
      const details = page.getByTestId('object-details');
      await details.getByRole('tab', { name: 'Metadata' }).click();
      await expect(details.getByText('Restored', { exact: true })).toBeVisible();
      await expect(details.getByText('Saved', { exact: true })).toHaveCount(0);
      await expect(details.getByRole('button', { name: 'Undo last save' })).toHaveCount(0);
    });

    test('a change by another client between open and save is a conflict; both versions shown; re-apply and overwrite', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const key = `${uniquePrefix('conflict')}doc.txt`;
      await backend.put(key, ORIGINAL);
      await backend.open(objectPath(backend, key));
      await page.getByTestId('object-details').getByRole('tab', { name: 'Metadata' }).click();
      await page.getByRole('button', { name: 'Edit metadata' }).click();
      const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
      await dialog.getByLabel('Content-Type', { exact: true }).fill('text/markdown');
      await dialog.getByRole('button', { name: 'Review changes' }).click();
      await expect(dialog.getByTestId('metadata-diff')).toBeVisible();

      await backend.replace(key, { standard: ORIGINAL.standard, custom: { ...ORIGINAL.custom, reviewer: 'Bob' } });
      await dialog.getByRole('button', { name: 'Save' }).click();
      const conflict = dialog.getByTestId('metadata-conflict');
      await expect(conflict.getByRole('alert')).toContainText('Someone else changed this object');
      await expect(conflict.getByTestId('conflict-theirs')).toContainText('x-qs-meta-reviewer');
      await expect(conflict.getByTestId('conflict-yours')).toContainText('text/markdown');
      await expect(conflict.getByTestId('conflict-versions')).toContainText('Theirs (now)');
      // Nothing was written.
      expect((await backend.head(key))?.standard['content-type']).toBe(ORIGINAL.standard['content-type']);

      await conflict.getByRole('button', { name: 'Re-apply my edits on their version' }).click();
      await expect(dialog.getByText('Your edits re-applied on top of the other version:')).toBeVisible();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
      expect(await backend.head(key)).toEqual({
        standard: { ...ORIGINAL.standard, 'content-type': 'text/markdown' },
        custom: { ...ORIGINAL.custom, reviewer: 'Bob' },
      });
      await dialog.getByRole('button', { name: 'Close' }).first().click();

      // Second round: overwrite with mine drops their change.
      await page.getByTestId('object-details').getByRole('tab', { name: 'Metadata' }).click();
      await page.getByRole('button', { name: 'Edit metadata' }).click();
      await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-store');
      await dialog.getByRole('button', { name: 'Review changes' }).click();
      await backend.replace(key, { standard: { 'content-type': 'text/markdown' }, custom: { other: 'change' } });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByRole('button', { name: 'Overwrite with mine' }).click();
      await expect(dialog.getByText('Overwriting the other version with yours:')).toBeVisible();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
      expect(await backend.head(key)).toEqual({
        standard: { ...ORIGINAL.standard, 'content-type': 'text/markdown', 'cache-control': 'no-store' },
        custom: { ...ORIGINAL.custom, reviewer: 'Bob' },
      });
    });

    test('bulk edit of 50 objects, one failure shown with its code and request id, retried successfully', async ({ page, emulator, api, pageOrigin }) => {
      test.setTimeout(120_000);
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('bulk');
      const keys = Array.from({ length: 50 }, (_, i) => `${prefix}o-${String(i).padStart(2, '0')}.txt`);
      for (const [i, key] of keys.entries()) {
        await backend.put(key, { standard: { 'content-type': 'text/plain', expires: 'Wed, 31 Dec 2031 23:59:59 GMT' }, custom: { idx: String(i) } });
      }
      await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
      const selection = page.getByRole('region', { name: 'Selection' });
      await page.getByRole('checkbox', { name: 'Select all 50 loaded objects' }).check();
      await expect(selection.getByTestId('selection-status')).toHaveText(/^50 objects selected · /);
      await selection.getByRole('button', { name: 'Edit metadata of 50 objects' }).click();
      const bulk = page.getByRole('dialog', { name: 'Edit metadata of 50 objects' });
      await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: 'Set to' });
      await bulk.getByLabel('New value of Cache-Control').fill('max-age=60');
      await bulk.getByLabel('Expires', { exact: true }).selectOption({ label: 'Remove' });
      await bulk.getByRole('button', { name: 'Add key operation' }).click();
      await bulk.getByLabel('Key 1', { exact: true }).fill('team');
      await bulk.getByLabel('Value 1', { exact: true }).fill('蓝队');

      // Injected failure: one object disappears after it was selected.
      const victim = keys[17] ?? '';
      await backend.remove(victim);
      await bulk.getByRole('button', { name: 'Apply to 50 objects' }).click();
      const summary = bulk.getByTestId('job-summary');
      await expect(summary).toHaveText('50 of 50 done: 49 changed, 0 already up to date, 0 skipped, 1 failed.', { timeout: 60_000 });
      const failedRow = bulk.getByTestId('job-problems').locator('tr[data-status="failed"]');
      await expect(failedRow).toHaveCount(1);
      await expect(failedRow.getByRole('rowheader')).toHaveText(victim);
      await expect(failedRow.getByRole('alert')).toContainText('not_found');
      await expect(failedRow.getByTestId('request-id')).toHaveText(/^[0-9a-f]{16,32}$/);

      await backend.put(victim, { standard: { 'content-type': 'text/plain' }, custom: { idx: '17' } });
      await bulk.getByRole('button', { name: 'Retry 1 failed' }).click();
      await expect(summary).toHaveText('50 of 50 done: 50 changed, 0 already up to date, 0 skipped, 0 failed.', { timeout: 30_000 });

      for (const [i, key] of keys.entries()) {
        expect(await backend.head(key)).toEqual({
          standard: { 'content-type': 'text/plain', 'cache-control': 'max-age=60' },
          custom: { idx: String(i), team: encodeRfc2047B('蓝队') },
        });
      }
    });

    test('in Chinese: editor errors, diff, save and conflict texts', async ({ page, emulator, api, pageOrigin }) => {
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const key = `${uniquePrefix('zh')}报告.txt`;
      await backend.put(key, ORIGINAL);
      await backend.open(objectPath(backend, key));
      await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
      await page.getByTestId('object-details').getByRole('tab', { name: '元数据' }).click();
      await page.getByRole('button', { name: '编辑元数据' }).click();
      const dialog = page.getByRole('dialog', { name: `编辑 ${key} 的元数据` });
      await dialog.getByRole('button', { name: '添加键' }).click();
      await dialog.getByLabel('键 3', { exact: true }).fill('k'.repeat(513));
      await expect(dialog.getByText('此键长 513 字节，最多允许 512 字节。')).toBeVisible();
      await dialog.getByLabel('键 3', { exact: true }).fill('city');
      await dialog.getByLabel('值 3', { exact: true }).fill('上海');
      await dialog.getByRole('button', { name: '检查更改' }).click();
      await expect(dialog.getByTestId('metadata-diff')).toContainText('新增');
      await expect(dialog.getByText('保存将做的更改')).toBeVisible();
      await backend.replace(key, { standard: ORIGINAL.standard, custom: { ...ORIGINAL.custom, reviewer: 'Bob' } });
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
      await expect(dialog.getByText('其他人修改了此对象')).toBeVisible();
      await dialog.getByRole('button', { name: '在对方版本上重新应用我的修改' }).click();
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
      await expect(dialog.getByText('已保存', { exact: true })).toBeVisible();
      expect((await backend.head(key))?.custom).toEqual({ ...ORIGINAL.custom, reviewer: 'Bob', city: encodeRfc2047B('上海') });
    });

    test('in Chinese: limits, encoding, undo, a bulk edit of 50 objects with a failure and its retry, and delete', async ({ page, emulator, api, pageOrigin }) => {
      test.setTimeout(120_000);
      const backend = await backendFor(mode, page, { emulator, api, pageOrigin });
      const prefix = uniquePrefix('zh-more');
      const key = `${prefix}文档.txt`;
      await backend.put(key, ORIGINAL);
      // Objects for the bulk edit below, in a folder of their own, in place before it is first listed.
      const bulkPrefix = `${prefix}批量/`;
      const keys = Array.from({ length: 50 }, (_, i) => `${bulkPrefix}对象-${String(i).padStart(2, '0')}.txt`);
      for (const k of keys) await backend.put(k, { standard: { 'content-type': 'text/plain' }, custom: {} });
      await backend.open(objectPath(backend, key));
      await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
      await page.getByTestId('object-details').getByRole('tab', { name: '元数据' }).click();
      await page.getByRole('button', { name: '编辑元数据' }).click();
      const dialog = page.getByRole('dialog', { name: `编辑 ${key} 的元数据` });
      await dialog.getByRole('button', { name: '添加键' }).click();
      const newKey = dialog.getByLabel('键 3', { exact: true });
      await newKey.fill('k'.repeat(512));
      await expect(dialog.getByText('512 / 512 字节')).toBeVisible();
      await newKey.fill('city');
      const value = dialog.getByLabel('值 3', { exact: true });
      await value.fill('x'.repeat(2009));
      await expect(dialog.getByText('键和值合计 2,049 字节，最多允许 2,048 字节。')).toBeVisible();
      await value.fill('北京');
      await dialog.getByLabel('值 3 的编码').selectOption({ label: '原样（仅限可打印 ASCII）' });
      await expect(dialog.getByText('此值包含可打印 ASCII 以外的字符。请选择一种编码（百分号或 RFC 2047）来保存。')).toBeVisible();
      await dialog.getByLabel('值 3 的编码').selectOption({ label: '百分号编码' });
      const row = dialog.getByTestId('metadata-row').nth(2);
      await expect(row.getByTestId('stored-value')).toHaveText('%E5%8C%97%E4%BA%AC');
      await expect(row.getByTestId('decoded-value')).toHaveText('北京');
      await dialog.getByRole('button', { name: '检查更改' }).click();
      await dialog.getByRole('button', { name: '保存', exact: true }).click();
      await expect(dialog.getByText('已保存', { exact: true })).toBeVisible();
      expect(await backend.head(key)).toEqual({ standard: ORIGINAL.standard, custom: { ...ORIGINAL.custom, city: '%E5%8C%97%E4%BA%AC' } });
      await dialog.getByRole('button', { name: '撤销', exact: true }).click();
      await expect(dialog.getByText('已恢复', { exact: true })).toBeVisible();
      expect(await backend.head(key)).toEqual(ORIGINAL);
      await dialog.getByRole('button', { name: '关闭' }).first().click();
      await expect(dialog).toBeHidden();

      // Bulk edit of 50 objects in Chinese, one of which vanishes after selection, then its retry.
      await backend.open(backend.path(`prefix=${encodeURIComponent(bulkPrefix)}`));
      const selection = page.getByRole('region', { name: '已选对象' });
      await page.getByRole('checkbox', { name: '选择已加载的全部 50 个对象' }).check();
      await expect(selection.getByTestId('selection-status')).toHaveText(/^已选择 50 个对象 · /);
      await selection.getByRole('button', { name: '编辑 50 个对象的元数据' }).click();
      const bulk = page.getByRole('dialog', { name: '编辑 50 个对象的元数据' });
      await bulk.getByLabel('Cache-Control', { exact: true }).selectOption({ label: '设置为' });
      await bulk.getByLabel('Cache-Control 的新值').fill('no-store');
      const victim = keys[23] ?? '';
      await backend.remove(victim);
      await bulk.getByRole('button', { name: '应用到 50 个对象' }).click();
      const summary = bulk.getByTestId('job-summary');
      await expect(summary).toHaveText('已完成 50 / 50：49 个已修改，0 个无需修改，0 个已跳过，1 个失败。', { timeout: 60_000 });
      const failedRow = bulk.getByTestId('job-problems').locator('tr[data-status="failed"]');
      await expect(failedRow.getByRole('rowheader')).toHaveText(victim);
      await expect(failedRow.getByRole('alert')).toContainText('not_found');
      await backend.put(victim, { standard: { 'content-type': 'text/plain' }, custom: {} });
      await bulk.getByRole('button', { name: '重试 1 个失败的对象' }).click();
      await expect(summary).toHaveText('已完成 50 / 50：50 个已修改，0 个无需修改，0 个已跳过，0 个失败。', { timeout: 30_000 });
      for (const k of keys) expect((await backend.head(k))?.standard['cache-control']).toBe('no-store');
      await bulk.getByRole('button', { name: '关闭' }).first().click();
      await expect(bulk).toBeHidden();
      await expect(selection.getByTestId('selection-status')).toHaveText(/^已选择 50 个对象 · /);
      await selection.getByRole('button', { name: '取消选择' }).click();
      // Clearing gives the place back to the list's own tools: the selection's bar goes away.
      await expect(selection).toBeHidden();
      await expect(page.getByRole('checkbox', { name: '选择已加载的全部 50 个对象' })).not.toBeChecked();

      // Delete with confirmation, in Chinese.
      await backend.open(objectPath(backend, key));
      const details = page.getByRole('complementary', { name: '对象详情' });
      await details.getByRole('button', { name: '删除…' }).click();
      const confirm = page.getByRole('dialog', { name: `删除 ${key}` });
      await expect(confirm.getByText('删除此对象？此操作无法撤销。')).toBeVisible();
      await confirm.getByRole('button', { name: '取消' }).click();
      expect(await backend.head(key)).toEqual(ORIGINAL);
      await details.getByRole('button', { name: '删除…' }).click();
      await confirm.getByRole('button', { name: '删除', exact: true }).click();
      await expect(details).toBeHidden();
      expect(await backend.head(key)).toBeNull();
    });
  });
}

test('endpoint mode: a CORS rule that hides only custom keys is detected before a save could drop them; the acknowledgement names the visible keys', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  await putBucketCors(api, { zone: backend.zone, bucket: backend.bucket }, {
    cors_rules: [{
      allowed_origin: pageOrigin,
      allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
      allowed_headers: ['*'],
      expose_headers: ['ETag', 'Last-Modified', 'x-qs-request-id', 'Content-Type', 'Cache-Control', 'Content-Disposition', 'Content-Encoding', 'x-qs-meta-author'],
    }],
  });
  const key = `${uniquePrefix('hidden')}doc.txt`;
  await backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: { author: 'Alice', secret: 'kept-by-server' } });
  await backend.open(objectPath(backend, key, true));
  const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
  // The browser cannot read x-qs-meta-secret at all: the form shows only what it was allowed to see.
  await expect(dialog.getByTestId('metadata-row')).toHaveCount(1);
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  const warning = dialog.getByTestId('visibility-warning');
  await expect(warning.getByRole('listitem')).toHaveText(['x-qs-meta-* (any custom key other than x-qs-meta-author)']);
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const acknowledge = warning.getByLabel('I know this object has no custom metadata keys other than x-qs-meta-author; save anyway');
  await acknowledge.check();
  await expect(save).toBeEnabled();
  await acknowledge.uncheck();
  await expect(save).toBeDisabled();
  // Nothing was sent while the user hesitated.
  expect(await backend.head(key)).toMatchObject({ custom: { author: 'Alice', secret: 'kept-by-server' } });
  expect((await backend.head(key))?.standard['cache-control']).toBeUndefined();

  // Saving anyway does exactly what the warning said: the visible key and the edit are kept, the hidden one is gone.
  await acknowledge.check();
  await save.click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  const after = await backend.head(key);
  expect(after?.custom).toEqual({ author: 'Alice' });
  expect(after?.standard['cache-control']).toBe('no-cache');
});

test('the Expires date follows the console language: in Chinese it is typed year first under a Chinese placeholder, never mm/dd/yyyy', async ({ page }) => {
  const backend = await demoBackend(page);
  const key = `${uniquePrefix('expires-zh')}note.txt`;
  await backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: {} });
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await backend.open(objectPath(backend, key, true));

  const dialog = page.getByRole('dialog');
  const picker = dialog.getByLabel('选择日期和时间（本地时间）');
  // A browser's own date field would draw mm/dd/yyyy from the browser's locale (English here), whatever the console's language.
  await expect(picker).toHaveAttribute('type', 'text');
  await expect(picker).toHaveAttribute('placeholder', '年-月-日 时:分');
  await expect(picker).toHaveAttribute('lang', 'zh-CN');
  await picker.fill('2031-12-31 23:59:59');
  const expected = await page.evaluate(() => new Date(2031, 11, 31, 23, 59, 59).toUTCString());
  await expect(dialog.getByLabel('Expires', { exact: true })).toHaveValue(expected);
  await expect(picker).toHaveValue('2031-12-31 23:59:59');
  await picker.fill('12/31/2031');
  await expect(picker).toHaveAttribute('aria-invalid', 'true');
});
