import { createHash } from 'node:crypto';
import http from 'node:http';
import type { QsClient } from '../src/api/client.ts';
import { ApiError } from '../src/api/errors.ts';
import { listObjects } from '../src/api/objects/operations.ts';
import { getObject } from '../src/api/objects/read.ts';
import { putObject } from '../src/api/objects/write.ts';
import type { Page } from '@playwright/test';
import { connect, expect, test } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// A form upload (PostObject) carries no Content-MD5. Between the console and the emulator sits a relay that
// changes one byte of the first form upload's file, as a faulty network or middlebox would: the console must
// notice (the ETag of the bytes received is not the file's MD5), say so, leave the bucket as it was (the
// earlier version of the key, or nothing), and store the right bytes on Retry.

const MARKER = 'FLIP-THIS-BYTE';
const content = `${'a'.repeat(6000)}${MARKER}${'b'.repeat(6000)}`;
const fileMd5 = createHash('md5').update(content).digest('hex');

interface FlippingRelay {
  url: string;
  /** Form uploads seen, and how many of them were changed. */
  posts: number;
  flipped: number;
  close(): Promise<void>;
}

async function startFlippingRelay(targetPort: number): Promise<FlippingRelay> {
  const state = { posts: 0, flipped: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && (req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
        state.posts += 1;
        const at = body.indexOf(MARKER);
        if (state.flipped === 0 && at >= 0) {
          body[at] = (body[at] ?? 0) ^ 0x20;
          state.flipped += 1;
        }
      }
      const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get posts() {
      return state.posts;
    },
    get flipped() {
      return state.flipped;
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The keys under `prefix`: what another client listing the bucket sees (no staging copy left behind). */
async function keysUnder(api: QsClient, prefix: string): Promise<string[]> {
  const page = await listObjects(api, { zone: 'pek3a', bucket: 'demo-documents', prefix });
  return page.keys.map((entry) => entry.key);
}

async function storedText(api: QsClient, key: string): Promise<string | null> {
  try {
    return await (await getObject(api, { zone: 'pek3a', bucket: 'demo-documents', key })).body.text();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function uploadThroughRelay(page: Page, relay: FlippingRelay, prefix: string, name: string, overwrite: boolean) {
  await page.goto('/connect');
  await connect(page, { endpoint: relay.url, remember: true });
  await page.goto('/buckets/pek3a/demo-documents');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload to demo-documents' });
  await panel.getByLabel('Target prefix').fill(prefix);
  await dropFiles(panel.getByTestId('dropzone'), [{ path: name, text: content, type: 'text/plain' }]);
  await panel.getByRole('button', { name: 'Upload 1 file' }).click();
  if (overwrite) await panel.getByRole('button', { name: 'Overwrite' }).click();
  return panel.getByRole('table', { name: 'Transfers' }).getByRole('row', { name: `${prefix}${name}`, exact: true });
}

test('a byte flipped in a form upload to a new key: the item fails as corrupted in transit, nothing stays in the bucket; Retry stores the right bytes', async ({ page, emulator, api }) => {
  const relay = await startFlippingRelay(emulator.port);
  try {
    const item = await uploadThroughRelay(page, relay, 'integrity-new/', 'flip.txt', false);
    await expect(item).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(item).toContainText('Failed — corrupted in transit');
    // Why it failed is shown under the row without opening it.
    const details = page.getByRole('row', { name: 'Details of integrity-new/flip.txt' });
    await expect(details).toContainText('the bucket holds what it held before');
    await expect(details.getByTestId('item-expected-md5')).toHaveText(fileMd5);
    await expect(details.getByTestId('item-received-etag')).not.toHaveText(fileMd5);
    expect(relay.flipped).toBe(1);
    expect(relay.posts).toBe(1);
    // The changed bytes are gone: not under the key, not anywhere under the folder.
    expect(await storedText(api, 'integrity-new/flip.txt')).toBeNull();
    expect(await keysUnder(api, 'integrity-new/')).toEqual([]);

    await item.getByRole('button', { name: 'Retry integrity-new/flip.txt' }).click();
    await expect(item).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await item.getByRole('button', { name: 'Show details of integrity-new/flip.txt' }).click();
    await expect(details.getByTestId('item-etag')).toHaveText(`"${fileMd5}"`);
    expect(relay.posts).toBe(2);

    // The object over HTTP, read by another client: the file's bytes, MD5 and all.
    const again = await getObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'integrity-new/flip.txt' });
    const bytes = Buffer.from(await again.body.arrayBuffer());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(fileMd5);
    expect(again.head.etag).toBe(`"${fileMd5}"`);
    expect(await keysUnder(api, 'integrity-new/')).toEqual(['integrity-new/flip.txt']);
  } finally {
    await relay.close();
  }
});

test('a byte flipped in a form upload over an existing object: the earlier good version stays, untouched; Retry replaces it with the right bytes', async ({ page, emulator, api }) => {
  const earlier = 'the earlier, good version\n';
  await putObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'integrity-old/flip.txt', body: earlier, metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
  const relay = await startFlippingRelay(emulator.port);
  try {
    const item = await uploadThroughRelay(page, relay, 'integrity-old/', 'flip.txt', true);
    await expect(item).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(item).toContainText('Failed — corrupted in transit');
    const details = page.getByRole('row', { name: 'Details of integrity-old/flip.txt' });
    await expect(details).toContainText('the bucket holds what it held before');
    expect(relay.flipped).toBe(1);
    expect(await storedText(api, 'integrity-old/flip.txt')).toBe(earlier);
    expect(await keysUnder(api, 'integrity-old/')).toEqual(['integrity-old/flip.txt']);

    await item.getByRole('button', { name: 'Retry integrity-old/flip.txt' }).click();
    await expect(item).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await item.getByRole('button', { name: 'Show details of integrity-old/flip.txt' }).click();
    await expect(details.getByTestId('item-etag')).toHaveText(`"${fileMd5}"`);
    expect(await storedText(api, 'integrity-old/flip.txt')).toBe(content);
    expect(await keysUnder(api, 'integrity-old/')).toEqual(['integrity-old/flip.txt']);
  } finally {
    await relay.close();
  }
});
