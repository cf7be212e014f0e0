import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';

// Text that must not break where a reader would stumble, on a 390 px phone: a size is never split between its
// number and its unit, and a key or bucket name in a dialog's title moves to the next line whole instead of
// breaking at its hyphens (inside it breaks only when it is longer than the line).

/** The lines (distinct tops of the client rects) the first match of `pattern` in `element`'s text spans. */
async function linesOf(element: Locator, pattern: RegExp): Promise<number> {
  return element.evaluate((root, source) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const re = new RegExp(source);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const match = re.exec(node.textContent ?? '');
      if (!match) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    }
    return 0;
  }, pattern.source);
}

test('390 px, Chinese: the delete-folder dialog keeps each size on one line and the folder whole in its title', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => window.localStorage.setItem('qsc.locale', 'zh-CN'));
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await page.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menu', { name: '更多操作' }).getByRole('menuitem', { name: '删除文件夹…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '删除文件夹 demo-documents/reports/' });
  const count = dialog.getByTestId('folder-count');
  await expect(count).toHaveText(/（[\d.]+\s[KMG]?i?B）。$/);
  expect(await linesOf(count, /[\d.]+\s[KMG]?i?B/)).toBe(1);
  // The title's folder fits a line: it is on one line, not split at "demo-" or "/".
  const title = dialog.getByRole('heading', { level: 2 });
  expect(await linesOf(title, /demo-documents\/reports\//)).toBe(1);
  // One order for every footer: the way out first, the action last.
  await expect(dialog.getByRole('button').filter({ hasText: /./ })).toHaveText(['取消', /^全部删除/]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(dialog).toBeVisible();
});

test('390 px: the copy dialog keeps a long key whole in its title when it fits a line', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.row('quarterly-report.pdf').getByRole('button', { name: 'Actions for quarterly-report.pdf' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Copy…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy reports/quarterly-report.pdf' });
  await expect(dialog.getByLabel('Destination bucket')).toBeFocused();
  expect(await linesOf(dialog.getByRole('heading', { level: 2 }), /reports\/quarterly-report\.pdf/)).toBe(1);
});
