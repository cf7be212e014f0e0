import { expect, test } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';
import type { Locator } from '@playwright/test';

/**
 * Words (runs of non-space characters: a sentence's words, an error code, an id) of `scope` that the browser
 * split across two lines although they would fit on one: the word's rectangles (a Range over it) lie on more
 * than one line while the word is narrower than its block.
 */
async function wordsBrokenInside(scope: Locator): Promise<string[]> {
  return scope.evaluateAll((roots) => {
    const broken: string[] = [];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          const lines = new Set(rects.map((r) => Math.round(r.top)));
          const block = node.parentElement?.closest('p, dd, li, pre, div, output');
          const fits = block ? rects.reduce((sum, r) => sum + r.width, 0) <= block.clientWidth : true;
          if (lines.size > 1 && fits) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

// Bugs a new user hit in the first minutes of trying the console, each as the journey that found it.

test('the filter and the sort stay with their bucket: another bucket from the sidebar starts unfiltered, in key order', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents');
  await consolePage.waitForList();
  await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: 'Size' })).toHaveAttribute('aria-sort', 'ascending');
  await consolePage.filter.fill('rep');
  await expect(page).toHaveURL(/filter=rep/);
  await expect(consolePage.row('reports/')).toBeVisible();

  await page.getByRole('navigation', { name: 'Buckets by zone' }).getByRole('link', { name: 'demo-photos' }).click();
  await expect(page).toHaveURL(/\/buckets\/pek3a\/demo-photos$/);
  await expect(consolePage.filter).toHaveValue('');
  await expect(page.getByRole('columnheader', { name: 'Size' })).not.toHaveAttribute('aria-sort', /.+/);
  await expect(consolePage.rows.first()).toBeVisible();
  // The URL stays unfiltered once typing's pause is over (a stale draft must not come back).
  await expect.poll(async () => {
    await page.waitForLoadState('networkidle');
    return new URL(page.url()).search;
  }).toBe('');

  // Back returns to the filtered list of the first bucket.
  await page.goBack();
  await expect(page).toHaveURL(/demo-documents\?filter=rep/);
  await expect(consolePage.filter).toHaveValue('rep');
});

test('the Copy dialog starts on its first field, not on Close', async ({ page, consolePage }) => {
  await consolePage.open(`/buckets/pek3a/demo-documents?prefix=reports/&object=${encodeURIComponent('reports/readme.md')}`);
  await consolePage.details.getByRole('button', { name: 'Copy…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Copy / });
  await expect(dialog.getByLabel('Destination bucket')).toBeFocused();
  await page.keyboard.type('x');
  await expect(dialog.getByLabel('Destination bucket')).toHaveValue(/x$/);
});

test('an upload leaves the browser console empty: the conflict check asks by listing, so free names log no 404', async ({ page, consolePage }) => {
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`);
  });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  await expect(consolePage.row('readme.md')).toBeVisible();
  await dropFiles(consolePage.objectList, [
    { path: 'quiet-a.txt', text: 'alpha\n', type: 'text/plain' },
    { path: 'quiet-b.txt', text: 'beta\n', type: 'text/plain' },
  ]);
  await expect(page.getByTestId('toast').filter({ hasText: 'Uploaded 2 files to demo-documents/reports/.' })).toBeVisible();
  await expect(consolePage.row('quiet-b.txt')).toBeVisible();
  // The same names again: the check finds them (a listing), and asks before anything is overwritten.
  await dropFiles(consolePage.objectList, [{ path: 'quiet-a.txt', text: 'alpha 2\n', type: 'text/plain' }]);
  const panel = page.getByRole('region', { name: 'Upload to demo-documents' });
  await expect(panel.getByText(/quiet-a\.txt/).first()).toBeVisible();
  expect(logged).toEqual([]);
});

test('error text wraps between words, never inside one (390 px, the errors of a bucket that does not exist)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/buckets/pek3a/no-such-bucket-here/settings');
  const notices = page.getByRole('alert');
  await expect(notices.first()).toContainText('bucket_not_exists');
  await expect(notices.first()).toContainText('Message from the server');
  expect(await notices.count()).toBeGreaterThan(1);
  expect(await wordsBrokenInside(notices)).toEqual([]);
});
