import { demoBackend } from './metadata-backend.ts';
import { expect, moreAction, test } from './fixtures.ts';
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
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await editor.getByRole('button', { name: 'Close' }).first().click();

  // An upload through the upload panel.
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums%2F');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'kept-across-reloads.txt', text: 'kept\n', type: 'text/plain' }]);
  await panel.getByRole('button', { name: /^Upload 1 files?$/ }).click();
  await expect(panel.getByRole('row', { name: UPLOADED, exact: true })).toHaveAttribute('data-state', 'done');

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

test('one damaged saved record loses that record only, and the page says so', async ({ page }) => {
  const backend = await demoBackend(page);
  // An edit of the user's own that must survive the damage of another record.
  // Answered 201, so committed to IndexedDB; then one seeded object's record is damaged (a size of -1).
  await backend.put('mine/kept.txt', { standard: { 'content-type': 'text/plain' }, custom: {} }, 'kept\n');
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('qingstor-console-demo');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('objects', 'readwrite');
      const objects = tx.objectStore('objects');
      const read = objects.get(['demo-documents', 'reports/readme.md']);
      read.onsuccess = () => objects.put({ ...read.result, size: -1 });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('write failed'));
    });
    db.close();
  });
  await page.goto('/buckets/pek3a/demo-documents?prefix=reports%2F');
  const notice = page.getByTestId('demo-damage');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText('1 item of the demo data saved in this browser was damaged and could not be loaded, so it is gone: demo-documents/reports/readme.md. Everything else was loaded.');
  // That record only: its neighbour and the user's own edit are there.
  await expect(page.getByRole('link', { name: 'quarterly-report.pdf', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'readme.md', exact: true })).toHaveCount(0);
  expect(await backend.head('mine/kept.txt')).not.toBeNull();
  expect(await backend.head('reports/readme.md')).toBeNull();
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toHaveCount(0);
  // The damaged record was removed: the next start loads cleanly and has nothing to say.
  await page.reload();
  await expect(page.getByRole('link', { name: 'quarterly-report.pdf', exact: true })).toBeVisible();
  await expect(page.getByTestId('demo-damage')).toHaveCount(0);
  expect(await backend.head('mine/kept.txt')).not.toBeNull();
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

test('without IndexedDB a bulk job says before it starts that it lasts only as long as the page', async ({ page, consolePage }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
  });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await moreAction(page, 'Bulk-edit this folder…');
  const dialog = page.getByRole('dialog', { name: 'Edit metadata of all objects in reports/' });
  await expect(dialog.getByText(/IndexedDB is not available\): the job runs for this page only/)).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await expect(page.getByText(/a job runs for this page only: a reload or closing the tab stops it/)).toBeVisible();
  await expect(page.getByText(/after a reload or a restart of the browser it waits here/)).toHaveCount(0);
});
