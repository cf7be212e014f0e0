import type { CDPSession, Locator, Page } from '@playwright/test';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { demoLinkOnOrigin } from '../src/api/demo-link.ts';
import { getObjectUrl } from '../src/api/objects/read.ts';
import { expect, test, ConsolePage } from './fixtures.ts';

// What a bucket holds cannot hurt the console: JSON whose indentation grows with the square of its nesting
// opens in Preview with the page responsive and the heap bounded, a PDF's script never runs (the console draws
// its pages with pdf.js, which runs none), and a demo object link never serves a script to the console's origin.
// The page fixture fails on any dialog.

/** PUTs `body` into demo-documents through the page (the demo emulator lives there), with `headers`. */
async function demoPut(page: Page, key: string, body: string | Uint8Array, headers: Record<string, string>): Promise<number> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const prepared = await createClient(DEMO_CONNECTION).prepare({ operation: 'PutObject', method: 'PUT', zone: 'pek3a', bucket: 'demo-documents', key, headers });
  const sent: Record<string, string> = {};
  prepared.headers.forEach((value, name) => {
    sent[name] = value;
  });
  return page.evaluate(
    async ({ url, headers: h, base64 }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return (await fetch(url, { method: 'PUT', headers: h, body: data })).status;
    },
    { url: prepared.url.href, headers: sent, base64: Buffer.from(bytes).toString('base64') },
  );
}

/**
 * Starts recording long tasks and long animation frames in the page. A long task is script; the style and
 * layout a frame does after it are not part of it, so only the frame shows a text that takes seconds to lay
 * out (the deep-arrays bomb: no task over 50 ms, a 2 s frame).
 */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const durations: number[] = [];
    Reflect.set(window, '__longTasks', durations);
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) durations.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    observer.observe({ type: 'long-animation-frame' });
  });
}

async function longTasks(page: Page): Promise<number[]> {
  // Two frames: whatever the preview started has been laid out and painted.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => {
    const durations: unknown = Reflect.get(window, '__longTasks');
    return Array.isArray(durations) ? durations.map(Number) : [];
  });
}

async function heapUsed(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

const MIB = 1024 * 1024;

async function openSamples(consolePage: ConsolePage, key: string): Promise<void> {
  await consolePage.open(`/buckets/pek3a/demo-documents?prefix=samples/&object=${encodeURIComponent(`samples/${key}`)}`);
}

test('JSON bombs, a one-line text and a CSV with a huge cell open in Preview with the page responsive (no task or frame over 200 ms) and the heap under +64 MiB', async ({ page, consolePage }) => {
  // 30 KB of {"a": nested 5,000 deep; 66 KB of [ ×3000 around 30,000 zeros and ] ×3000.
  const bombs = [
    { name: 'deep-objects.json', text: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, starts: '{\n  "a": {\n    "a": {' },
    { name: 'deep-arrays.json', text: `${'['.repeat(3000)}${Array(30000).fill('0').join(',')}${']'.repeat(3000)}`, starts: '[\n  [\n    [' },
  ];
  // The Preview code loads with an ordinary JSON file first.
  await openSamples(consolePage, 'settings.json');
  const details = consolePage.details;
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByText('JSON, formatted for reading.')).toBeVisible();
  for (const bomb of bombs) expect(await demoPut(page, `samples/${bomb.name}`, bomb.text, { 'content-type': 'application/json' })).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const cdp = await page.context().newCDPSession(page);

  for (const bomb of bombs) {
    await expect(consolePage.row(bomb.name)).toBeVisible();
    await watchLongTasks(page);
    const before = await heapUsed(cdp);
    await consolePage.row(bomb.name).getByRole('link').click();
    await expect(details.getByText('JSON, formatted for reading; levels deeper than 20 stay on one line.')).toBeVisible();
    const text = (await details.getByTestId('preview-text').textContent()) ?? '';
    expect(text.startsWith(bomb.starts)).toBe(true);
    // The same JSON, only indented (the bombs hold no strings, so white space is all that was added).
    expect(text.replace(/\s+/g, '')).toBe(bomb.text);
    const tasks = await longTasks(page);
    expect(Math.max(0, ...tasks), `long tasks and frames (ms) while ${bomb.name} opened: ${tasks.join(', ')}`).toBeLessThanOrEqual(200);
    const after = await heapUsed(cdp);
    expect(after - before, `heap grew ${((after - before) / MIB).toFixed(1)} MiB`).toBeLessThan(64 * MIB);
  }

  // 50 KB without a line break or a space (wrapped, it took over 600 ms of layout): shown whole, unwrapped, and laid out as quickly.
  const line = 'A'.repeat(50_000);
  expect(await demoPut(page, 'samples/one-line.txt', line, { 'content-type': 'text/plain' })).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(consolePage.row('one-line.txt')).toBeVisible();
  await watchLongTasks(page);
  await consolePage.row('one-line.txt').getByRole('link').click();
  await expect(details.getByTestId('preview-text')).toHaveText(line);
  const tasks = await longTasks(page);
  expect(Math.max(0, ...tasks), `long tasks and frames (ms) while one-line.txt opened: ${tasks.join(', ')}`).toBeLessThanOrEqual(200);

  // A CSV with one cell of 20,000 characters without a space (3 s of layout as a table cell): shown as text.
  const csv = `name,blob\nlong,${'B'.repeat(20_000)}\n`;
  expect(await demoPut(page, 'samples/long-cell.csv', csv, { 'content-type': 'text/csv' })).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(consolePage.row('long-cell.csv')).toBeVisible();
  await watchLongTasks(page);
  await consolePage.row('long-cell.csv').getByRole('link').click();
  await expect(details.getByText('CSV, shown as text: a cell holds more than 500 characters without a space, too long to lay out as a table.')).toBeVisible();
  await expect(details.getByTestId('preview-text')).toHaveText(csv);
  await expect(details.getByTestId('preview-table')).toHaveCount(0);
  const csvTasks = await longTasks(page);
  expect(Math.max(0, ...csvTasks), `long tasks and frames (ms) while long-cell.csv opened: ${csvTasks.join(', ')}`).toBeLessThanOrEqual(200);
});

/** A PDF of `pages` pages whose open action runs `script` (PDF JavaScript). */
function pdfWithScript(script: string, pages = 1): Uint8Array {
  const content = 'BT /F1 24 Tf 20 100 Td (Hello PDF) Tj ET';
  const pageIds = Array.from({ length: pages }, (_, i) => 7 + i);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Action /S /JavaScript /JS (app.alert\\(1\\);) >>',
    `<< /Type /Action /S /JavaScript /JS (${script.replace(/[()\\]/g, (c) => `\\${c}`)}) >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...pageIds.map(() => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 5 0 R /Resources << /Font << /F1 6 0 R >> >> /AA << /O 3 0 R >> >>'),
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** How many of the canvas's pixels are dark (drawn text), read back from the page. */
async function darkPixels(figure: Locator): Promise<number> {
  return figure.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height) ?? { data: new Uint8ClampedArray() };
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 0) dark += 1;
    return dark;
  });
}

test('a PDF with app.alert is drawn in the Preview (page 1 of N) and no dialog or tab ever appears; a long one shows its first 3 pages, a damaged one says so', async ({ page, context, consolePage }) => {
  // The page fixture fails on a dialog over the console; a tab the preview opened would be a page of its own.
  const dialogs: string[] = [];
  const tabs: string[] = [];
  context.on('page', (opened) => {
    tabs.push(opened.url());
    opened.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  page.on('dialog', (dialog) => dialogs.push(dialog.message()));
  await openSamples(consolePage, 'notes.txt');
  const details = consolePage.details;
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-text')).toBeVisible();
  const alert = "app.alert('Session expired. Re-enter your secret key.');";
  expect(await demoPut(page, 'samples/session.pdf', pdfWithScript(alert), { 'content-type': 'application/pdf' })).toBe(201);
  expect(await demoPut(page, 'samples/long.pdf', pdfWithScript(alert, 5), { 'content-type': 'application/pdf' })).toBe(201);
  const damaged = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\u0000\u00ff garbage, no xref, no trailer';
  expect(await demoPut(page, 'samples/damaged.pdf', damaged, { 'content-type': 'application/pdf' })).toBe(201);
  await page.getByRole('button', { name: 'Refresh' }).click();

  await consolePage.row('session.pdf').getByRole('link').click();
  const first = details.getByRole('figure', { name: 'Page 1 of 1 of session.pdf' });
  await expect(first).toHaveAttribute('data-state', 'drawn');
  await expect(first.getByText('Page 1 of 1', { exact: true })).toBeVisible();
  await expect(first.locator('canvas')).toBeVisible();
  // The page's text was drawn (dark pixels on the white page), not an empty canvas.
  expect(await darkPixels(first)).toBeGreaterThan(50);
  await expect(details.getByText('Drawn by the console from the file’s pages; scripts, links and forms in it are not run.')).toBeVisible();
  await expect(page.locator('iframe, object, embed')).toHaveCount(0);

  // Download saves the file (an attachment), never opening the browser's viewer in a tab.
  const [download] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: 'Download the PDF' }).click()]);
  expect(download.suggestedFilename()).toBe('session.pdf');

  await consolePage.row('long.pdf').getByRole('link').click();
  await expect(details.getByRole('figure', { name: /^Page \d of 5 of long\.pdf$/ })).toHaveCount(3);
  for (const n of [1, 2, 3]) await expect(details.getByRole('figure', { name: `Page ${n} of 5 of long.pdf` })).toHaveAttribute('data-state', 'drawn');
  await expect(details.getByText('Showing the first 3 of 5 pages. Download the file to read the rest.')).toBeVisible();

  await consolePage.row('damaged.pdf').getByRole('link').click();
  await expect(details.getByTestId('preview-failed')).toHaveText('No preview: this file could not be read as a PDF (it is damaged, or not a PDF). Download it to open it with another program.');
  await expect(details.getByRole('button', { name: 'Download the PDF' })).toBeVisible();

  // Back to the scripted one, drawn again: whatever its open and page actions were, nothing ran.
  await consolePage.row('session.pdf').getByRole('link').click();
  await expect(details.getByRole('figure', { name: 'Page 1 of 1 of session.pdf' })).toHaveAttribute('data-state', 'drawn');
  expect(dialogs).toEqual([]);
  expect(tabs).toEqual([]);
});

test('a demo object of a JavaScript type never runs as a script on the console’s origin, whatever page includes it', async ({ page, consolePage }) => {
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=samples/');
  await consolePage.waitForList();
  expect(await demoPut(page, 'samples/gadget.js', "window.__gadgetRan = 'yes';", { 'content-type': 'text/javascript' })).toBe(201);
  const signed = await getObjectUrl(createClient(DEMO_CONNECTION), { zone: 'pek3a', bucket: 'demo-documents', key: 'samples/gadget.js', expiresIn: 300 });
  const src = demoLinkOnOrigin(signed, new URL(page.url()).origin).href;
  // Another console tab (its own demo worker client), where an HTML injection would have put the tag. The
  // browser reports the refused script as a console error there, which is the point.
  const other = await page.context().newPage();
  try {
    await new ConsolePage(other).open('/buckets/pek3a/demo-documents?prefix=samples/');
    await new ConsolePage(other).waitForList();
    const served = other.waitForResponse((r) => r.url() === src);
    const outcome = await other.evaluate(
      (url) =>
        new Promise<string>((done) => {
          const script = document.createElement('script');
          script.src = url;
          script.onload = () => done('load');
          script.onerror = () => done('error');
          document.head.append(script);
        }),
      src,
    );
    expect(await other.evaluate(() => Reflect.get(window, '__gadgetRan'))).toBeUndefined();
    expect(outcome).toBe('error');
    // The object was served (its bytes are there), as a type no script element runs.
    const response = await served;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/octet-stream');
  } finally {
    await other.close();
  }
});
