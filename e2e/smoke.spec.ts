import { expect, test } from '@playwright/test';

test('the built console opens in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'QingStor Console' })).toBeVisible();
});
