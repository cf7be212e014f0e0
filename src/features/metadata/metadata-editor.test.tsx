// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryHistory, RouterProvider, Routes } from '../../lib/router.tsx';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { putBucketCors } from '../../api/cors/operations.ts';
import type { PutBucketCorsBody } from '../../api/cors/schemas.ts';
import { headObject } from '../../api/objects/read.ts';
import { copyObject, putObject } from '../../api/objects/write.ts';
import { SessionContext, type SessionApi } from '../../hooks/session.ts';
import { ensureLocale, I18nProvider, type Locale } from '../../i18n/i18n.tsx';
import { MetadataEditorLauncher } from './metadata-editor.tsx';

// jsdom has <dialog> but not its modal methods; the console's Dialog only needs open/close.
HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
  this.removeAttribute('open');
  this.dispatchEvent(new Event('close'));
};

// In vitest's jsdom environment TextEncoder returns Node-realm Uint8Arrays, which fail the store's
// `instanceof Uint8Array` check (mocks/store/body.ts); copying into this realm's Uint8Array keeps the
// emulator's bodies intact. The emulator is imported only after the patch.
const NodeTextEncoder = globalThis.TextEncoder;
class RealmTextEncoder extends NodeTextEncoder {
  override encode(input?: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(super.encode(input));
  }
}
globalThis.TextEncoder = RealmTextEncoder;
const { setupEmulatorServer } = await import('../../../mocks/node.ts');

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const { server } = await setupEmulatorServer({ seed: 'demo', now });
const EXPOSE_ALL: PutBucketCorsBody = { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'] }] };
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' });
  // jsdom's page origin differs from the API host: with `*` exposed the browser sees every x-qs-meta-* key.
  await putBucketCors(api, { zone: 'pek3a', bucket }, EXPOSE_ALL);
});
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const api = createClient(connection, { now });
const bucket = 'demo-documents';
let key = '';
let counter = 0;

beforeEach(async () => {
  counter += 1;
  key = `editor-ui/object-${counter}.txt`;
  await putObject(api, {
    zone: 'pek3a',
    bucket,
    key,
    body: 'content',
    metadata: {
      standard: { 'content-type': 'text/plain', 'cache-control': 'private', 'content-disposition': 'inline', expires: 'Wed, 31 Dec 2031 23:59:59 GMT' },
      custom: { author: 'Alice', city: '%E5%8C%97%E4%BA%AC' },
    },
  });
  offsetMs += 2000;
});

function renderEditor(locale: Locale = 'en') {
  const session: SessionApi = {
    session: { mode: 'endpoint', connection, zones: ['pek3a'] },
    demoAvailable: false,
    serve: undefined,
    connect: () => undefined,
    disconnect: () => undefined,
    switchToDemo: () => undefined,
    switchToEndpoint: () => undefined,
  };
  const history = createMemoryHistory(`/buckets/pek3a/${bucket}?object=${encodeURIComponent(key)}&edit=1`);
  const routes = [{ path: '/buckets/:zone/:bucket', Component: () => <MetadataEditorLauncher zone="pek3a" bucket={bucket} objectKey={key} /> }];
  render(
    <I18nProvider locale={locale}>
      <SessionContext value={session}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RouterProvider history={history}>
            <Routes routes={routes} />
          </RouterProvider>
        </QueryClientProvider>
      </SessionContext>
    </I18nProvider>,
  );
  return history;
}

const change = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

/** Save stays disabled until the bucket's CORS rule is checked (visibility.ts); a click before that is lost. */
async function clickSave(dialog: HTMLElement): Promise<void> {
  const save = await within(dialog).findByRole('button', { name: 'Save' });
  await waitFor(() => expect(save.hasAttribute('disabled')).toBe(false));
  fireEvent.click(save);
}

describe('metadata editor', () => {
  it('opens from the URL with the loaded values, custom values shown decoded beside the stored form', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog', { name: `Edit metadata of ${key}` });
    const cacheControl = await within(dialog).findByLabelText('Cache-Control');
    expect((cacheControl as HTMLInputElement).value).toBe('private');
    expect((within(dialog).getByLabelText('Content-Type') as HTMLInputElement).value).toBe('text/plain');
    const rows = within(dialog).getAllByTestId('metadata-row');
    expect(rows.map((row) => (within(row).getByLabelText(/^Key \d$/) as HTMLInputElement).value)).toEqual(['author', 'city']);
    expect((within(rows[1]!).getByLabelText('Value 2') as HTMLInputElement).value).toBe('北京');
    expect(within(rows[1]!).getByTestId('stored-value').textContent).toBe('%E5%8C%97%E4%BA%AC');
  });

  it('shows byte counters and plain-words errors at the field for 511/512/513-byte keys, the 2 KB total and a non-printable value', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    const keyInput = within(dialog).getByLabelText('Key 3');
    for (const length of [511, 512]) {
      change(keyInput, 'k'.repeat(length));
      expect(await within(dialog).findByText(`${length} / 512 bytes`)).toBeTruthy();
      expect(keyInput.getAttribute('aria-invalid')).toBeNull();
    }
    change(keyInput, 'k'.repeat(513));
    expect(await within(dialog).findByText('This key is 513 bytes long; at most 512 bytes are allowed.')).toBeTruthy();
    expect(keyInput.getAttribute('aria-invalid')).toBe('true');

    change(keyInput, 'big');
    const value = within(dialog).getByLabelText('Value 3');
    // author(6)+Alice(5) + city(4)+18 = 33; big(3) + 2013 = 2049.
    change(value, 'x'.repeat(2013));
    expect(await within(dialog).findByText('Keys and values together take 2,049 bytes; at most 2,048 bytes are allowed.')).toBeTruthy();
    change(value, 'x'.repeat(2012));
    await waitFor(() => expect(within(dialog).getByTestId('total-bytes').textContent).toBe('Total: 2,048 / 2,048 bytes'));
    expect(within(dialog).queryByText(/at most 2,048 bytes are allowed/)).toBeNull();

    change(value, 'café');
    fireEvent.change(within(dialog).getByLabelText('Encoding of value 3'), { target: { value: 'plain' } });
    expect(await within(dialog).findByText(/contains characters outside printable ASCII/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Encoding of value 3'), { target: { value: 'rfc2047-q' } });
    await waitFor(() => expect(within(dialog).queryByText(/contains characters outside printable ASCII/)).toBeNull());
    const row = within(dialog).getAllByTestId('metadata-row')[2]!;
    expect(within(row).getByTestId('stored-value').textContent).toBe('=?UTF-8?Q?caf=C3=A9?=');
    expect(within(row).getByTestId('decoded-value').textContent).toBe('café');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
    await waitFor(() => expect(within(dialog).getByTestId('metadata-diff')).toBeTruthy());
  });

  it('reviews the diff, saves the full set (untouched headers survive), and undoes the save', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    change(await within(dialog).findByLabelText('Cache-Control'), 'no-cache');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove key 1' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
    const diff = await within(dialog).findByTestId('metadata-diff');
    expect([...diff.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-kind') + ' ' + tr.querySelector('th')?.textContent)).toEqual([
      'changed cache-control',
      'removed x-qs-meta-author',
    ]);
    await clickSave(dialog);
    expect(await within(dialog).findByText('Saved')).toBeTruthy();
    const after = await headObject(api, { zone: 'pek3a', bucket, key });
    expect(after.metadata).toEqual({
      standard: { 'content-type': 'text/plain', 'cache-control': 'no-cache', 'content-disposition': 'inline', expires: 'Wed, 31 Dec 2031 23:59:59 GMT' },
      custom: { city: '%E5%8C%97%E4%BA%AC' },
    });
    offsetMs += 2000;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(await within(dialog).findByText('Restored')).toBeTruthy();
    expect(within(dialog).queryByText('Saved')).toBeNull();
    expect((await headObject(api, { zone: 'pek3a', bucket, key })).metadata.custom).toEqual({ author: 'Alice', city: '%E5%8C%97%E4%BA%AC' });
  });

  it('builds Content-Disposition from a non-ASCII file name and Expires from the date picker, and saves both', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    const disposition = (await within(dialog).findByLabelText('Content-Disposition')) as HTMLInputElement;
    const useName = within(dialog).getByRole('button', { name: 'Use this file name' });
    expect((useName as HTMLButtonElement).disabled).toBe(true);
    change(within(dialog).getByLabelText('File name'), '季度 "报告".pdf');
    change(within(dialog).getByLabelText('Disposition'), 'attachment');
    fireEvent.click(useName);
    const expected = `attachment; filename="__ ____.pdf"; filename*=UTF-8''%E5%AD%A3%E5%BA%A6%20%22%E6%8A%A5%E5%91%8A%22.pdf`;
    await waitFor(() => expect(disposition.value).toBe(expected));

    // The picker takes local time; the header gets the same instant as an HTTP date in GMT.
    change(within(dialog).getByLabelText('Pick date and time (your local time)'), '2030-06-15T08:30:00');
    const expires = within(dialog).getByLabelText('Expires') as HTMLInputElement;
    const instant = new Date(2030, 5, 15, 8, 30, 0);
    await waitFor(() => expect(expires.value).toBe(instant.toUTCString()));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
    await within(dialog).findByTestId('metadata-diff');
    await clickSave(dialog);
    expect(await within(dialog).findByText('Saved')).toBeTruthy();
    const after = await headObject(api, { zone: 'pek3a', bucket, key });
    expect(after.metadata.standard).toEqual({ 'content-type': 'text/plain', 'cache-control': 'private', 'content-disposition': expected, expires: instant.toUTCString() });
  });

  it('detects a change by another client, shows both versions, and re-applies my edits on theirs', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    change(await within(dialog).findByLabelText('Cache-Control'), 'no-store');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
    await within(dialog).findByTestId('metadata-diff');
    // Another client changes the object between opening and saving.
    const ref = { zone: 'pek3a', bucket, key };
    const current = await headObject(api, ref);
    await copyObject(api, { ...ref, source: ref, directive: 'REPLACE', metadata: { ...current.metadata, custom: { ...current.metadata.custom, reviewer: 'Bob' } } });
    await clickSave(dialog);
    const conflict = await within(dialog).findByTestId('metadata-conflict');
    expect(within(conflict).getByRole('alert').textContent).toContain('The object changed after you opened the editor');
    expect(within(conflict).getByTestId('conflict-theirs').textContent).toContain('x-qs-meta-reviewer');
    expect(within(conflict).getByTestId('conflict-yours').textContent).toContain('no-store');
    expect((await headObject(api, ref)).metadata.standard['cache-control']).toBe('private');

    fireEvent.click(within(conflict).getByRole('button', { name: 'Re-apply my edits on their version' }));
    await clickSave(dialog);
    // Their version was written this second: the save waits for the next one (Last-Modified resolution).
    expect(await within(dialog).findByText('Saved', {}, { timeout: 5000 })).toBeTruthy();
    const after = await headObject(api, ref);
    expect(after.metadata.standard['cache-control']).toBe('no-store');
    expect(after.metadata.custom).toEqual({ author: 'Alice', city: '%E5%8C%97%E4%BA%AC', reviewer: 'Bob' });
  });

  it('blocks a save while the bucket CORS rule hides standard headers, naming each; no acknowledgement is offered', async () => {
    await putBucketCors(api, { zone: 'pek3a', bucket }, { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET', 'PUT', 'HEAD'] as const, allowed_headers: ['*'], expose_headers: ['ETag', 'x-qs-meta-author'] }] } satisfies PutBucketCorsBody);
    try {
      renderEditor();
      const dialog = await screen.findByRole('dialog');
      change(await within(dialog).findByLabelText('Cache-Control'), 'no-cache');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
      await within(dialog).findByTestId('metadata-diff');
      const warnings = await within(dialog).findAllByTestId('visibility-warning');
      const warning = warnings[warnings.length - 1];
      if (!warning) throw new Error('no warning');
      const hidden = within(warning).getByRole('list', { name: 'Headers hidden by the bucket’s CORS rule' });
      expect(within(hidden).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        // Node's fetch does not filter headers as a browser does, so what the object has is readable here;
        // the e2e journeys check the browser's side.
        'content-encoding',
        'x-qs-meta-* (any custom key other than x-qs-meta-author)',
      ]);
      expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
      expect(within(warning).queryByRole('checkbox')).toBeNull();
    } finally {
      await putBucketCors(api, { zone: 'pek3a', bucket }, EXPOSE_ALL);
    }
  });

  it('hidden custom keys alone can be acknowledged, by naming the keys the console sees', async () => {
    await putBucketCors(api, { zone: 'pek3a', bucket }, { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET', 'PUT', 'HEAD'] as const, allowed_headers: ['*'], expose_headers: ['ETag', 'Content-Disposition', 'Content-Encoding', 'x-qs-meta-author'] }] } satisfies PutBucketCorsBody);
    try {
      renderEditor();
      const dialog = await screen.findByRole('dialog');
      change(await within(dialog).findByLabelText('Cache-Control'), 'no-cache');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
      await within(dialog).findByTestId('metadata-diff');
      const save = within(dialog).getByRole('button', { name: 'Save' });
      expect(save.hasAttribute('disabled')).toBe(true);
      fireEvent.click(within(dialog).getByLabelText('I know this object has no custom metadata keys other than x-qs-meta-author; save anyway'));
      expect(save.hasAttribute('disabled')).toBe(false);
    } finally {
      await putBucketCors(api, { zone: 'pek3a', bucket }, EXPOSE_ALL);
    }
  });

  it('speaks Chinese: field errors are translated by rule', async () => {
    await ensureLocale('zh-CN');
    renderEditor('zh-CN');
    const dialog = await screen.findByRole('dialog', { name: `编辑 ${key} 的元数据` });
    change(await within(dialog).findByLabelText('键 1'), 'k'.repeat(513));
    expect(await within(dialog).findByText('此键长 513 字节，最多允许 512 字节。')).toBeTruthy();
  });
});

describe('the compact form and its unsaved-changes guard', () => {
  it('"Add key" shows no error before anything is typed; trying to review shows it', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(within(dialog).getByLabelText('Key 3')).toBeTruthy();
    expect(within(dialog).queryByText('Enter a key.')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review changes' }));
    expect(await within(dialog).findByText('Enter a key.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Key 3').getAttribute('aria-invalid')).toBe('true');
  });

  it('offers an encoding only when the value needs one: none for ASCII, RFC 2047 B for Chinese, percent for mostly-ASCII', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    change(within(dialog).getByLabelText('Key 3'), 'writer');
    const value = within(dialog).getByLabelText('Value 3');
    change(value, 'Bob');
    expect(within(dialog).queryByLabelText('Encoding of value 3')).toBeNull();
    change(value, '测试作者');
    const select = (await within(dialog).findByLabelText('Encoding of value 3')) as HTMLSelectElement;
    expect(select.value).toBe('rfc2047-b');
    const row = within(dialog).getAllByTestId('metadata-row')[2]!;
    expect(within(row).getByTestId('stored-value').textContent).toBe('=?UTF-8?B?5rWL6K+V5L2c6ICF?=');
    expect(within(row).getByTestId('decoded-value').textContent).toBe('测试作者');
    change(value, 'café au lait');
    await waitFor(() => expect((within(dialog).getByLabelText('Encoding of value 3') as HTMLSelectElement).value).toBe('percent'));
    // A choice the user made sticks.
    change(within(dialog).getByLabelText('Encoding of value 3'), 'rfc2047-q');
    change(value, '测试');
    await waitFor(() => expect(within(row).getByTestId('stored-value').textContent).toBe('=?UTF-8?Q?=E6=B5=8B=E8=AF=95?='));
  });

  it('pasting many "key: value" lines into a key field adds them as rows (an existing key gets the new value)', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    const lines = ['x-qs-meta-a1: one', 'a2: two', 'author: Carol', 'no colon here', ''].join('\n');
    fireEvent.paste(within(dialog).getByLabelText('Key 3'), { clipboardData: { getData: () => lines } });
    await waitFor(() => expect(within(dialog).getAllByTestId('metadata-row')).toHaveLength(4));
    const keys = within(dialog).getAllByTestId('metadata-row').map((row) => (within(row).getByLabelText(/^Key \d$/) as HTMLInputElement).value);
    expect(keys).toEqual(['author', 'city', 'a1', 'a2']);
    expect((within(dialog).getByLabelText('Value 1') as HTMLInputElement).value).toBe('Carol');
    expect(within(dialog).getByText('3 lines added as rows. 1 line without “key: value” was skipped.')).toBeTruthy();
  });

  it('Cancel without edits closes at once; with edits it asks, "Keep editing" keeps them, "Discard changes" closes', async () => {
    const history = renderEditor();
    let dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(history.location().search).not.toMatch(/edit=1/));
    expect(screen.queryByTestId('unsaved-confirm')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit metadata' }));
    dialog = await screen.findByRole('dialog');
    change(await within(dialog).findByLabelText('Cache-Control'), 'no-store');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const confirm = await within(dialog).findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    expect(history.location().search).toMatch(/edit=1/);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).queryByRole('alertdialog')).toBeNull();
    expect((within(dialog).getByLabelText('Cache-Control') as HTMLInputElement).value).toBe('no-store');

    // The dialog's own Close button and in-app navigation ask the same way.
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Keep editing' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(history.location().search).not.toMatch(/edit=1/));
  });

  it('Esc with edits asks instead of closing', async () => {
    const history = renderEditor();
    const dialog = await screen.findByRole('dialog');
    change(await within(dialog).findByLabelText('Cache-Control'), 'no-store');
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(await within(dialog).findByRole('alertdialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    expect(history.location().search).toMatch(/edit=1/);
  });
});

describe('keyboard: removing a row', () => {
  it('moves focus to the next row’s remove button, and to "Add key" after the last row', async () => {
    renderEditor();
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('Key 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove key 1' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove key 1'));
    expect((within(dialog).getByLabelText('Key 1') as HTMLInputElement).value).toBe('city');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove key 1' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Add key'));
  });
});
