import { readFile } from 'node:fs/promises';
import { getObject } from '../src/api/objects/read.ts';
import { ConsolePage } from './fixtures.ts';
import { connect, expect, test } from './support/emulator.ts';

// The details panel against the standalone emulator over real HTTP: previews load from pre-signed links to
// the endpoint itself (another origin than the console), Download is a pre-signed link with
// response-content-disposition=attachment, and the page stays on the console.

test('endpoint mode: image and PDF previews from the endpoint, text by a Range request, Download saves the exact bytes', async ({ page, emulator, api }) => {
  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto('/buckets/pek3a/demo-documents?prefix=samples/&object=samples/chart.png');
  const details = qs.details;
  await details.getByRole('tab', { name: 'Preview' }).click();
  const image = details.getByRole('img', { name: 'Preview of chart.png' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`)).toBe('240x160');
  const src = new URL((await image.getAttribute('src')) ?? '');
  expect(src.origin).toBe(emulator.url);
  // A short-lived link with the type forced to what the preview was chosen for.
  expect(Number(src.searchParams.get('expires')) - Date.now() / 1000).toBeLessThan(301);
  expect(src.searchParams.get('response-content-type')).toBe('image/png');

  emulator.clearRequests();
  await qs.row('notes.txt').getByRole('link').click();
  await expect(details.getByTestId('preview-text')).toContainText('- Download stays in the console');
  expect(emulator.requests.some((r) => r.method === 'GET' && r.url.startsWith('/demo-documents/samples/notes.txt') && r.headers.range === 'bytes=0-262143' && r.status === 206)).toBe(true);

  await qs.row('summary.pdf').getByRole('link').click();
  // A PDF is read from the endpoint (at most its first 20 MiB) and drawn by the console, never framed.
  await expect(details.getByRole('figure', { name: /^Page 1 of \d+ of summary\.pdf$/ })).toHaveAttribute('data-state', 'drawn');
  await expect(details.locator('iframe, object, embed')).toHaveCount(0);
  expect(emulator.requests.some((r) => r.method === 'GET' && r.url.startsWith('/demo-documents/samples/summary.pdf') && r.headers.range === 'bytes=0-20971519' && r.status === 206)).toBe(true);

  const before = page.url();
  const [download] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: 'Download summary.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('summary.pdf');
  expect(new URL(download.url()).searchParams.get('response-content-disposition')).toContain('attachment');
  const saved = await readFile((await download.path()) ?? '');
  const stored = await getObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'samples/summary.pdf' });
  expect(saved.equals(Buffer.from(await stored.body.arrayBuffer()))).toBe(true);
  expect(page.url()).toBe(before);
  await expect(details.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
});
