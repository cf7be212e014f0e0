import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { putBucketCors } from '../src/api/cors/operations.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { endpointBackend, type Backend } from './metadata-backend.ts';
import { connect, expect, test, type EmulatorHandle } from './support/emulator.ts';

// Metadata saves in endpoint mode against the standalone emulator, with real CORS in Chromium: the browser
// hides every header the bucket's rule does not expose, exactly as against the real service. Every result
// is checked with a signed HEAD over HTTP from outside the browser.

const DOWNLOAD_ME: ObjectMetadata = {
  standard: {
    'content-type': 'text/plain',
    'content-disposition': 'attachment; filename="download-me.txt"',
    'content-encoding': 'identity',
    'cache-control': 'private, max-age=600',
  },
  custom: {},
};

function uniquePrefix(name: string): string {
  return `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}/`;
}

function objectPath(backend: Backend, key: string, edit = false): string {
  const prefix = key.slice(0, key.lastIndexOf('/') + 1);
  return backend.path(`prefix=${encodeURIComponent(prefix)}&object=${encodeURIComponent(key)}${edit ? '&edit=1' : ''}`);
}

async function exposeOnly(backend: Backend, api: Parameters<typeof putBucketCors>[0], pageOrigin: string, expose: string[]): Promise<void> {
  await putBucketCors(api, { zone: backend.zone, bucket: backend.bucket }, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: expose, max_age_seconds: 0 }],
  });
}

function editor(page: Page, key: string) {
  return page.getByRole('dialog', { name: `Edit metadata of ${key}` });
}

/**
 * Leaves the editor the way a user who gives up would: Close, and "Discard changes" when it asks (it does
 * while edits are unsaved; otherwise a reload or the next page would be held by the browser's own prompt).
 */
async function leaveEditor(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  const confirm = dialog.getByTestId('unsaved-confirm');
  await expect(async () => {
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Discard changes' }).click();
    await expect(dialog).toBeHidden({ timeout: 1000 });
  }).toPass();
}

test('the user report: a rule exposing only ETag hides Content-Disposition and Content-Encoding; the save is blocked naming them, the one-click rule makes everything readable, and the save keeps both', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  await exposeOnly(backend, api, pageOrigin, ['ETag', 'x-qs-request-id']);
  const key = `${uniquePrefix('docs')}download-me.txt`;
  await backend.put(key, DOWNLOAD_ME);

  await backend.open(objectPath(backend, key));
  const details = page.getByTestId('object-details');
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details.getByRole('row', { name: /content-disposition/ })).toContainText('hidden by the bucket’s CORS rule');
  await expect(details.getByRole('row', { name: /content-encoding/ })).toContainText('hidden by the bucket’s CORS rule');
  await expect(details.getByRole('row', { name: /cache-control/ })).toContainText('private, max-age=600');
  await expect(details.getByTestId('custom-hidden')).toContainText('Other custom keys may exist');

  await details.getByRole('button', { name: 'Edit metadata' }).click();
  const dialog = editor(page, key);
  // The empty field of a hidden header says why it is empty.
  await expect(dialog.getByLabel('Content-Disposition', { exact: true })).toHaveAccessibleDescription(/^Hidden by the bucket’s CORS rule: the current value cannot be shown\./);
  await expect(dialog.getByLabel('Cache-Control', { exact: true })).not.toHaveAccessibleDescription(/Hidden/);
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  const warning = dialog.getByTestId('visibility-warning');
  const hidden = warning.getByRole('list', { name: 'Headers hidden by the bucket’s CORS rule' });
  await expect(hidden.getByRole('listitem')).toHaveText(['content-disposition', 'content-encoding', 'x-qs-meta-* (any custom key this object has)']);
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  // No acknowledgement can cover a hidden standard header.
  await expect(warning.getByRole('checkbox')).toHaveCount(0);
  expect(await backend.head(key)).toEqual(DOWNLOAD_ME);

  // One click: the console's rule (expose '*') is applied, the object is read again with every header.
  await warning.getByRole('button', { name: `Apply this rule to ${backend.bucket}` }).click();
  await expect(dialog.getByText('The object was read again with every header visible.', { exact: false })).toBeVisible();
  await expect(dialog.getByTestId('visibility-warning')).toHaveCount(0);
  await expect(dialog.getByTestId('guard-note')).toContainText('Last-Modified');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  expect(await backend.head(key)).toEqual({ ...DOWNLOAD_ME, standard: { ...DOWNLOAD_ME.standard, 'cache-control': 'no-cache' } });

  // In Chromium the rule the console wrote makes every header readable: the panel shows them all.
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(details.getByRole('row', { name: /content-disposition/ })).toContainText('attachment; filename="download-me.txt"');
  await expect(details.getByRole('row', { name: /content-encoding/ })).toContainText('identity');
  await expect(details.getByTestId('custom-hidden')).toHaveCount(0);
});

test('each header hidden in turn: the hidden header survives, or the save is blocked with it named', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const original: ObjectMetadata = { standard: { ...DOWNLOAD_ME.standard, expires: 'Wed, 31 Dec 2031 23:59:59 GMT' }, custom: { a: 'one' } };
  const everything = ['ETag', 'Content-Disposition', 'Content-Encoding', 'x-qs-meta-a', 'x-qs-request-id'];
  const cases: Array<{ hide: string; named?: string }> = [
    { hide: 'Content-Disposition', named: 'content-disposition' },
    { hide: 'Content-Encoding', named: 'content-encoding' },
    { hide: 'x-qs-meta-a', named: 'x-qs-meta-* (any custom key this object has)' },
    // ETag hidden: the guard falls back to Last-Modified and says so; custom keys other than "a" are
    // still invisible, so the user must vouch for them by name.
    { hide: 'ETag' },
  ];
  for (const { hide, named } of cases) {
    await exposeOnly(backend, api, pageOrigin, everything.filter((h) => h !== hide));
    const key = `${uniquePrefix(`hide-${hide.toLowerCase()}`)}doc.txt`;
    await backend.put(key, original);
    await backend.open(objectPath(backend, key, true));
    const dialog = editor(page, key);
    await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-store');
    await dialog.getByRole('button', { name: 'Review changes' }).click();
    await expect(dialog.getByTestId('metadata-diff')).toBeVisible();
    const save = dialog.getByRole('button', { name: 'Save' });
    if (named) {
      await expect(dialog.getByTestId('visibility-warning').getByRole('listitem').filter({ hasText: named })).toHaveCount(1);
      await expect(save).toBeDisabled();
      expect(await backend.head(key), `${hide} hidden: nothing written`).toEqual(original);
    } else {
      await dialog.getByLabel('I know this object has no custom metadata keys other than x-qs-meta-a; save anyway').check();
      await expect(dialog.getByTestId('guard-note')).toContainText('The ETag is hidden by the bucket’s CORS rule; the guard does not need it.');
      await save.click();
      await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
      expect(await backend.head(key), 'ETag hidden: saved with every header kept').toEqual({ ...original, standard: { ...original.standard, 'cache-control': 'no-store' } });
    }
    await leaveEditor(dialog);
  }
});

test('bulk edit and copy with REPLACE are blocked by a hiding rule too; nothing is written', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const prefix = uniquePrefix('bulk-hidden');
  const keys = [`${prefix}a.txt`, `${prefix}b.txt`];
  for (const key of keys) await backend.put(key, DOWNLOAD_ME);
  await exposeOnly(backend, api, pageOrigin, ['ETag', 'Content-Encoding', 'x-qs-request-id']);

  await backend.open(objectPath(backend, keys[0] ?? ''));
  const details = page.getByTestId('object-details');
  await details.getByRole('button', { name: 'Copy…' }).click();
  const copyDialog = page.getByRole('dialog', { name: `Copy ${keys[0] ?? ''}` });
  await copyDialog.getByLabel('Set new metadata for the copy').check();
  const copyWarning = copyDialog.getByTestId('visibility-warning');
  await expect(copyWarning.getByRole('listitem').filter({ hasText: 'content-disposition' })).toHaveCount(1);
  await copyDialog.getByLabel('Destination key').fill(`${prefix}copy.txt`);
  await copyDialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(copyWarning).toBeVisible();
  expect(await backend.head(`${prefix}copy.txt`)).toBeNull();
  await copyDialog.getByRole('button', { name: 'Cancel' }).click();
  // A typed destination and REPLACE are unsaved: Cancel asks before throwing them away.
  await copyDialog.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(copyDialog).toBeHidden();

  await backend.open(backend.path(`prefix=${encodeURIComponent(prefix)}`));
  for (const key of keys) await page.getByRole('grid').getByRole('checkbox', { name: `Select ${key.slice(prefix.length)}`, exact: true }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Edit metadata of 2 objects' }).click();
  const bulk = page.getByRole('dialog', { name: 'Edit metadata of 2 objects' });
  await expect(bulk.getByTestId('visibility-warning').getByRole('listitem').filter({ hasText: 'content-disposition' })).toHaveCount(1);
  await expect(bulk.getByRole('button', { name: 'Apply to 2 objects' })).toBeDisabled();
  for (const key of keys) expect(await backend.head(key)).toEqual(DOWNLOAD_ME);
});

test('grammar, prototype keys and control characters: Content-Encoding "a b" and Expires "tomorrow" are refused with reasons; __proto__ and a BEL round-trip and show', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = `${uniquePrefix('grammar')}doc.txt`;
  await backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: {} });
  await backend.open(objectPath(backend, key, true));
  const dialog = editor(page, key);
  const encoding = dialog.getByLabel('Content-Encoding', { exact: true });
  await encoding.fill('a b');
  await expect(dialog.getByText(/Content-Encoding must be a list of codings such as gzip/)).toBeVisible();
  await expect(encoding).toHaveAttribute('aria-invalid', 'true');
  await encoding.fill('gzip');
  await expect(encoding).not.toHaveAttribute('aria-invalid', 'true');
  await encoding.fill('');
  const expires = dialog.getByLabel('Expires', { exact: true });
  await expires.fill('tomorrow');
  await expect(dialog.getByText('Enter an HTTP date such as Wed, 31 Dec 2031 23:59:59 GMT, or pick one.')).toBeVisible();
  await expires.fill('');

  await dialog.getByRole('button', { name: 'Add key' }).click();
  await dialog.getByLabel('Key 1', { exact: true }).fill('__proto__');
  await dialog.getByLabel('Value 1', { exact: true }).fill('kept');
  await dialog.getByRole('button', { name: 'Add key' }).click();
  await dialog.getByLabel('Key 2', { exact: true }).fill('bell');
  await dialog.getByLabel('Value 2', { exact: true }).fill('ring\u0007here');
  const bellRow = dialog.getByTestId('metadata-row').nth(1);
  await expect(bellRow.getByTestId('stored-value')).toHaveText('ring%07here');
  await expect(bellRow.getByTestId('decoded-value')).toHaveText('ring␇here');

  await dialog.getByRole('button', { name: 'Review changes' }).click();
  const diff = dialog.getByTestId('metadata-diff');
  await expect(diff.getByRole('row', { name: /x-qs-meta-__proto__/ })).toContainText('kept');
  await expect(diff.getByRole('row', { name: /x-qs-meta-bell/ })).toContainText('ring␇here');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain' }, custom: JSON.parse('{"__proto__":"kept","bell":"ring%07here"}') as Record<string, string> });

  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await page.getByTestId('object-details').getByRole('tab', { name: 'Metadata' }).click();
  const custom = page.getByTestId('object-details').getByTestId('custom-metadata');
  await expect(custom.getByRole('row', { name: /x-qs-meta-__proto__/ })).toContainText('kept');
  await expect(custom.getByRole('row', { name: /x-qs-meta-bell/ })).toContainText('ring␇here');
});

test('an object whose Content-Encoding the browser refuses is diagnosed as such (not CORS) and repaired by a save', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = `${uniquePrefix('bricked')}doc.txt`;
  // Another tool stored a Content-Encoding Chromium cannot decode.
  await backend.put(key, { standard: { 'content-type': 'text/plain', 'content-encoding': 'a b' }, custom: { owner: 'ops' } });
  await backend.open(objectPath(backend, key));
  const details = page.getByTestId('object-details');
  await expect(details.getByTestId('refused-notice')).toContainText('this is not a CORS problem');
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details.getByRole('row', { name: /content-encoding/ })).toContainText('unreadable: the browser refuses the stored value');
  await details.getByRole('button', { name: 'Edit metadata' }).click();
  const dialog = editor(page, key);
  await expect(dialog.getByTestId('refused-notice')).toBeVisible();
  await expect(dialog.getByLabel('Content-Encoding', { exact: true })).toHaveAccessibleDescription(/^unreadable: the browser refuses the stored value/);
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain', 'cache-control': 'no-cache' }, custom: { owner: 'ops' } });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(details.getByTestId('refused-notice')).toHaveCount(0);
  await expect(details.getByRole('row', { name: /cache-control/ })).toContainText('no-cache');
});

test('a refused Content-Encoding: Preview shows the stored bytes and names it; clearing the field alone repairs it, as the notice says', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = `${uniquePrefix('bricked-one-step')}doc.txt`;
  await backend.put(key, { standard: { 'content-type': 'text/plain', 'content-encoding': 'a b' }, custom: {} });
  await backend.open(objectPath(backend, key));
  const details = page.getByTestId('object-details');
  await expect(details.getByTestId('refused-notice')).toBeVisible();
  // The preview reads the bytes as stored (the header overridden) and says why, never a CORS diagnosis.
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-stored')).toContainText('Its stored Content-Encoding is one browsers refuse');
  await expect(details.getByTestId('preview-text')).not.toBeEmpty();
  await expect(details.getByRole('tabpanel', { name: 'Preview' }).getByText(/CORS/)).toHaveCount(0);

  await details.getByRole('tab', { name: 'Metadata' }).click();
  await details.getByRole('button', { name: 'Edit metadata' }).click();
  const dialog = editor(page, key);
  await expect(dialog.getByTestId('refused-notice')).toContainText('empty removes it');
  await dialog.getByLabel('Content-Encoding', { exact: true }).fill('');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await expect(dialog.getByText('Nothing changed yet.')).toHaveCount(0);
  const row = dialog.getByTestId('metadata-diff').getByRole('row', { name: /content-encoding/ });
  await expect(row).toContainText('unreadable: the browser refuses the stored value');
  await expect(row).toHaveAttribute('data-kind', 'removed');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain' }, custom: {} });
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(details.getByTestId('refused-notice')).toHaveCount(0);
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-stored')).toHaveCount(0);
  await expect(details.getByTestId('preview-text')).not.toBeEmpty();
});

test('undo after a reload restores the exact before-image', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = `${uniquePrefix('undo-reload')}doc.txt`;
  const before: ObjectMetadata = { standard: { ...DOWNLOAD_ME.standard, expires: 'Wed, 31 Dec 2031 23:59:59 GMT' }, custom: { a: 'one', b: '%E4%B8%AD' } };
  await backend.put(key, before);
  await backend.open(objectPath(backend, key, true));
  const dialog = editor(page, key);
  await dialog.getByLabel('Content-Disposition', { exact: true }).fill('inline');
  await dialog.getByRole('button', { name: 'Remove key 1' }).click();
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
  expect((await backend.head(key))?.custom).toEqual({ b: '%E4%B8%AD' });

  await page.reload();
  const details = page.getByTestId('object-details');
  await expect(details.getByRole('row', { name: /content-disposition/ })).toContainText('inline');
  await page.keyboard.press('Escape');
  await backend.open(objectPath(backend, key));
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await details.getByRole('button', { name: 'Undo last save' }).click();
  await expect(details.getByText('Restored', { exact: true })).toBeVisible();
  expect(await backend.head(key)).toEqual(before);
  await expect(details.getByRole('button', { name: 'Undo last save' })).toHaveCount(0);
});

async function connectedTab(page: Page, emulator: EmulatorHandle): Promise<void> {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: 'pek3a', remember: true });
  await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
}

test('two tabs save different edits to one object at the same moment (10 rounds): never both "saved" with an edit missing', async ({ page, context, emulator, api, pageOrigin }) => {
  test.setTimeout(180_000);
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  await backend.open(backend.path());
  const other = await context.newPage();
  await connectedTab(other, emulator);
  for (let round = 0; round < 10; round += 1) {
    const key = `${uniquePrefix(`race-${round}`)}doc.txt`;
    await backend.put(key, { standard: { 'content-type': 'text/plain' }, custom: {} });
    const tabs = [page, other];
    for (const [index, tab] of tabs.entries()) {
      await tab.goto(objectPath(backend, key, true));
      const dialog = editor(tab, key);
      await dialog.getByRole('button', { name: 'Add key' }).click();
      await dialog.getByLabel('Key 1', { exact: true }).fill(`tab-${index}`);
      await dialog.getByLabel('Value 1', { exact: true }).fill('1');
      await dialog.getByRole('button', { name: 'Review changes' }).click();
      await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
    }
    await Promise.all(tabs.map((tab) => editor(tab, key).getByRole('button', { name: 'Save' }).click()));
    const outcomes = await Promise.all(tabs.map(async (tab) => {
      const dialog = editor(tab, key);
      const saved = dialog.getByText('Saved', { exact: true });
      const conflict = dialog.getByTestId('metadata-conflict');
      await expect(saved.or(conflict)).toBeVisible({ timeout: 15_000 });
      return (await saved.count()) > 0 ? 'saved' : 'conflict';
    }));
    const final = (await backend.head(key))?.custom ?? {};
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome === 'saved') expect(final[`tab-${index}`], `round ${round}: tab ${index} said saved`).toBe('1');
    }
    expect(outcomes, `round ${round}`).toContain('saved');
    for (const tab of tabs) await leaveEditor(editor(tab, key));
  }
  await other.close();
});

test('zh-CN: the blocked save names the hidden headers in Chinese and the editor is axe-clean', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  await exposeOnly(backend, api, pageOrigin, ['ETag']);
  const key = `${uniquePrefix('zh')}doc.txt`;
  await backend.put(key, DOWNLOAD_ME);
  await backend.open(objectPath(backend, key, true));
  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
  const dialog = page.getByRole('dialog', { name: `编辑 ${key} 的元数据` });
  await expect(dialog.getByTestId('visibility-warning')).toContainText('已阻止保存');
  await expect(dialog.getByTestId('visibility-warning').getByRole('listitem').filter({ hasText: 'content-encoding' })).toHaveCount(1);
  const axe = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(axe.violations).toEqual([]);
});
