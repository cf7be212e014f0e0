import { demoBackend } from './metadata-backend.ts';
import { expect, test } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';

// Demo mode keeps its data in this browser (IndexedDB): a metadata edit, an upload and a delete survive a
// reload; "Reset demo data" asks first, then brings the seed back.

const EDITED = 'data/table.csv';
const DELETED = 'reports/readme.md';
const UPLOADED = 'albums/kept-across-reloads.txt';

test('demo edits survive a reload; Reset demo data (asked first) restores the seed', async ({ page }) => {
  const backend = await demoBackend(page);
  expect((await backend.head(EDITED))?.standard['cache-control']).toBeUndefined();

  // A metadata edit through the editor.
  await page.goto(`/buckets/pek3a/demo-documents?prefix=data%2F&object=${encodeURIComponent(EDITED)}&edit=1`);
  const editor = page.getByRole('dialog', { name: `Edit metadata of ${EDITED}` });
  await editor.getByLabel('Cache-Control', { exact: true }).fill('max-age=77');
  await editor.getByRole('button', { name: 'Review changes' }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Metadata saved.')).toBeVisible();
  await editor.getByRole('button', { name: 'Close' }).first().click();

  // An upload through the upload panel.
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums%2F');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'kept-across-reloads.txt', text: 'kept\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: /^Upload 1 files?$/ }).click();
  await expect(panel.getByRole('listitem', { name: UPLOADED })).toHaveAttribute('data-state', 'done');

  // A delete of a seeded object.
  await backend.remove(DELETED);

  await page.reload();
  await expect(page.getByRole('link', { name: 'kept-across-reloads.txt', exact: true })).toBeVisible();
  expect((await backend.head(EDITED))?.standard['cache-control']).toBe('max-age=77');
  expect(await backend.head(DELETED)).toBeNull();
  await page.goto(`/buckets/pek3a/demo-documents?prefix=data%2F&object=${encodeURIComponent(EDITED)}&edit=1`);
  await expect(editor.getByLabel('Cache-Control', { exact: true })).toHaveValue('max-age=77');
  await editor.getByRole('button', { name: 'Close' }).first().click();

  // Reset: the badge opens what the demo keeps and where; the reset asks first, Cancel keeps everything.
  await page.getByRole('button', { name: 'Demo data — simulated backend' }).click();
  const demo = page.getByRole('dialog', { name: 'Demo data' });
  await expect(demo).toContainText('kept in this browser');
  await demo.getByRole('button', { name: 'Reset demo data…' }).click();
  await expect(demo.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await demo.getByRole('button', { name: 'Cancel' }).click();
  await expect(demo).toBeHidden();
  await expect(page.getByRole('button', { name: 'Demo data — simulated backend' })).toBeFocused();
  expect(await backend.head(DELETED)).toBeNull();

  await page.getByRole('button', { name: 'Demo data — simulated backend' }).click();
  await demo.getByRole('button', { name: 'Reset demo data…' }).click();
  await expect(demo).toContainText('Every change you made is deleted');
  const reloaded = page.waitForEvent('load');
  await demo.getByRole('button', { name: 'Reset and reload' }).click();
  await reloaded;
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  expect((await backend.head(DELETED))?.standard['content-type']).toBe('text/markdown; charset=utf-8');
  expect((await backend.head(EDITED))?.standard['cache-control']).toBeUndefined();
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums%2F');
  await expect(page.getByRole('link', { name: 'family/', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'kept-across-reloads.txt', exact: true })).toHaveCount(0);

  // And the reset state is itself kept: a further reload still shows the seed.
  await page.reload();
  // The console renders only once the demo backend answers; requests sent before that find no one.
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  expect((await backend.head(DELETED))?.standard['content-type']).toBe('text/markdown; charset=utf-8');
});

test('the reset dialog in Simplified Chinese', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await page.getByRole('button', { name: '演示数据 — 模拟后端' }).click();
  const demo = page.getByRole('dialog', { name: '演示数据' });
  await expect(demo).toContainText('保存在此浏览器中');
  await demo.getByRole('button', { name: '重置演示数据…' }).click();
  await expect(demo.getByRole('button', { name: '重置并重新加载' })).toBeVisible();
});

test('saved demo data that cannot be loaded (another version, damaged) is replaced by the original demo data', async ({ page }) => {
  await page.goto('/');
  // The bucket list was answered, so the seed's transaction had committed.
  await expect(page.getByRole('main').getByRole('link', { name: 'demo-photos', exact: true })).toBeVisible();
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('qingstor-console-demo');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('buckets', 'readwrite');
      tx.objectStore('buckets').put({ name: 'damaged-record', zone: 1 });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('write failed'));
    });
    db.close();
  });
  await page.reload();
  await expect(page.getByRole('main').getByRole('link', { name: 'demo-photos', exact: true })).toBeVisible();
  await expect(page.getByText('damaged-record')).toHaveCount(0);
});

test('without IndexedDB the demo runs in memory and says so', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
  });
  const backend = await demoBackend(page);
  await backend.remove(DELETED);
  await page.getByRole('button', { name: 'Demo data — simulated backend' }).click();
  const demo = page.getByRole('dialog', { name: 'Demo data' });
  await expect(demo).toContainText('IndexedDB is not available');
  await expect(demo).not.toContainText('kept in this browser');
  await page.reload();
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  expect((await backend.head(DELETED))?.standard['content-type']).toBe('text/markdown; charset=utf-8');
});
