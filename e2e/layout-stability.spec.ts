import { expect, test } from './fixtures.ts';
import { dropFiles } from './uploads-drop.ts';

declare global {
  interface Window {
    /** Every layout shift the page reported since the test started counting (value and what moved). */
    qscShifts?: { value: number; sources: string[] }[];
  }
}

// The layout never moves under the user: the upload indicator has a place of its own in the top bar, a selection
// covers the list's tools instead of pushing the list down, toasts float, and the details panel overlays the
// list instead of squeezing it. Measured with the browser's own layout-shift entries (the figure behind CLS);
// every shift counts, even those right after a click.

test('1280 × 800: an upload starting, a selection, a toast and the details opening move nothing (layout shift 0.00)', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(() => {
    window.qscShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: { node?: Node | null }[] })[]) {
        const sources = (entry.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName)));
        window.qscShifts?.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
  // The demo backend starts in the page first: on a loaded machine that takes a while.
  await expect(consolePage.row('readme.md')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'More actions' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Buckets by zone' }).getByRole('link').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Counting starts once the page has settled: what follows is what the user does.
  await page.evaluate(() => window.qscShifts?.splice(0));

  await dropFiles(consolePage.objectList, [{ path: 'steady.bin', size: 8 * 1024 * 1024, seed: 7 }]);
  // The indicator takes its place in the top bar (running, then finished until clicked).
  await expect(page.locator('.topbar__uploads').getByRole('button')).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Uploaded 1 file to demo-documents/reports/.' })).toBeVisible({ timeout: 30_000 });
  await consolePage.row('readme.md').getByRole('checkbox').check();
  await expect(page.getByTestId('selection-status')).toHaveText(/^1 object selected/);
  await consolePage.row('quarterly-report.pdf').getByRole('link').click();
  await expect(consolePage.details.getByTestId('details-key')).toHaveText('reports/quarterly-report.pdf');
  await expect(consolePage.details.getByRole('tab', { name: 'Overview' })).toBeVisible();

  const shifts = await page.evaluate(() => window.qscShifts ?? []);
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  expect({ total: total.toFixed(2), shifts: shifts.filter((s) => s.value >= 0.0005) }).toEqual({ total: '0.00', shifts: [] });
});

test('390 × 844: the first row of a bucket starts within 120 px of the top', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/buckets/pek3a/demo-documents', '/buckets/pek3a/demo-documents?prefix=reports/']) {
    await consolePage.open(url);
    await expect(consolePage.rows.first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'More actions' })).toBeVisible();
    const top = await consolePage.rows.first().evaluate((row) => row.getBoundingClientRect().top);
    expect(top, `first row of ${url}`).toBeLessThanOrEqual(120);
    // Still a phone's page: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
});

test('390 × 844: the filter shows its whole placeholder, in English and in Chinese', async ({ page, consolePage }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [locale, label, placeholder] of [
    ['en', 'Filter by prefix', 'Prefix'],
    ['zh-CN', '按前缀筛选', '前缀'],
  ] as const) {
    await page.addInitScript((wanted) => localStorage.setItem('qsc.locale', wanted), locale);
    await consolePage.open('/buckets/pek3a/demo-documents?prefix=reports/');
    const filter = page.getByRole('searchbox', { name: label });
    await expect(filter).toHaveAttribute('placeholder', placeholder);
    // The placeholder's drawn width, in the field's own font, against the room inside the field's padding.
    const fit = await filter.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) throw new Error('no canvas');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room };
    });
    expect(fit.text, `${locale} placeholder ${placeholder} in ${fit.room}px`).toBeLessThanOrEqual(fit.room);
  }
});

test('390 × 844: the bucket list fits the screen and each demo bucket name stays on one line', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const table = page.getByRole('table', { name: 'Buckets' });
  await expect(table.getByRole('rowheader', { name: 'demo-documents' })).toBeVisible();
  // Name, zone and access; the creation date is left to wider screens.
  await expect(table.getByRole('columnheader', { name: /Created/ })).toBeHidden();
  const box = await table.evaluate((element) => {
    const scroller = element.parentElement ?? element;
    return { table: element.getBoundingClientRect().right, scroll: scroller.scrollWidth, client: scroller.clientWidth };
  });
  expect(box.table).toBeLessThanOrEqual(390);
  expect(box.scroll).toBeLessThanOrEqual(box.client);
  for (const name of ['demo-archive', 'demo-documents', 'demo-photos', 'demo-public', 'demo-uploads']) {
    const link = table.getByRole('link', { name, exact: true });
    const lines = await link.evaluate((element) => {
      // The name's text only (the icon beside it has a top of its own): one line box per drawn line.
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const tops = new Set<number>();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size;
    });
    expect(lines, `${name} is drawn on one line`).toBe(1);
  }
});
