/**
 * Screenshots of the connection and bucket-management screens at 1280 and 390 px, light and dark, written
 * to e2e/screenshots/manage-<screen>-<width>-<scheme>.png.
 *
 * Usage: build and preview the console, then
 *   npm run shots:manage -- http://127.0.0.1:4911
 * (CHROMIUM_PATH overrides /usr/bin/chromium). Demo screens use the in-browser demo backend; the Connect
 * screens run in endpoint mode with one remembered connection and a port where nothing listens.
 */
import { existsSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:4911';
const out = resolve(import.meta.dirname);
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  await new Promise<void>((done) => server.close(() => done()));
  return address.port;
}

interface Screen {
  name: string;
  show(page: Page): Promise<void>;
}

const port = await closedPort();
const recent = [{
  id: `keys|QSDEMOACCESSKEYID0001|http://127.0.0.1:${port}||path|fixed-host|`,
  kind: 'keys', endpoint: `http://127.0.0.1:${port}`, zones: ['pek3a', 'sh1a'], zoneInHost: false, style: 'path', proxy: '', accessKeyId: 'QSDEMOACCESSKEYID0001', bucket: '', usedAt: 1,
}];

const screens: Screen[] = [
  {
    name: 'connect-recent',
    async show(page) {
      await page.goto(`${base}/connect`);
      await page.evaluate((value) => localStorage.setItem('qsc.recent-connections', value), JSON.stringify(recent));
      await page.reload();
      await page.getByRole('region', { name: 'Recent connections' }).waitFor();
    },
  },
  {
    name: 'connect-unreachable',
    async show(page) {
      await page.goto(`${base}/connect`);
      await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${port}`);
      await page.getByLabel('Access key ID').fill('QSDEMOACCESSKEYID0001');
      await page.getByLabel('Secret access key').fill('not-a-secret');
      await page.getByRole('button', { name: 'Check and connect' }).click();
      await page.getByRole('alert').filter({ hasText: 'Nothing answers at' }).waitFor();
      await page.getByRole('alert').filter({ hasText: 'Nothing answers at' }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'create-bucket',
    async show(page) {
      await page.goto(`${base}/`);
      await page.getByRole('button', { name: 'Create bucket…' }).click();
      await page.getByRole('dialog', { name: 'Create bucket' }).getByLabel('Bucket name').fill('Team_Assets');
    },
  },
  {
    name: 'bucket-settings',
    async show(page) {
      await page.goto(`${base}/buckets/pek3a/demo-public/settings`);
      await page.getByTestId('public-read-state').waitFor();
      await page.getByRole('region', { name: 'CORS rules' }).getByRole('table').waitFor();
    },
  },
  {
    name: 'delete-folder',
    async show(page) {
      await page.goto(`${base}/buckets/pek3a/demo-documents?prefix=reports/`);
      await page.getByRole('button', { name: 'Delete folder…' }).click();
      await page.getByTestId('folder-count').waitFor();
    },
  },
  {
    name: 'reset-demo-data',
    async show(page) {
      await page.goto(`${base}/buckets/pek3a/demo-photos`);
      await page.getByRole('button', { name: 'Demo data — simulated backend' }).click();
      await page.getByRole('dialog', { name: 'Demo data' }).getByRole('button', { name: 'Reset demo data…' }).click();
      await page.getByRole('button', { name: 'Reset and reload' }).waitFor();
    },
  },
];

const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 }, colorScheme: scheme });
      for (const screen of screens) {
        const page = await context.newPage();
        await screen.show(page);
        const file = resolve(out, `manage-${screen.name}-${width}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        process.stdout.write(`${file}\n`);
        await page.close();
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
