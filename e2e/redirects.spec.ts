import { ConsolePage, bucketsInZone } from './fixtures.ts';
import { connect, expect, test } from './support/emulator.ts';

// `/connect?next=` is attacker-controlled (a link anyone can send). After connecting, the console follows it
// only to a same-origin path of one of its own screens; anything else lands on the bucket list. The page
// fixture fails the test on any uncaught error (a cross-origin pushState throws a SecurityError).

const hostile = [
  '/%09/evil.example/',
  '//evil.example',
  '/%5Cevil.example',
  'javascript:alert(document.domain)',
  'https://evil.example',
  '/%2e%2e//evil.example/buckets/pek3a/x',
];

for (const next of hostile) {
  test(`next=${next} lands on the bucket list, on the console's origin`, async ({ page, emulator, baseURL }) => {
    await page.goto(`/connect?next=${next}`);
    await connect(page, { endpoint: emulator.url });
    await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
    await expect(bucketsInZone(page, 'pek3a').getByRole('link', { name: 'demo-photos' })).toBeVisible();
    expect(page.url()).toBe(`${baseURL ?? ''}/`);
  });
}

test('a next of the console itself is followed after connecting', async ({ page, emulator, baseURL }) => {
  await page.goto(`/connect?next=${encodeURIComponent('/buckets/pek3a/demo-photos?prefix=photos/')}`);
  await connect(page, { endpoint: emulator.url });
  await expect(new ConsolePage(page).breadcrumbs).toContainText('photos');
  expect(page.url()).toBe(`${baseURL ?? ''}/buckets/pek3a/demo-photos?prefix=photos/`);
});
