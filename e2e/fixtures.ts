import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';

/**
 * Every journey fails on an uncaught page error, a console.error (except the browser's own
 * "Failed to load resource" line that accompanies a deliberate 4xx), or any alert/confirm/prompt:
 * hostile object keys must never execute.
 */
export const test = base.extend<{ consolePage: ConsolePage }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console.error: ${message.text()}`);
      }
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
      void dialog.dismiss();
    });
    await use(page);
    expect(problems, 'page errors, console errors or dialogs during the test').toEqual([]);
  },
  consolePage: async ({ page }, use) => {
    await use(new ConsolePage(page));
  },
});

export { expect };

export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The bucket list's rows of one zone (the table's Zone column): what a zone's own table used to be. */
export function bucketsInZone(page: Page, zone: string, table = 'Buckets'): Locator {
  return page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ has: page.getByRole('cell', { name: zone, exact: true }) });
}

/** Runs one of the object browser's toolbar actions from its menu ("More actions"). */
export async function moreAction(page: Page, name: 'New folder…' | 'In-progress uploads' | 'Bucket settings' | 'Delete folder…' | 'Bulk-edit this folder…' | 'Bulk-edit the whole bucket…'): Promise<void> {
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name, exact: true }).click();
}

/** Page object for the demo-mode console. */
export class ConsolePage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(path = '/'): Promise<void> {
    await this.page.goto(path);
  }

  get demoBadge(): Locator {
    return this.page.getByText('Demo data — simulated backend');
  }

  get objectList(): Locator {
    return this.page.getByRole('grid');
  }

  get rows(): Locator {
    return this.objectList.locator('[role="rowgroup"].object-list__body [role="row"]');
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  get filter(): Locator {
    return this.page.getByRole('searchbox', { name: /filter by prefix/i });
  }

  get details(): Locator {
    return this.page.getByRole('complementary', { name: 'Object details' });
  }

  get breadcrumbs(): Locator {
    return this.page.getByRole('navigation', { name: 'Location' });
  }

  /** Loaded row count as exposed by the grid (data-row-count). */
  async loadedRows(): Promise<number> {
    return Number(await this.objectList.getAttribute('data-row-count'));
  }

  async domRows(): Promise<number> {
    return this.rows.count();
  }

  async waitForList(): Promise<void> {
    await expect(this.objectList).toBeVisible();
  }
}

/**
 * Writes an object into the page's demo backend: the api client signs the PutObject in Node (same code
 * as the console), the page sends it so the service worker answers. Returns the HTTP status.
 */
export async function demoPutObject(page: Page, bucket: string, key: string, body: string, zone = 'pek3a'): Promise<number> {
  const client = createClient(DEMO_CONNECTION);
  const prepared = await client.prepare({
    operation: 'PutObject', method: 'PUT', zone, bucket, key, body, headers: { 'content-type': 'text/plain' },
  });
  const headers: Record<string, string> = {};
  prepared.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return page.evaluate(
    async ({ url, headers: h, text }) => (await fetch(url, { method: 'PUT', headers: h, body: text })).status,
    { url: prepared.url.href, headers, text: body },
  );
}

/**
 * In the page, before its scripts: the console's requests to the demo backend are answered after `ms`, as
 * over a network. The demo answers them in the page within a fraction of a millisecond
 * (mocks/browser-fetch.ts), so a journey that acts while a run is under way (pause, close, cancel) gives
 * the run a network's pace first. Whatever `fetch` the page installs later is slowed the same way.
 */
export function slowDemoAnswers(ms: number): void {
  const slowed = (target: typeof fetch): typeof fetch => async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url, location.href).hostname.endsWith('qingstor.invalid')) await new Promise((resolve) => setTimeout(resolve, ms));
    return target(input, init);
  };
  let current = window.fetch;
  Object.defineProperty(window, 'fetch', {
    configurable: true,
    get: () => slowed(current),
    set: (next: typeof fetch) => {
      current = next;
    },
  });
}
