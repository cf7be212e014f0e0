import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { shotTests } from './support/shots.ts';

// The Preview tab's notes on how a file was read: a PDF's first pages drawn by the console, JSON indented to a
// bounded depth, a gzip object shown decompressed, bytes that are not what their encoding says; in English
// and Chinese.

async function demoPut(page: Page, key: string, body: Uint8Array, headers: Record<string, string>): Promise<void> {
  const prepared = await createClient(DEMO_CONNECTION).prepare({ operation: 'PutObject', method: 'PUT', zone: 'pek3a', bucket: 'demo-documents', key, headers });
  const sent: Record<string, string> = {};
  prepared.headers.forEach((value, name) => {
    sent[name] = value;
  });
  const status = await page.evaluate(
    async ({ url, headers: h, base64 }) => (await fetch(url, { method: 'PUT', headers: h, body: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) })).status,
    { url: prepared.url.href, headers: sent, base64: Buffer.from(body).toString('base64') },
  );
  expect(status).toBe(201);
}

shotTests('previews', async ({ page, shot }) => {
  test.setTimeout(240_000);
  const text = (s: string) => new TextEncoder().encode(s);
  await page.goto('/buckets/pek3a/demo-documents?prefix=samples/');
  await expect(page.getByTestId('listing-status')).toBeVisible({ timeout: 30_000 });
  await demoPut(page, 'previews/deep.json', text(`${'{"level":'.repeat(40)}"bottom"${'}'.repeat(40)}`), { 'content-type': 'application/json' });
  await demoPut(page, 'previews/notes.txt.gz', new Uint8Array(gzipSync('Release notes\n\n- Stored compressed, shown decompressed\n')), { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
  await demoPut(page, 'previews/broken.txt', text('not gzip at all'), { 'content-type': 'text/plain', 'content-encoding': 'gzip' });

  // Chinese at the phone width only (the wide screen's sidebar check looks for its English name).
  const locales = page.viewportSize()?.width === 390 ? (['en', 'zh-CN'] as const) : (['en'] as const);
  for (const locale of locales) {
    const suffix = locale === 'en' ? '' : '-zh';
    if (locale === 'zh-CN') {
      await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    }
    const open = async (key: string) => {
      await page.goto(`/buckets/pek3a/demo-documents?prefix=${encodeURIComponent(key.slice(0, key.lastIndexOf('/') + 1))}&object=${encodeURIComponent(key)}`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const details = page.getByTestId('object-details');
      const tab = details.getByRole('tab').nth(2);
      await expect(async () => {
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
      }).toPass();
      return details;
    };
    let details = await open('samples/summary.pdf');
    await expect(details.locator('figure.preview__pdf-page').first()).toHaveAttribute('data-state', 'drawn');
    await shot(`preview-pdf${suffix}`);
    details = await open('previews/deep.json');
    await expect(details.getByTestId('preview-text')).toBeVisible();
    await shot(`preview-json-deep${suffix}`);
    details = await open('previews/notes.txt.gz');
    await expect(details.getByTestId('preview-text')).toContainText('Release notes');
    await shot(`preview-gzip${suffix}`);
    details = await open('previews/broken.txt');
    await expect(details.getByTestId('preview-undecodable')).toBeVisible();
    await shot(`preview-undecodable${suffix}`);
  }
});
