import { expect, expectNoAxeViolations, test } from './fixtures.ts';

test('shift-click selects a range of 25 objects; the selection bar deletes them and reports per key', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 1280, height: 1400 });
  await consolePage.open('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await consolePage.waitForList();
  const grid = consolePage.objectList;
  await grid.getByRole('checkbox', { name: 'Select event-0000.json', exact: true }).click();
  await expect(page.getByTestId('selection-status')).toHaveText(/^1 object selected · \d+\sB$/);
  await grid.getByRole('checkbox', { name: 'Select event-0024.json', exact: true }).click({ modifiers: ['Shift'] });
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar.getByTestId('selection-status')).toHaveText(/^25 objects selected · /);
  for (const name of ['event-0000.json', 'event-0012.json', 'event-0024.json']) {
    await expect(grid.getByRole('checkbox', { name: `Select ${name}`, exact: true })).toBeChecked();
  }
  await expect(grid.getByRole('checkbox', { name: 'Select event-0025.json', exact: true })).not.toBeChecked();
  await expect(bar.getByRole('button', { name: 'Edit metadata of 25 objects' })).toBeEnabled();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);

  await bar.getByRole('button', { name: 'Delete 25 selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 25 objects' });
  await expect(dialog).toContainText('Delete these 25 objects? This cannot be undone.');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('25 objects deleted.');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await expect(consolePage.row('event-0000.json')).toHaveCount(0);
  await expect(consolePage.row('event-0024.json')).toHaveCount(0);
  await expect(consolePage.row('event-0025.json')).toBeVisible();
  // The bar stays until the user is done with it (its dialog showed the result); Clear gives the place back
  // to the list's own tools: no bar, no action waiting greyed out.
  await expect(bar.getByTestId('selection-status')).toHaveText(/^0 objects selected/);
  await expect(bar.getByRole('button', { name: 'Delete 0 selected…' })).toBeDisabled();
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await expect(bar).toBeHidden();
  await expect(page.getByRole('button', { name: /^Delete \d+ selected…$/ })).toHaveCount(0);
  await expect(consolePage.filter).toBeVisible();
});

test('columns sort the loaded rows by size (saying so); a third click returns to key order', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await consolePage.waitForList();
  const names = () => consolePage.rows.getByRole('link').allTextContents();
  await expect.poll(names).toEqual(['quarterly-report.pdf', 'readme.md']);
  const size = page.getByRole('columnheader', { name: 'Size' });

  await size.getByRole('button').click();
  await expect(size).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(names).toEqual(['readme.md', 'quarterly-report.pdf']);
  await expect(page.getByText('Sorted by size within what is loaded (2), not across the whole folder.')).toBeVisible();

  await size.getByRole('button').click();
  await expect(size).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(names).toEqual(['quarterly-report.pdf', 'readme.md']);

  await size.getByRole('button').click();
  await expect(size).not.toHaveAttribute('aria-sort');
  await expect(page.getByText(/^Sorted by/)).toHaveCount(0);

  await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
  await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
  await expect.poll(names).toEqual(['readme.md', 'quarterly-report.pdf']);
  await page.getByRole('button', { name: 'Back to key order' }).click();
  await expect.poll(names).toEqual(['quarterly-report.pdf', 'readme.md']);
});

test('keyboard: Space selects the active row; select all loaded; clear', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  await expect(consolePage.row('readme.md')).toBeVisible();
  await consolePage.objectList.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: 'Select quarterly-report.pdf' })).toBeChecked();
  await expect(page.getByTestId('selection-status')).toHaveText('1 object selected · 8.0 KiB');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('selection-status')).toHaveText('2 objects selected · 8.0 KiB');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('selection-status')).toHaveText('1 object selected · 8.0 KiB');
  // Delete asks first, as the bar's button does.
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: /^Delete 1 object/ });
  await expect(confirm).toContainText('quarterly-report.pdf');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(consolePage.row('quarterly-report.pdf')).toBeVisible();

  const all = page.getByRole('checkbox', { name: 'Select all 2 loaded objects' });
  await all.check();
  await expect(page.getByTestId('selection-status')).toHaveText('2 objects selected · 8.0 KiB');
  await all.uncheck();
  await expect(page.getByTestId('selection-status')).toBeHidden();

  await all.check();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByTestId('selection-status')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Clear selection' })).toHaveCount(0);
  await expect(all).not.toBeChecked();

  // In Chinese, the same in Chinese.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  await page.getByRole('checkbox', { name: '选择已加载的全部 2 个对象' }).check();
  await expect(page.getByTestId('selection-status')).toHaveText('已选择 2 个对象 · 8.0 KiB');
});
