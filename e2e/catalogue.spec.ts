import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';

// The component catalogue (src/app/catalogue/) is for development builds only. The journeys run against the
// production build (`npm run build`), which must not contain it: no route, and no byte of its code.

test('the production build has no component catalogue: /_catalogue is not found and no asset holds its code', async ({ page }) => {
  await page.goto('/_catalogue');
  await expect(page.getByRole('heading', { name: 'There is nothing at this address.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Component catalogue' })).toHaveCount(0);

  const assets = join(import.meta.dirname, '..', 'dist', 'assets');
  const files = readdirSync(assets).filter((file) => /\.(js|css)$/.test(file));
  expect(files.length).toBeGreaterThan(10);
  const holding = files.filter((file) => {
    const text = readFileSync(join(assets, file), 'utf8');
    return text.includes('/_catalogue') || text.includes('catalogue__') || text.includes('Component catalogue');
  });
  expect(holding).toEqual([]);
  expect(files.filter((file) => file.includes('catalogue'))).toEqual([]);
});
