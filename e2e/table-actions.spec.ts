import type { Locator, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { demoPutObject, expect, expectNoAxeViolations, slowDemoAnswers, test, type ConsolePage } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';

// The object table's actions in demo mode: the row "…" menu and the context menu (mouse and keyboard), toasts
// in words, files dropped anywhere on the object area, "Select all matching" and "Count all".

/** Files dragged over `target` without being dropped yet (the overlay is up while they hover). */
async function dragFilesOver(target: Locator): Promise<void> {
  await target.evaluate((element) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'x.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover']) element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
}

function menuOf(page: Page): Locator {
  return page.getByRole('menu');
}

async function openRowMenu(consolePage: ConsolePage, name: string): Promise<Locator> {
  await consolePage.row(name).getByRole('button', { name: `Actions for ${name}` }).click();
  const menu = menuOf(consolePage.page);
  await expect(menu).toBeVisible();
  return menu;
}

test('files and a folder dropped on the object list (not the drawer) upload into the folder shown, paths kept', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const grid = consolePage.objectList;

  await dragFilesOver(grid);
  const overlay = page.getByTestId('drop-overlay');
  await expect(overlay).toHaveText(/^Drop to upload to demo-documents\/reports\//);
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await grid.evaluate((element) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'x.txt', { type: 'text/plain' }));
    element.dispatchEvent(new DragEvent('dragleave', { bubbles: true, dataTransfer: transfer }));
  });
  await expect(overlay).toHaveCount(0);

  await dropFiles(grid, [
    { path: 'drop-a.txt', text: 'alpha\n', type: 'text/plain' },
    { path: 'drop-b.txt', text: 'beta\n', type: 'text/plain' },
    { path: 'drop-c.md', text: '# gamma\n', type: 'text/markdown' },
    { path: 'dropped-folder/inner/d.txt', text: 'delta\n', type: 'text/plain' },
  ]);
  await expect(overlay).toHaveCount(0);
  const toast = page.getByTestId('toast').filter({ hasText: 'Uploaded 4 files to demo-documents/reports/.' });
  await expect(toast).toBeVisible();
  // No navigation: the console is still on the folder, the drawer stayed closed.
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-documents\?prefix=reports(%2F|\/)$/);
  await expect(page.getByRole('region', { name: 'Upload to demo-documents' })).toHaveCount(0);
  for (const name of ['drop-a.txt', 'drop-b.txt', 'drop-c.md', 'dropped-folder/']) await expect(consolePage.row(name)).toBeVisible();
  await consolePage.row('dropped-folder/').getByRole('link').click();
  await expect(consolePage.row('inner/')).toBeVisible();
  await consolePage.row('inner/').getByRole('link').click();
  await expect(consolePage.row('d.txt')).toBeVisible();
});

test('a drop outside every drop zone is refused by the page, which stays where it is', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const refused = await page.getByRole('banner').evaluate((element) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'x.html', { type: 'text/html' }));
    const over = new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer });
    const drop = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
    element.dispatchEvent(over);
    element.dispatchEvent(drop);
    return { over: over.defaultPrevented, drop: drop.defaultPrevented, effect: transfer.dropEffect };
  });
  // Cancelled default = the browser does not open the file in place of the console; "none" = no drop cursor.
  expect(refused).toEqual({ over: true, drop: true, effect: 'none' });
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
});

test('the row "…" menu copies an object; the toast says where, in words (no request id); the context menu deletes the copy', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();

  // The "…" button toggles: a second click closes its menu.
  const more = consolePage.row('readme.md').getByRole('button', { name: 'Actions for readme.md' });
  await openRowMenu(consolePage, 'readme.md');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await more.click();
  await expect(menuOf(page)).toHaveCount(0);
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const menu = await openRowMenu(consolePage, 'readme.md');
  await expect(menu.getByRole('menuitem')).toHaveText(['Open details', 'Download', 'Copy…', 'Move or rename…', 'Edit metadata…', 'Delete…']);
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await menu.getByRole('menuitem', { name: 'Copy…' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy reports/readme.md' });
  // The dialog starts on what it asks for: its first field, not its Close button.
  await expect(copy.getByLabel('Destination bucket')).toBeFocused();
  await expect(copy.getByLabel('Destination key')).toHaveValue('reports/readme-copy.md');
  const metadata = copy.getByRole('group', { name: 'Metadata of the copy' });
  await expect(metadata.getByRole('radio', { name: 'Keep the metadata of the original' })).toBeChecked();
  // Cancel before the action, as in every dialog.
  await expect(copy.getByRole('button').filter({ hasText: /./ })).toHaveText(['Browse…', 'Cancel', 'Copy']);
  await copy.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(copy.getByText('Copied to reports/readme-copy.md.')).toBeVisible();
  // A success says what was done; request ids belong to failures.
  await expect(copy).not.toContainText('Request ID');
  const copied = page.getByTestId('toast').filter({ hasText: 'Copied to demo-documents/reports/readme-copy.md.' });
  await expect(copied).toHaveText(/^Copied to demo-documents\/reports\/readme-copy\.md\.\s*×$/);
  await copy.getByRole('button', { name: 'Close' }).last().click();
  await expect(consolePage.row('readme-copy.md')).toBeVisible();
  await expectNoAxeViolations(page);

  // Right-click: the same menu, at the pointer.
  await consolePage.row('readme-copy.md').click({ button: 'right' });
  await expect(menuOf(page)).toBeVisible();
  await menuOf(page).getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete reports/readme-copy.md' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('toast').filter({ hasText: 'Deleted demo-documents/reports/readme-copy.md.' })).not.toContainText('Request ID');
  await expect(consolePage.row('readme-copy.md')).toHaveCount(0);
  await expect(consolePage.row('readme.md')).toBeVisible();
});

test('keyboard only: Shift+F10 and the context-menu key open the active row\'s menu; arrows, Enter, Escape', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const grid = consolePage.objectList;
  // Rows: quarterly-report.pdf, readme.md. Focus goes to the grid once they are there.
  await expect(consolePage.row('readme.md')).toBeVisible();
  await grid.focus();
  await expect(grid).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(grid).toHaveAttribute('aria-activedescendant', /-row-1$/);
  await page.keyboard.press('Shift+F10');
  const menu = menuOf(page);
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Open details' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(grid).toBeFocused();

  await page.keyboard.press('ContextMenu');
  await expect(menu.getByRole('menuitem', { name: 'Open details' })).toBeFocused();
  // One step at a time: each arrow is pressed once the item before it holds the focus.
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Download' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Copy…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const copy = page.getByRole('dialog', { name: 'Copy reports/readme.md' });
  const destKey = copy.getByLabel('Destination key');
  await expect(destKey).toHaveValue('reports/readme-copy.md');
  // The dialog holds the focus (on its Close button); Tab walks to the key field.
  for (let i = 0; i < 4 && !(await destKey.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(destKey).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('reports/keyboard-copy.md');
  await page.keyboard.press('Enter');
  await expect(copy.getByText('Copied to reports/keyboard-copy.md.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(copy).toBeHidden();
  await expect(grid).toBeFocused();
  await expect(consolePage.row('keyboard-copy.md')).toBeVisible();

  // The copy sorts first: go to it and delete it from its menu.
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+F10');
  await expect(menu.getByRole('menuitem', { name: 'Open details' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Delete…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete reports/keyboard-copy.md' });
  await expect(confirm).toBeVisible();
  const deleteButton = confirm.getByRole('button', { name: 'Delete', exact: true });
  for (let i = 0; i < 4 && !(await deleteButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(deleteButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(consolePage.row('keyboard-copy.md')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Deleted demo-documents/reports/keyboard-copy.md.' })).toBeVisible();
});

test('the row menu\'s Move renames an object (a toast in words) and Edit metadata opens the editor over its details', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await (await openRowMenu(consolePage, 'readme.md')).getByRole('menuitem', { name: 'Move or rename…' }).click();
  const move = page.getByRole('dialog', { name: 'Move or rename reports/readme.md' });
  await move.getByLabel('Destination key').fill('reports/renamed.md');
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(move).toBeHidden();
  const moved = page.getByTestId('toast').filter({ hasText: 'Moved to demo-documents/reports/renamed.md.' });
  await expect(moved).toBeVisible();
  await expect(moved).not.toContainText('Request ID');
  await expect(consolePage.row('readme.md')).toHaveCount(0);
  await expect(consolePage.row('renamed.md')).toBeVisible();

  await (await openRowMenu(consolePage, 'renamed.md')).getByRole('menuitem', { name: 'Edit metadata…' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit metadata of reports/renamed.md' })).toBeVisible();
  await expect(page).toHaveURL(/object=reports(%2F|\/)renamed\.md&edit=1$/);
});

test('a folder row\'s menu opens it, bulk-edits it or deletes it (counted first)', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  await consolePage.waitForList();
  let menu = await openRowMenu(consolePage, 'reports/');
  await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Bulk-edit this folder…', 'Delete folder…']);
  // Bulk edit of the folder from its row, without opening it first.
  await menu.getByRole('menuitem', { name: 'Bulk-edit this folder…' }).click();
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of all objects in reports/' });
  await expect(bulk.getByTestId('bulk-listed')).toHaveText(/^\d+ objects? in this folder and its subfolders will be edited\.$/);
  await bulk.getByRole('button', { name: 'Close' }).first().click();
  await expect(bulk).toBeHidden();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-documents$/);
  menu = await openRowMenu(consolePage, 'reports/');
  await menu.getByRole('menuitem', { name: 'Delete folder…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete folder demo-documents/reports/' });
  await expect(dialog.getByTestId('folder-count')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(consolePage.row('reports/')).toBeVisible();
  await openRowMenu(consolePage, 'reports/');
  await menuOf(page).getByRole('menuitem', { name: 'Open' }).click();
  await expect(page).toHaveURL(/prefix=reports(%2F|\/)$/);
  await expect(consolePage.row('readme.md')).toBeVisible();
});

test('select all loaded, then all matching: the remaining pages load and every object is selected', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await consolePage.waitForList();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(consolePage.objectList).toHaveAttribute('data-has-more', 'true');
  const loaded = await consolePage.loadedRows();
  await page.getByRole('checkbox', { name: /^Select all \d+ loaded/ }).check();
  await expect(bar).toContainText(`All ${loaded} loaded objects selected; there are more.`);
  await bar.getByRole('button', { name: 'Select all matching objects' }).click();
  await expect(bar).toContainText('All 400 matching objects selected.');
  await expect(bar.getByTestId('selection-status')).toHaveText(/^400 objects selected · /);
  await expect(bar.getByRole('button', { name: 'Delete 400 selected…' })).toBeEnabled();
  await expectNoAxeViolations(page);
});

test('Count all pages through a big prefix with progress and Cancel, and counts a smaller one to the end', async ({ page, consolePage }) => {
  // A network's pace, so the count of 100,000 keys is still running when Cancel is clicked.
  await page.addInitScript(slowDemoAnswers, 10);
  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/');
  await consolePage.waitForList();
  const status = page.getByTestId('count-all');
  await page.getByRole('button', { name: 'Count all' }).click();
  await expect(status).toHaveText(/^Counting… [\d,]+ objects/);
  // Progress: the figure grows while it runs.
  await expect(status).toHaveText(/^Counting… (?!0 )[\d,]+ objects, /);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toHaveText(/^Stopped at [\d,]+ objects? \(/);
  const stoppedAt = Number((await status.textContent())?.match(/at ([\d,]+)/)?.[1]?.replaceAll(',', ''));
  expect(stoppedAt).toBeLessThan(100_000);
  await expectNoAxeViolations(page);

  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await consolePage.waitForList();
  await page.getByRole('button', { name: 'Count all' }).click();
  await expect(status).toHaveText(/^400 objects under demo-archive\/logs\/2024\/01\/01\/ · [\d.]+\s[KM]i?B in total$/);
});

test('in Chinese: the row menu, the toast and Count all', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: '简体中文' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await consolePage.row('readme.md').getByRole('button', { name: 'readme.md 的操作' }).click();
  await expect(menuOf(page).getByRole('menuitem')).toHaveText(['查看详情', '下载', '复制…', '移动或重命名…', '编辑元数据…', '删除…']);
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '统计全部' }).click();
  await expect(page.getByTestId('count-all')).toHaveText(/^demo-documents\/reports\/ 下共 2 个对象 · 总计 /);

  await consolePage.row('readme.md').click({ button: 'right' });
  await menuOf(page).getByRole('menuitem', { name: '复制…' }).click();
  const copy = page.getByRole('dialog', { name: '复制 reports/readme.md' });
  await copy.getByRole('button', { name: '复制', exact: true }).click();
  await expect(copy.getByText('已复制到 reports/readme-copy.md。')).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: '已复制到 demo-documents/reports/readme-copy.md。' })).not.toContainText('请求 ID');
  await expect(copy).not.toContainText('请求 ID');
  await copy.getByRole('button', { name: '关闭' }).last().click();
  await expect(page.getByTestId('toast')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
});

test('Download from the row menu and from the selection bar saves the exact bytes; the page stays on the console', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const body = 'download me — 下载\n';
  expect(await demoPutObject(page, 'demo-documents', 'reports/table-download.txt', body)).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(consolePage.row('table-download.txt')).toBeVisible();
  const here = page.url();

  const fromMenu = page.waitForEvent('download');
  await (await openRowMenu(consolePage, 'table-download.txt')).getByRole('menuitem', { name: 'Download' }).click();
  const saved = await fromMenu;
  expect(saved.suggestedFilename()).toBe('table-download.txt');
  expect(await readFile(await saved.path(), 'utf8')).toBe(body);
  expect(page.url()).toBe(here);

  await consolePage.objectList.getByRole('checkbox', { name: 'Select table-download.txt', exact: true }).click();
  const bar = page.getByRole('region', { name: 'Selection' });
  const fromBar = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Download', exact: true }).click();
  expect(await readFile(await (await fromBar).path(), 'utf8')).toBe(body);
  expect(page.url()).toBe(here);
  // Download takes one object: with two selected it says so; Copy and Move take many.
  await consolePage.objectList.getByRole('checkbox', { name: 'Select readme.md', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'Download', exact: true })).toBeDisabled();
  await expect(bar.getByRole('button', { name: 'Download', exact: true })).toHaveAttribute('title', 'Download takes one object at a time');
  await expect(bar.getByRole('button', { name: 'Copy…', exact: true })).toBeEnabled();
  await expect(bar.getByRole('button', { name: 'Move…', exact: true })).toBeEnabled();
});

test('the selection bar copies several objects into another folder, then a move skips what already exists there', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await consolePage.waitForList();
  const grid = consolePage.objectList;
  await grid.getByRole('checkbox', { name: 'Select event-0000.json', exact: true }).click();
  await grid.getByRole('checkbox', { name: 'Select event-0002.json', exact: true }).click({ modifiers: ['Shift'] });
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Copy…', exact: true }).click();
  const copy = page.getByRole('dialog', { name: 'Copy 3 objects' });
  const folder = copy.getByLabel('Destination folder');
  await expect(folder).toHaveValue('logs/2024/01/01/');
  await expect(copy.getByText('The objects are already there: choose another folder or bucket.')).toBeVisible();
  await expect(copy.getByRole('button', { name: 'Start' })).toBeDisabled();
  await folder.fill('logs/copies');
  await expect(copy.getByText('Each object keeps its name, e.g. demo-archive/logs/copies/event-0000.json')).toBeVisible();
  // A typed destination is not thrown away by a stray Esc: the dialog asks, and "Keep editing" keeps it.
  await page.keyboard.press('Escape');
  const question = copy.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
  await question.getByRole('button', { name: 'Keep editing' }).click();
  await expect(question).toHaveCount(0);
  await expect(folder).toHaveValue('logs/copies');
  await expectNoAxeViolations(page);
  await copy.getByRole('button', { name: 'Start' }).click();
  await expect(copy.getByTestId('transfer-result')).toHaveText('Copied 3 objects to demo-archive/logs/copies/.');
  await expect(page.getByTestId('toast').filter({ hasText: 'Copied 3 objects to demo-archive/logs/copies/.' })).toBeVisible();
  await copy.getByRole('button', { name: 'Close' }).last().click();
  await expect(consolePage.row('event-0000.json')).toBeVisible();

  await page.getByRole('link', { name: 'logs' }).click();
  await consolePage.row('copies/').getByRole('link').click();
  await expect(consolePage.row('event-0002.json')).toBeVisible();
  await expect(page.getByTestId('listing-status')).toHaveText(/^3 items loaded/);
  await page.getByRole('checkbox', { name: /^Select all 3 loaded/ }).check();
  await bar.getByRole('button', { name: 'Move…', exact: true }).click();
  const move = page.getByRole('dialog', { name: 'Move 3 objects' });
  await move.getByLabel('Destination folder').fill('logs/2024/01/01/');
  await expect(move.getByRole('checkbox', { name: 'Skip objects that already exist there (otherwise they are replaced)' })).toBeChecked();
  await move.getByRole('button', { name: 'Start' }).click();
  await expect(move.getByTestId('transfer-result')).toHaveText('Moved 0 objects to demo-archive/logs/2024/01/01/. 3 skipped: already there.');
  await move.getByRole('button', { name: 'Close' }).last().click();
  await expect(consolePage.row('event-0001.json')).toBeVisible();
});

test('a big file dropped on the list shows in the header\'s upload indicator until it is done', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await dropFiles(consolePage.objectList, [{ path: 'big-dropped.bin', size: 48 * 1024 * 1024, seed: 5 }]);
  const indicator = page.getByRole('banner').getByRole('button', { name: /^1 upload running, \d+% — show uploads$/ });
  await expect(indicator).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Uploaded 1 file to demo-documents/reports/.' })).toBeVisible({ timeout: 60_000 });
  await expect(indicator).toHaveCount(0);
  await expect(consolePage.row('big-dropped.bin')).toBeVisible();
});
