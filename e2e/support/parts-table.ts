import type { Locator, Page } from '@playwright/test';

/**
 * The parts table of the multipart inspector keeps only the rows in view in the DOM. To see a page's last
 * rows a test does what a keyboard user does: focus the table's scrolling box and press End.
 */
export async function scrollPartsTableToEnd(page: Page): Promise<Locator> {
  const box = page.getByRole('region', { name: 'Parts of this page (scrolls)' });
  await box.focus();
  await page.keyboard.press('End');
  return page.getByRole('table', { name: 'Parts of this page' });
}
