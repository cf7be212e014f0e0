import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';

// Upload journeys in demo mode: the msw worker answers fetch, and msw's in-page XHR interceptor answers the
// uploads (mocks/browser-xhr.ts), so upload progress events are real.

const MiB = 1024 * 1024;

/** In-app navigation: a full page load would restart the demo backend and lose what was uploaded. */
async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

declare global {
  interface Window {
    /** Every value the multipart journey's progress bar took, recorded as the page changed it. */
    qscProgressSeen?: number[];
    /** Upload progress events (loaded of total) delivered to the console's XHR listeners. */
    qscUploadEvents?: { loaded: number; total: number }[];
    /** XHRs the page sent, and how many of them have not ended yet. */
    qscXhr?: { sent: number; inFlight: number };
    /** Lets the parts the multipart journey holds back go (and every later one). */
    qscOpenPartGate?: () => void;
    /** Starts watching the XHRs the console creates from now on. */
    qscWatchXhr?: () => void;
  }
}

test('drag and drop several files and a folder with batch metadata: keys keep paths, objects carry the metadata', async ({ page }) => {
  await page.goto('/buckets/pek3a/demo-photos?prefix=albums/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  // The target prefix defaults to the folder being browsed.
  await expect(panel.getByLabel('Target prefix')).toHaveValue('albums/');
  await panel.getByLabel('Target prefix').fill('albums/e2e-drop/');

  await dropFiles(panel.getByTestId('dropzone'), [
    { path: 'notes.txt', text: 'first file\n', type: 'text/plain' },
    { path: 'readme.md', text: '# second\n', type: 'text/markdown' },
    { path: 'trip/day1/photo.bin', size: 3 * MiB, seed: 3 },
    { path: 'trip/itinerary.txt', text: 'day 1: arrive\n', type: 'text/plain' },
  ]);
  await expect(panel.getByTestId('staged-summary')).toHaveText('4 files ready (3.0 MiB)');
  await expect(panel.getByRole('list', { name: 'Files ready to upload' })).toContainText('trip/day1/photo.bin');

  await panel.getByText('Headers and metadata for this batch').click();
  await panel.getByLabel('Cache-Control', { exact: true }).fill('max-age=60');
  await panel.getByRole('button', { name: 'Add key' }).click();
  // A metadata key with a space breaks the shared rule: the error sits at the field and nothing is sent.
  await panel.getByLabel('Key 1', { exact: true }).fill('trip name');
  await panel.getByLabel('Value 1', { exact: true }).fill('Summer 2024');
  await panel.getByRole('button', { name: 'Upload 4 files' }).click();
  await expect(panel.getByLabel('Key 1', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // The same rule and message as the metadata editor gives the same key.
  await expect(panel.getByText('A key may contain only ASCII letters, digits, "-", "_" and ".".')).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Transfers' })).toHaveCount(0);
  await expectNoAxeViolations(page, '.uploads-drawer');

  await panel.getByLabel('Key 1', { exact: true }).fill('trip-name');
  await panel.getByRole('button', { name: 'Upload 4 files' }).click();

  const transfers = panel.getByRole('table', { name: 'Transfers' });
  await expect(transfers.locator('tr[data-state]')).toHaveCount(4);
  for (const key of ['albums/e2e-drop/notes.txt', 'albums/e2e-drop/readme.md', 'albums/e2e-drop/trip/day1/photo.bin', 'albums/e2e-drop/trip/itinerary.txt']) {
    const item = transfers.getByRole('row', { name: key, exact: true });
    await expect(item).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    // A compact row (at most 48 px); the ETag is a detail: it shows once the row is opened.
    expect((await item.boundingBox())?.height).toBeLessThanOrEqual(48);
    await expect(transfers.getByTestId('item-etag')).toHaveCount(0);
    await item.getByRole('button', { name: `Show details of ${key}` }).click();
    await expect(transfers.getByRole('row', { name: `Details of ${key}` }).getByTestId('item-etag')).toHaveText(/^"[0-9a-f]{32}"$/);
    await item.getByRole('button', { name: `Hide details of ${key}` }).click();
    // Per-file progressbar, complete.
    const bar = item.getByRole('progressbar', { name: `Progress of ${key}` });
    await expect(bar).toHaveAttribute('aria-valuetext', '100%');
  }
  await expect(panel.getByTestId('uploads-totals')).toContainText('4 of 4 files done');
  await expect(panel.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuetext', '100%');
  await expectNoAxeViolations(page, '.uploads-drawer');
  await page.getByRole('button', { name: 'Close uploads' }).click();

  // The listing was invalidated: the new folder is there; the folder structure became the keys.
  await expect(page.getByRole('grid').getByRole('link', { name: 'e2e-drop/', exact: true })).toBeVisible();
  await navigateInApp(page, '/buckets/pek3a/demo-photos?prefix=albums/e2e-drop/trip/day1/&object=albums/e2e-drop/trip/day1/photo.bin');
  const details = page.getByRole('complementary', { name: 'Object details' });
  await details.getByRole('tab', { name: 'Metadata' }).click();
  await expect(details).toContainText('max-age=60');
  await expect(details).toContainText('trip-name');
  await expect(details).toContainText('Summer 2024');
  await expect(details).toContainText('3,145,728');
  await navigateInApp(page, '/buckets/pek3a/demo-photos?prefix=albums/e2e-drop/&object=albums/e2e-drop/notes.txt');
  await expect(details).toContainText('text/plain');
  await expect(details).toContainText('Summer 2024');
});

test('a 64 MB file goes multipart with visible progress, pauses, resumes and completes', async ({ page }) => {
  // Every 'progress' listener the console puts on an XHR upload gets a recording twin, so the test sees the
  // events the console receives, whatever their timing relative to the rendered (throttled) progress bar.
  // Every XHR the page sends is counted until it ends (load, error, abort or timeout all end in loadend).
  // The progress bar's values are recorded as the page sets them (a MutationObserver), not sampled.
  await page.addInitScript(() => {
    const events: { loaded: number; total: number }[] = [];
    window.qscUploadEvents = events;
    const add = EventTarget.prototype.addEventListener;
    XMLHttpRequestUpload.prototype.addEventListener = function (this: XMLHttpRequestUpload, ...args: Parameters<EventTarget['addEventListener']>) {
      if (args[0] === 'progress') add.call(this, 'progress', (e) => events.push({ loaded: (e as ProgressEvent).loaded, total: (e as ProgressEvent).total }));
      add.apply(this, args);
    };
    // The demo answers XHRs in the page: its interceptor replaces window.XMLHttpRequest when it starts, and a
    // request it answers never reaches the native send. So the class it installed is wrapped once the demo is
    // up: every XHR the console creates after that is seen at the console's own calls (open, send, abort).
    const xhr = { sent: 0, inFlight: 0 };
    window.qscXhr = xhr;
    // Parts after the first four are held back (not sent) until the test opens the gate, so Pause always lands
    // while parts remain, however fast the machine uploads. A held part the console aborts is sent and aborted
    // at once, so it ends the way an aborted request does (abort, loadend).
    type Held = { target: XMLHttpRequest; args: Parameters<XMLHttpRequest['send']> };
    const gate = { open: false, partsSent: 0, held: [] as Held[] };
    window.qscOpenPartGate = () => {
      gate.open = true;
      for (const { target, args } of gate.held.splice(0)) target.send(...args);
    };
    const isPart = new WeakSet<XMLHttpRequest>();
    const wrapInstance = (instance: XMLHttpRequest): XMLHttpRequest =>
      new Proxy(instance, {
        get(target, prop) {
          if (prop === 'open') {
            return (...args: unknown[]) => {
              if (/[?&]part_number=/.test(String(args[1]))) isPart.add(target);
              return (target.open as (...a: unknown[]) => void)(...args);
            };
          }
          if (prop === 'send') {
            return (...args: Parameters<XMLHttpRequest['send']>) => {
              xhr.sent += 1;
              xhr.inFlight += 1;
              target.addEventListener('loadend', () => (xhr.inFlight -= 1));
              if (isPart.has(target) && !gate.open && ++gate.partsSent > 4) {
                gate.held.push({ target, args });
                return;
              }
              target.send(...args);
            };
          }
          if (prop === 'abort') {
            return () => {
              const index = gate.held.findIndex((h) => h.target === target);
              const held = index >= 0 ? gate.held.splice(index, 1)[0] : undefined;
              if (held) target.send(...held.args);
              target.abort();
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
        set: (target, prop, value) => Reflect.set(target, prop, value, target),
      });
    // Called once the demo is up (its interceptor installed); later XHRs are the wrapped ones.
    window.qscWatchXhr = () => {
      const installed = window.XMLHttpRequest;
      window.XMLHttpRequest = new Proxy(installed, { construct: (target, args) => wrapInstance(Reflect.construct(target, args) as XMLHttpRequest) });
    };
    const seen: number[] = [];
    window.qscProgressSeen = seen;
    const record = (node: Node): void => {
      if (node instanceof HTMLProgressElement && node.getAttribute('aria-label') === 'Progress of big-64mb.bin' && !seen.includes(node.value)) seen.push(node.value);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        record(r.target);
        r.addedNodes.forEach((n) => {
          record(n);
          if (n instanceof Element) n.querySelectorAll('progress').forEach(record);
        });
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
  });
  await page.goto('/buckets/pek3a/demo-photos');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.evaluate(() => window.qscWatchXhr?.());
  const panel = page.getByRole('region', { name: 'Upload to demo-photos' });
  await panel.getByText('Transfer settings').click();
  // The part size must respect QingStor's 4 MiB minimum: below it the field refuses.
  await panel.getByLabel('Part size (MiB)').fill('2');
  await panel.getByRole('button', { name: 'Apply settings' }).click();
  await expect(panel.getByLabel('Part size (MiB)')).toHaveAttribute('aria-invalid', 'true');
  await panel.getByLabel('Part size (MiB)').fill('4');
  await panel.getByLabel('Files at once').fill('2');
  // Parts in flight per file is the user's too, within 1..16.
  await panel.getByLabel('Parts at once (per file)').fill('17');
  await panel.getByRole('button', { name: 'Apply settings' }).click();
  await expect(panel.getByLabel('Parts at once (per file)')).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByText('Enter a number from 1 to 16.')).toBeVisible();
  await panel.getByLabel('Parts at once (per file)').fill('2');
  await panel.getByRole('button', { name: 'Apply settings' }).click();
  await expect(panel.getByText('Saved. New transfers use these settings.')).toBeVisible();
  await expect(panel.getByLabel('Parts at once (per file)')).not.toHaveAttribute('aria-invalid');

  await dropFiles(panel.getByTestId('dropzone'), [{ path: 'big-64mb.bin', size: 64 * MiB, seed: 11 }]);
  await expect(panel.getByTestId('staged-summary')).toHaveText('1 file ready (64.0 MiB)');
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();

  const item = panel.getByRole('row', { name: 'big-64mb.bin', exact: true });
  // The parts and the upload id are details: open the row.
  await item.getByRole('button', { name: 'Show details of big-64mb.bin' }).click();
  const details = panel.getByRole('row', { name: 'Details of big-64mb.bin' });
  await expect(details).toContainText('multipart');
  await expect(details).toContainText(/parts \d+ of 16 \(4\.0\sMiB each\)/, { timeout: 20_000 });
  // The first four parts go through; the rest wait at the page's gate, so the upload is part-way for sure.
  await expect(details).toContainText(/parts 4 of 16/, { timeout: 20_000 });
  expect(await page.evaluate(() => window.qscXhr?.sent ?? 0)).toBeGreaterThan(4);
  await item.getByRole('button', { name: 'Pause big-64mb.bin' }).click();
  await expect(item).toHaveAttribute('data-state', 'paused');
  // Pausing stops the parts in flight: wait until every request has ended, then nothing may move.
  await expect.poll(() => page.evaluate(() => window.qscXhr?.inFlight)).toBe(0);
  const sentBeforeResume = await page.evaluate(() => window.qscXhr?.sent ?? 0);
  const pausedAt = await item.getByRole('progressbar').evaluate((bar: HTMLProgressElement) => bar.value);
  expect(pausedAt).toBeGreaterThan(0);
  expect(pausedAt).toBeLessThan(64 * MiB);
  // Still paused, the item shows the same state and nothing new was sent while the page settled.
  await expect(item).toHaveAttribute('data-state', 'paused');
  expect(await item.getByRole('progressbar').evaluate((bar: HTMLProgressElement) => bar.value)).toBe(pausedAt);
  expect(await page.evaluate(() => window.qscXhr?.sent ?? 0)).toBe(sentBeforeResume);

  await page.evaluate(() => window.qscOpenPartGate?.());
  await item.getByRole('button', { name: 'Resume big-64mb.bin' }).click();
  await expect(item).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(details).toContainText('64.0 MiB of 64.0 MiB');
  await expect(details.getByTestId('item-etag')).toBeVisible();
  const seen = await page.evaluate(() => window.qscProgressSeen ?? []);
  expect(seen.filter((v) => v > 0 && v < 64 * MiB).length).toBeGreaterThan(2);
  // The bar moves inside a part too: the console gets XHR upload progress events part-way through a part's
  // body. A request answered by the service worker gives none of these (mocks/README.md, "msw and browser facts"); in demo mode they
  // exist only thanks to mocks/browser-xhr.ts. The queue's unit tests show that such events move the bar;
  // whether one lands inside the bar's 200 ms throttle window is timing, so the recorded bar values are not
  // asserted to fall inside a part: the events themselves are.
  const events = await page.evaluate(() => window.qscUploadEvents ?? []);
  const partWay = events.filter((e) => e.total >= 4 * MiB && e.loaded > 0 && e.loaded < e.total);
  expect(partWay.length).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Close uploads' }).click();
  await navigateInApp(page, '/buckets/pek3a/demo-photos?object=big-64mb.bin');
  await expect(page.getByRole('complementary', { name: 'Object details' })).toContainText('67,108,864');
});
