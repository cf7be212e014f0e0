import type { Page } from '@playwright/test';
import { putObject } from '../src/api/objects/write.ts';
import { endpointBackend } from './metadata-backend.ts';
import { expect, test } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// The object table's actions in endpoint mode, over real HTTP against the standalone emulator: files dropped
// on the object list, the row menu's Copy and the context menu's Delete with their toasts, checked with raw signed requests.

function row(page: Page, name: string) {
  return page.getByRole('grid').locator('[role="rowgroup"].object-list__body [role="row"]').filter({ has: page.getByRole('link', { name, exact: true }) });
}

test('drop on the object list, copy from the "…" menu and delete from the context menu, over HTTP', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  await backend.put('docs/source.txt', { standard: { 'content-type': 'text/plain' }, custom: { owner: 'table' } }, 'source body');
  await backend.open(backend.path('prefix=docs/'));
  const grid = page.getByRole('grid');
  await expect(row(page, 'source.txt')).toBeVisible();

  await dropFiles(grid, [
    { path: 'one.txt', text: 'one\n', type: 'text/plain' },
    { path: 'two.txt', text: 'two\n', type: 'text/plain' },
    { path: 'three.txt', text: 'three\n', type: 'text/plain' },
    { path: 'nested/deeper/four.txt', text: 'four\n', type: 'text/plain' },
  ]);
  await expect(page.getByTestId('toast').filter({ hasText: `Uploaded 4 files to ${backend.bucket}/docs/.` })).toBeVisible();
  for (const name of ['one.txt', 'two.txt', 'three.txt', 'nested/']) await expect(row(page, name)).toBeVisible();
  expect(await backend.head('docs/nested/deeper/four.txt')).not.toBeNull();

  await row(page, 'source.txt').getByRole('button', { name: 'Actions for source.txt' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Copy…' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy docs/source.txt' });
  await copy.getByRole('button', { name: 'Copy', exact: true }).click();
  const copied = page.getByTestId('toast').filter({ hasText: `Copied to ${backend.bucket}/docs/source-copy.txt.` });
  await expect(copied).toBeVisible();
  await expect(copied).not.toContainText('Request ID');
  await copy.getByRole('button', { name: 'Close' }).last().click();
  expect(await backend.head('docs/source-copy.txt')).toEqual({ standard: { 'content-type': 'text/plain' }, custom: { owner: 'table' } });

  await row(page, 'source-copy.txt').click({ button: 'right' });
  await page.getByRole('menu').getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete docs/source-copy.txt' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: `Deleted ${backend.bucket}/docs/source-copy.txt.` })).not.toContainText('Request ID');
  await expect(row(page, 'source-copy.txt')).toHaveCount(0);
  expect(await backend.head('docs/source-copy.txt')).toBeNull();
  expect(await backend.head('docs/source.txt')).not.toBeNull();
});

test('select all matching and Count all page through a prefix over HTTP (the server pages by 100)', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const body = new TextEncoder().encode('xy');
  await Promise.all(Array.from({ length: 250 }, (_, i) => putObject(api, { zone: backend.zone, bucket: backend.bucket, key: `many/k-${String(i).padStart(3, '0')}`, body })));
  await backend.open(backend.path('prefix=many/'));
  await expect(row(page, 'k-000')).toBeVisible();
  await expect(page.getByRole('grid')).toHaveAttribute('data-has-more', 'true');

  await page.getByRole('button', { name: 'Count all' }).click();
  await expect(page.getByTestId('count-all')).toHaveText(`250 objects under ${backend.bucket}/many/ · 500 B in total`);

  const bar = page.getByRole('region', { name: 'Selection' });
  await page.getByRole('checkbox', { name: /^Select all \d+ loaded/ }).check();
  await bar.getByRole('button', { name: 'Select all matching objects' }).click();
  await expect(bar).toContainText('All 250 matching objects selected.');
  await expect(bar.getByTestId('selection-status')).toHaveText(/^250 objects selected · 500\sB$/);
});
