import { createHash } from 'node:crypto';
import http from 'node:http';
import { getObject } from '../src/api/objects/operations.ts';
import { connect, expect, test } from './support/emulator.ts';
import { dropFiles } from './uploads-drop.ts';

// A form upload (PostObject) carries no Content-MD5. Between the console and the emulator sits a relay that
// changes one byte of the first form upload's file, as a faulty network or middlebox would: the console must
// notice (the stored ETag is not the file's MD5), say so, and store the right bytes on Retry.

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

test('a byte flipped in a form upload fails the item as corrupted in transit; Retry stores the right bytes', async ({ page, emulator, api }) => {
  const relay = await startFlippingRelay(emulator.port);
  try {
    await page.goto('/connect');
    await connect(page, { endpoint: relay.url, remember: true });
    await page.goto('/buckets/pek3a/demo-documents');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Upload to demo-documents' });
    await panel.getByLabel('Target prefix').fill('integrity/');
    await dropFiles(panel.getByTestId('dropzone'), [{ path: 'flip.txt', text: content, type: 'text/plain' }]);
    await panel.getByRole('button', { name: 'Upload 1 file' }).click();

    const item = panel.getByRole('list', { name: 'Transfers' }).getByRole('listitem', { name: 'integrity/flip.txt' });
    await expect(item).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(item).toContainText('Failed — corrupted in transit');
    await expect(item.getByTestId('item-expected-md5')).toHaveText(fileMd5);
    // What the emulator stored is the changed body: its ETag is the MD5 of those bytes.
    const stored = await getObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'integrity/flip.txt' });
    const storedText = await stored.body.text();
    expect(storedText).not.toBe(content);
    const storedMd5 = createHash('md5').update(storedText).digest('hex');
    await expect(item.getByTestId('item-received-etag')).toHaveText(storedMd5);
    expect(relay.flipped).toBe(1);
    expect(relay.posts).toBe(1);

    await item.getByRole('button', { name: 'Retry integrity/flip.txt' }).click();
    await expect(item).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    await expect(item.getByTestId('item-etag')).toHaveText(`"${fileMd5}"`);
    expect(relay.posts).toBe(2);

    // The object over HTTP, read by another client: the file's bytes, MD5 and all.
    const again = await getObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: 'integrity/flip.txt' });
    const bytes = Buffer.from(await again.body.arrayBuffer());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(fileMd5);
    expect(again.head.etag).toBe(`"${fileMd5}"`);
  } finally {
    await relay.close();
  }
});
