import { expect } from '@playwright/test';
import { shotTests } from './support/shots.ts';

shotTests('screens', async ({ page, shot }) => {

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Buckets', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'demo-documents' }).last()).toBeVisible();
  await shot('buckets');

  await page.goto('/buckets/pek3a/demo-documents?prefix=reports/');
  await expect(page.getByRole('grid', { name: /Objects in demo-documents\/reports\// })).toBeVisible();
  await expect(page.getByTestId('listing-status')).toBeVisible();
  await shot('objects');

  await page.getByRole('grid').getByRole('checkbox', { name: 'Select readme.md', exact: true }).click();
  await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
  await expect(page.getByTestId('selection-status')).toHaveText('1 object selected · 41 B');
  await shot('objects-selected');

  // The details panel, one shot per tab: an image with its preview, a pre-signed link made on Share.
  await page.goto(`/buckets/pek3a/demo-documents?prefix=samples/&object=${encodeURIComponent('samples/chart.png')}`);
  const details = page.getByRole('complementary', { name: 'Object details' });
  await expect(details.getByTestId('details-key')).toHaveText('samples/chart.png');
  await expect(details.getByRole('button', { name: 'Copy…' })).toBeVisible();
  await shot('details');
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details.getByRole('button', { name: 'Edit metadata' })).toBeVisible();
  await shot('details-metadata');
  await details.getByRole('tab', { name: 'Preview' }).click();
  const image = details.getByRole('img', { name: 'Preview of chart.png' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  await shot('details-preview');
  await details.getByRole('tab', { name: 'Share' }).click();
  await details.getByRole('button', { name: 'Create download link' }).click();
  await expect(details.getByTestId('share-url')).toBeVisible();
  await shot('details-share');

  // The metadata editor (compact table, an encoding offer, the pinned footer) and its side-by-side review.
  await page.goto(`/buckets/pek3a/demo-documents?prefix=reports/&object=${encodeURIComponent('reports/readme.md')}&edit=1`);
  const editor = page.getByRole('dialog', { name: /^Edit metadata of / });
  await expect(editor.getByTestId('metadata-row').first()).toBeVisible();
  await editor.getByLabel('Cache-Control', { exact: true }).fill('public, max-age=3600');
  await editor.getByRole('button', { name: 'Add key' }).click();
  const rows = await editor.getByTestId('metadata-row').count();
  await editor.getByLabel(`Key ${rows}`, { exact: true }).fill('reviewer');
  await editor.getByLabel(`Value ${rows}`, { exact: true }).fill('Zoë Šimić');
  await expect(editor.getByLabel(`Encoding of value ${rows}`)).toBeVisible();
  await shot('metadata-editor');
  await editor.getByRole('button', { name: 'Review changes' }).click();
  await expect(editor.getByTestId('metadata-diff')).toBeVisible();
  await shot('metadata-review');

  await page.goto('/buckets/pek3a/demo-documents');
  await expect(page.getByTestId('listing-status')).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Upload to demo-documents' })).toBeVisible();
  await shot('upload-drawer');
});
