import { readFile } from 'node:fs/promises';
import { getResponse } from 'msw';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { demoLinkOnOrigin } from '../src/api/demo-link.ts';
import { getObjectUrl } from '../src/api/objects/read.ts';
import { createEmulator } from '../mocks/emulator.ts';
import { demoPutObject, expect, expectNoAxeViolations, test } from './fixtures.ts';

// The object details panel in demo mode: tabs by keyboard, previews through the browser's own viewers, a
// Download that stays in the console, names with bidi controls shown as code points.

/** The seeded bytes of a demo object, read from a fresh demo emulator in Node (not through the page). */
async function seededBytes(key: string): Promise<Buffer> {
  const emulator = await createEmulator({ seed: 'demo', domains: ['qingstor.invalid'], defaultZone: 'pek3a' });
  const url = await getObjectUrl(createClient(DEMO_CONNECTION), { zone: 'pek3a', bucket: 'demo-documents', key, expiresIn: 60 });
  const response = await getResponse(emulator.handlers, new Request(url));
  if (response?.status !== 200) throw new Error(`seed read of ${key}: ${response?.status}`);
  return Buffer.from(await response.arrayBuffer());
}

const samples = (key: string) => `/buckets/pek3a/demo-documents?prefix=samples/&object=${encodeURIComponent(`samples/${key}`)}`;

test('tabs: one tab stop, arrow keys, Home and End; each panel is labelled by its tab', async ({ page, consolePage }) => {
  await consolePage.open(samples('notes.txt'));
  const details = consolePage.details;
  const tabs = details.getByRole('tablist', { name: 'Object details sections' });
  await expect(tabs.getByRole('tab')).toHaveText(['Overview', 'Metadata', 'Preview', 'Share']);
  const overview = tabs.getByRole('tab', { name: 'Overview' });
  await expect(overview).toHaveAttribute('aria-selected', 'true');
  await expect(details.getByRole('tabpanel', { name: 'Overview' })).toContainText('82 B (82 bytes)');
  await overview.focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Metadata' })).toBeFocused();
  await expect(details.getByRole('tabpanel', { name: 'Metadata' }).getByRole('row', { name: /content-type/ })).toContainText('text/plain; charset=utf-8');
  await page.keyboard.press('End');
  await expect(tabs.getByRole('tab', { name: 'Share' })).toHaveAttribute('aria-selected', 'true');
  await expect(details.getByRole('tabpanel', { name: 'Share' }).getByRole('button', { name: 'Create download link' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('tab', { name: 'Share' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(overview).toBeFocused();
  // Only the selected tab is in the tab order.
  await expect(tabs.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  // Edit opens the existing metadata editor from the Metadata tab.
  await tabs.getByRole('tab', { name: 'Metadata' }).click();
  await details.getByRole('button', { name: 'Edit metadata' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit metadata of samples/notes.txt' })).toBeVisible();
});

test('preview of an image, a text file, JSON, CSV and a PDF; HTML is shown as its source, never rendered', async ({ page, consolePage }) => {
  await consolePage.open(samples('chart.png'));
  const details = consolePage.details;
  await details.getByRole('tab', { name: 'Preview' }).click();
  const image = details.getByRole('img', { name: 'Preview of chart.png' });
  await expect(image).toBeVisible();
  // Decoded by the browser: the real PNG arrived (served on the console's origin by the demo worker).
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`)).toBe('240x160');
  expect(new URL((await image.getAttribute('src')) ?? '').origin).toBe(new URL(page.url()).origin);
  await expect(details.getByText('240 × 160 pixels')).toBeVisible();
  await expectNoAxeViolations(page);

  // The tab stays on Preview while other objects are opened.
  await consolePage.row('notes.txt').getByRole('link').click();
  await expect(details.getByTestId('preview-text')).toHaveText('Release notes\n\n- Preview for images, PDF and text\n- Download stays in the console\n');
  await consolePage.row('settings.json').getByRole('link').click();
  await expect(details.getByText('JSON, formatted for reading.')).toBeVisible();
  await expect(details.getByTestId('preview-text')).toContainText('"languages": [\n    "en",');

  // A PDF's first page is drawn by the console (never a frame, never the browser's viewer), with Download beside it.
  await consolePage.row('summary.pdf').getByRole('link').click();
  await expect(details.getByRole('figure', { name: /^Page 1 of \d+ of summary\.pdf$/ })).toHaveAttribute('data-state', 'drawn');
  await expect(details.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(details.locator('iframe, object, embed')).toHaveCount(0);
  await expect(details.getByRole('button', { name: 'Download the PDF' })).toBeVisible();

  // Audio in the browser's own player: the WAV is decoded (its duration is known).
  await consolePage.row('tone.wav').getByRole('link').click();
  const audio = details.locator('audio[aria-label="Preview of tone.wav"]');
  await expect(audio).toBeVisible();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration)).toBe(0.25);
  await expectNoAxeViolations(page);

  await page.goto('/buckets/pek3a/demo-documents?prefix=data/&object=data/table.csv');
  await details.getByRole('tab', { name: 'Preview' }).click();
  const table = details.getByTestId('preview-table');
  await expect(table.getByRole('columnheader')).toHaveText(['id', 'name']);
  await expect(table.getByRole('row')).toHaveCount(3);

  await consolePage.row('page.html').getByRole('link').click();
  await expect(details.getByText('Shown as source text: markup is never rendered in the console.')).toBeVisible();
  await expect(details.getByTestId('preview-text')).toHaveText('<!doctype html><title>x</title><script>alert(1)</script>');
  await expect(details.locator('iframe')).toHaveCount(0);

  await consolePage.row('archive.tar.gz').getByRole('link').click();
  await expect(details.getByTestId('no-preview')).toHaveText('No preview for the type application/x-tar. Download it to open it.');
  await expect(details.getByRole('button', { name: 'Download archive.tar.gz' })).toBeVisible();
});

/**
 * In the page before its scripts: records the Range header of every fetch of a URL containing `part`. The
 * demo answers the console's fetches in the page (mocks/browser-fetch.ts), so they never reach the browser's
 * network where Playwright could see them; whatever `fetch` the page installs later is recorded too.
 */
function recordFetchRanges(part: string): void {
  const ranges: string[] = [];
  Object.assign(window, { recordedRanges: ranges });
  const recorder = (target: typeof fetch): typeof fetch => (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes(part)) ranges.push(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('range') ?? 'none');
    return target(input, init);
  };
  let current = window.fetch;
  Object.defineProperty(window, 'fetch', {
    configurable: true,
    get: () => recorder(current),
    set: (next: typeof fetch) => {
      current = next;
    },
  });
}

test('a big text file: only its first 256 KiB are read (a Range request) and the preview says so', async ({ page, consolePage }) => {
  await page.addInitScript(recordFetchRanges, '/samples/big.log');
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=samples/');
  await consolePage.waitForList();
  // 329,999 bytes of numbered lines.
  const lines = Array.from({ length: 30_000 }, (_, i) => `line ${String(i).padStart(5, '0')}`).join('\n');
  expect(lines.length).toBe(329_999);
  expect(await demoPutObject(page, 'demo-documents', 'samples/big.log', lines)).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await consolePage.row('big.log').getByRole('link').click();
  await consolePage.details.getByRole('tab', { name: 'Preview' }).click();
  await expect(consolePage.details.getByText(/^Showing the first 256(\.0)?\sKiB of 322(\.\d)?\sKiB\.$/)).toBeVisible();
  const text = (await consolePage.details.getByTestId('preview-text').textContent()) ?? '';
  expect(text.length).toBe(256 * 1024);
  expect(text.startsWith('line 00000\nline 00001')).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { recordedRanges: string[] }).recordedRanges)).toContain('bytes=0-262143');
});

test('a hostile SVG is shown as its source and its demo link is only ever an attachment, never a document', async ({ page, consolePage }) => {
  await consolePage.open(samples('hostile.svg'));
  const details = consolePage.details;
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-text')).toContainText('<script>alert(1)</script>');
  await expect(details.getByText('Shown as source text: markup is never rendered in the console.')).toBeVisible();
  await expect(details.locator('img, iframe, object, embed')).toHaveCount(0);
  // Its same-origin demo link, signed to ask for inline SVG, followed by the tab itself: the worker answers
  // with an attachment, so the browser saves it and the console stays. The page fixture fails on any alert.
  const before = page.url();
  const signed = await getObjectUrl(createClient(DEMO_CONNECTION), {
    zone: 'pek3a', bucket: 'demo-documents', key: 'samples/hostile.svg', expiresIn: 60, responseContentType: 'image/svg+xml', inline: true,
  });
  const downloaded = page.waitForEvent('download');
  await page.goto(demoLinkOnOrigin(signed, new URL(before).origin).href).catch(() => undefined);
  const download = await downloaded;
  expect((await readFile((await download.path()) ?? '')).toString()).toContain('<script>alert(1)</script>');
  expect(page.url()).toBe(before);
  await expect(details.getByTestId('preview-text')).toBeVisible();
});

test('Download in demo mode saves the exact bytes and the page stays on the console', async ({ page, consolePage }) => {
  await consolePage.open(samples('chart.png'));
  const details = consolePage.details;
  await expect(details.getByTestId('details-key')).toHaveText('samples/chart.png');
  const before = page.url();
  const [download] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: 'Download chart.png' }).click()]);
  expect(download.suggestedFilename()).toBe('chart.png');
  expect(new URL(download.url()).origin).toBe(new URL(before).origin);
  const saved = await readFile((await download.path()) ?? '');
  const expected = await seededBytes('samples/chart.png');
  expect(saved.length, `saved ${saved.subarray(0, 16).toString('hex')} expected ${expected.subarray(0, 16).toString('hex')}`).toBe(expected.length);
  expect(saved.equals(expected)).toBe(true);
  expect(page.url()).toBe(before);
  await expect(details.getByRole('tab', { name: 'Overview' })).toBeVisible();

  // A text object too (its stored type would show it inline: the worker makes it an attachment).
  await consolePage.row('notes.txt').getByRole('link').click();
  await expect(details.getByTestId('details-key')).toHaveText('samples/notes.txt');
  const atNotes = page.url();
  const [text] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: 'Download notes.txt' }).click()]);
  expect(text.suggestedFilename()).toBe('notes.txt');
  expect((await readFile((await text.path()) ?? '')).equals(await seededBytes('samples/notes.txt'))).toBe(true);
  expect(page.url()).toBe(atNotes);
  await expect(details.getByTestId('details-key')).toHaveText('samples/notes.txt');
});

test('a key with U+202E is shown with the override visible in the list and the details title', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=samples/');
  const shown = 'invoice⟨U+202E⟩fdp.exe';
  const row = consolePage.row(shown);
  await expect(row).toBeVisible();
  // The override character itself is not on the page: only its visible stand-in.
  expect(await page.locator('main').evaluate((main) => main.textContent?.includes('\u202e'))).toBe(false);
  await row.getByRole('link').click();
  await expect(consolePage.details.getByRole('heading', { level: 2 })).toHaveText(shown);
  await expect(consolePage.details.getByTestId('details-key')).toHaveText(`samples/${shown}`);
  await expect(consolePage.details.getByRole('button', { name: `Download ${shown}` })).toBeVisible();
});

test('Copy key and Copy URL put the key and the object’s address on the clipboard', async ({ page, consolePage, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await consolePage.open(samples('notes.txt'));
  const details = consolePage.details;
  await details.getByRole('button', { name: 'Copy key' }).click();
  await expect(details.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('samples/notes.txt');
  await details.getByRole('button', { name: 'Copy URL' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://pek3a.qingstor.invalid/demo-documents/samples/notes.txt');
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opening an object brings its details into view as a sheet, focused; Close returns to the row', async ({ page, consolePage }) => {
    await consolePage.open('/buckets/pek3a/demo-documents?prefix=samples/');
    await consolePage.row('summary.pdf').getByRole('link').click();
    const details = consolePage.details;
    await expect(details).toBeInViewport({ ratio: 0.9 });
    await expect(details).toBeFocused();
    await expect(details.getByRole('heading', { level: 2 })).toHaveText('summary.pdf');
    await expect(details.getByRole('button', { name: 'Download summary.pdf' })).toBeInViewport();
    await details.getByRole('tab', { name: 'Preview' }).click();
    await expect(details.getByRole('figure', { name: /^Page 1 of \d+ of summary\.pdf$/ })).toHaveAttribute('data-state', 'drawn');
    await expectNoAxeViolations(page);
    await details.getByRole('button', { name: 'Close details' }).click();
    await expect(details).toHaveCount(0);
    await expect(consolePage.objectList).toBeFocused();
  });
});

test('in Chinese, light and dark: tabs, preview and share are translated and axe-clean', async ({ page, consolePage }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await consolePage.open(samples('notes.txt'));
    await page.getByRole('combobox', { name: /Language|语言/ }).selectOption({ label: '简体中文' });
    const details = page.getByRole('complementary', { name: '对象详情' });
    await expect(details.getByRole('tablist', { name: '对象详情分区' }).getByRole('tab')).toHaveText(['概览', '元数据', '预览', '分享']);
    await expect(details.getByRole('button', { name: '复制键名' })).toBeVisible();
    await details.getByRole('tab', { name: '预览' }).click();
    await expect(details.getByTestId('preview-text')).toContainText('Release notes');
    await expectNoAxeViolations(page);
    await details.getByRole('tab', { name: '分享' }).click();
    await details.getByRole('button', { name: '生成下载链接' }).click();
    await expect(details.getByTestId('share-url')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('combobox', { name: '语言' }).selectOption({ label: 'English' });
  }
});
