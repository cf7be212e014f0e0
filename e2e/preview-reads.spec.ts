import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { putObject } from '../src/api/objects/write.ts';
import { connect, expect, test } from './support/emulator.ts';

// The text preview against a real HTTP server, as Chromium reads it: never more than the first 256 KiB
// whatever the server sends, and objects stored compressed (gzip, deflate, br) shown decompressed, or their
// encoding named when their bytes are not what it says, never a CORS diagnosis.

const KIB = 1024;
const MIB = 1024 * KIB;

interface RangeIgnoringRelay {
  url: string;
  /** Bytes of the body the relay wrote for the path's GETs, and whether the client hung up. */
  readonly written: number;
  readonly hungUp: boolean;
  readonly gets: number;
  close(): Promise<void>;
}

/**
 * Forwards everything to the emulator, except a GET of `path`: that one is asked of the emulator without
 * its Range (for the real headers, CORS included), then answered 200 with up to 2 GiB of text, as a server
 * that ignores Range would, counting what it manages to write before the client hangs up.
 */
async function startRangeIgnoringRelay(targetPort: number, path: string): Promise<RangeIgnoringRelay> {
  const state = { written: 0, hungUp: false, gets: 0 };
  const TOTAL = 2 * 1024 * MIB;
  const server = http.createServer((req, res) => {
    const endless = req.method === 'GET' && (req.url ?? '').split('?')[0] === path;
    const headers = { ...req.headers };
    if (endless) delete headers.range;
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers }, (answer) => {
      if (!endless) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      answer.resume();
      state.gets += 1;
      const { 'content-length': _length, 'content-range': _range, ...kept } = answer.headers;
      res.writeHead(200, kept);
      res.on('close', () => {
        state.hungUp = state.written < TOTAL;
      });
      const chunk = Buffer.from(`${'endless text '.repeat(5041)}\n`.slice(0, 64 * KIB));
      const pump = (): void => {
        while (state.written < TOTAL && !res.destroyed) {
          state.written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get written() {
      return state.written;
    },
    get hungUp() {
      return state.hungUp;
    },
    get gets() {
      return state.gets;
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

test('a server that ignores Range: the preview reads 256 KiB, stops the body, and the server stops writing', async ({ page, emulator, api }) => {
  const key = 'samples/endless.log';
  await putObject(api, { zone: 'pek3a', bucket: 'demo-documents', key, body: 'x'.repeat(MIB), metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
  const relay = await startRangeIgnoringRelay(emulator.port, `/demo-documents/${key}`);
  try {
    await page.goto('/connect');
    await connect(page, { endpoint: relay.url, remember: true });
    await page.goto(`/buckets/pek3a/demo-documents?prefix=samples/&object=${encodeURIComponent(key)}`);
    const details = page.getByTestId('object-details');
    await details.getByRole('tab', { name: 'Preview' }).click();
    await expect(details.getByText(/^Showing the first 256(\.0)?\sKiB of 1(\.0)?\sMiB\.$/)).toBeVisible();
    const text = (await details.getByTestId('preview-text').textContent()) ?? '';
    expect(text.length).toBe(256 * KIB);
    expect(text.startsWith('endless text endless text')).toBe(true);
    expect(relay.gets).toBe(1);
    // The page hung up: what the server wrote is what the socket buffers took, not the 2 GiB it offered.
    await expect.poll(() => relay.hungUp, { timeout: 15_000 }).toBe(true);
    expect(relay.written).toBeLessThan(64 * MIB);
  } finally {
    await relay.close();
  }
});

test('objects stored with gzip, deflate or br are previewed decompressed; bytes that are not what their encoding says are named as such, not CORS', async ({ page, emulator, api }) => {
  const text = 'Compressed at rest, readable in the console.\n'.repeat(40);
  const put = (key: string, body: Uint8Array<ArrayBuffer> | string, encoding: string) =>
    putObject(api, { zone: 'pek3a', bucket: 'demo-documents', key: `encoded/${key}`, body, metadata: { standard: { 'content-type': 'text/plain', 'content-encoding': encoding }, custom: {} } });
  const tiny = new Uint8Array(gzipSync('hello\n'));
  expect(tiny.byteLength).toBeLessThan(30);
  await put('tiny.txt', tiny, 'gzip');
  await put('notes.txt', new Uint8Array(gzipSync(text)), 'gzip');
  await put('deflated.txt', new Uint8Array(deflateSync(text)), 'deflate');
  await put('brotli.txt', new Uint8Array(brotliCompressSync(text)), 'br');
  await put('broken.txt', 'plain text stored with a gzip header', 'gzip');

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await page.goto(`/buckets/pek3a/demo-documents?prefix=encoded/&object=${encodeURIComponent('encoded/tiny.txt')}`);
  const details = page.getByTestId('object-details');
  await details.getByRole('tab', { name: 'Preview' }).click();
  await expect(details.getByTestId('preview-text')).toHaveText('hello\n');
  await expect(details.getByText('Stored compressed (Content-Encoding gzip); shown decompressed.')).toBeVisible();

  for (const [name, encoding] of [['notes.txt', 'gzip'], ['deflated.txt', 'deflate'], ['brotli.txt', 'br']] as const) {
    emulator.clearRequests();
    await page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) }).getByRole('link').click();
    await expect(details.getByTestId('preview-text')).toHaveText(text);
    await expect(details.getByText(`Stored compressed (Content-Encoding ${encoding}); shown decompressed.`)).toBeVisible();
    const get = emulator.requests.find((r) => r.method === 'GET' && r.url.startsWith(`/demo-documents/encoded/${name}`));
    // gzip and deflate: the stored bytes' first 256 KiB, decompressed in the page; br: decoded by the browser.
    if (encoding === 'br') expect(get?.headers.range).toBeUndefined();
    else {
      expect(get?.headers.range).toBe('bytes=0-262143');
      expect(get?.url).toContain('response-content-encoding=identity');
    }
  }

  await page.getByRole('row').filter({ has: page.getByRole('link', { name: 'broken.txt', exact: true }) }).getByRole('link').click();
  await expect(details.getByTestId('preview-undecodable')).toHaveText(
    'No preview: the object is stored with Content-Encoding gzip, but its bytes could not be decoded that way. Download it, or correct its Content-Encoding with Edit metadata.',
  );
  await expect(details.getByRole('tabpanel', { name: 'Preview' }).getByText(/CORS/)).toHaveCount(0);
});
