import { expect } from '@playwright/test';
import { shotTests } from './support/shots.ts';

// Screens of the object table's actions (row menu open, files dragged over the list, a toast), written into
// e2e/screenshots/ by `npx playwright test -c playwright.screenshots.config.ts` with the main screens.

shotTests('table actions', async ({ page, shot }) => {

  await page.goto('/buckets/pek3a/demo-documents?prefix=reports/');
  const grid = page.getByRole('grid', { name: /Objects in demo-documents\/reports\// });
  await expect(grid).toBeVisible();
  await expect(page.getByTestId('listing-status')).toBeVisible();

  await grid.getByRole('button', { name: 'Actions for readme.md' }).click();
  await expect(page.getByRole('menuitem', { name: 'Open details' })).toBeFocused();
  await shot('objects-menu');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  await grid.evaluate((element) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'photo.jpg', { type: 'image/jpeg' }));
    for (const type of ['dragenter', 'dragover']) element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await shot('objects-drop');
  await grid.evaluate((element) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'photo.jpg', { type: 'image/jpeg' }));
    element.dispatchEvent(new DragEvent('dragleave', { bubbles: true, dataTransfer: transfer }));
  });

  await page.getByRole('button', { name: 'Count all' }).click();
  await expect(page.getByTestId('count-all')).toHaveText(/^2 objects under/);
  await grid.getByRole('button', { name: 'Actions for readme.md' }).click();
  await page.getByRole('menuitem', { name: 'Copy…' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy reports/readme.md' });
  await copy.getByRole('button', { name: 'Copy', exact: true }).click();
  await copy.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByTestId('toast')).toContainText('Request ID');
  await expect(grid.getByRole('link', { name: 'readme-copy.md' })).toBeVisible();
  await shot('objects-toast');

  await page.goto('/buckets/sh1a/demo-archive?prefix=logs/2024/01/01/');
  await expect(page.getByTestId('listing-status')).toBeVisible();
  await page.getByRole('checkbox', { name: /^Select all \d+ loaded/ }).check();
  await expect(page.getByRole('button', { name: 'Select all matching objects' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete \d+ selected…$/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit metadata of \d+ objects$/ })).toBeVisible();
  await shot('objects-matching');
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Copy…', exact: true }).click();
  await expect(page.getByRole('dialog', { name: /^Copy \d+ objects$/ }).getByLabel('Destination folder')).toBeVisible();
  await shot('objects-copy-many');
});
