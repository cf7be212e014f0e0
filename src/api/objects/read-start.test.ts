import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer, type RunningEmulatorServer } from '../../../mocks/server.ts';
import { putBucket } from '../buckets/operations.ts';
import { createClient, type QsClient } from '../client.ts';
import { DEMO_CREDENTIALS, parseConnection } from '../connection.ts';
import { putObject } from './write.ts';
import { ContentDecodingError, readAtMost, readObjectStart, storedEncodings } from './read-start.ts';

const KIB = 1024;
const MAX = 256 * KIB;

function clientFor(url: string, anonymous = false): QsClient {
  return createClient(parseConnection({ endpoint: url, zoneInHost: false, style: 'path', defaultZone: 'pek3a', ...(anonymous ? {} : { credentials: DEMO_CREDENTIALS }) }));
}

describe('a server that ignores Range', () => {
  // Answers every GET with 200 and 2 GiB of text, whatever Range asked for, and counts what it managed to
  // write before the client hung up.
  const TOTAL = 2 * 1024 * 1024 * 1024;
  let server: http.Server;
  let url = '';
  const answers: Array<{ range: string | undefined; written: number; closed: Promise<void> }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const answer = { range: req.headers.range, written: 0, closed: Promise.resolve() };
      answer.closed = new Promise((done) => res.on('close', () => done()));
      answers.push(answer);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(TOTAL), etag: '"x"' });
      const chunk = Buffer.alloc(64 * KIB, 'a');
      const pump = () => {
        while (answer.written < TOTAL && !res.destroyed) {
          answer.written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('reads the first 256 KiB, cancels the body and the server stops writing', async () => {
    const start = await readObjectStart(clientFor(url), { bucket: 'b', key: 'big.txt', maxBytes: MAX });
    expect(start.bytes.byteLength).toBe(MAX);
    expect(start.truncated).toBe(true);
    expect(start.form).toBe('plain');
    const answer = answers.at(-1);
    if (answer === undefined) throw new Error('no request');
    expect(answer.range).toBe(`bytes=0-${MAX - 1}`);
    // The connection closes once the reader cancels; what the server wrote by then is what the socket
    // buffers took, nowhere near the 2 GiB it would have sent.
    await answer.closed;
    expect(answer.written).toBeLessThan(64 * 1024 * 1024);
  });

  it('readAtMost takes at most the limit from any stream and cancels it', async () => {
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(100_000));
      },
      cancel() {
        cancelled = true;
      },
    });
    const read = await readAtMost(stream, 250_000);
    expect(read).toMatchObject({ ended: false });
    expect(read.bytes.byteLength).toBe(250_000);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(4);
  });
});

describe('objects stored with a Content-Encoding', () => {
  let emulator: RunningEmulatorServer;
  let client: QsClient;
  const text = 'hello, compressed world\n'.repeat(20_000);
  // Incompressible: its first 256 KiB stored decompress to less than 256 KiB, and the cut stream then fails.
  const noise = randomBytes(600 * KIB);

  beforeAll(async () => {
    emulator = await startEmulatorServer({ port: 0, seed: 'empty' });
    client = clientFor(emulator.url);
    await putBucket(client, { bucket: 'enc-test', zone: 'pek3a' });
    const put = (key: string, body: Uint8Array<ArrayBuffer> | string, contentEncoding: string) =>
      putObject(client, { bucket: 'enc-test', key, body, metadata: { standard: { 'content-type': 'text/plain', 'content-encoding': contentEncoding }, custom: {} } });
    await put('small.txt.gz', new Uint8Array(gzipSync('tiny')), 'gzip');
    await put('large.txt.gz', new Uint8Array(gzipSync(text)), 'gzip');
    await put('broken.gz', 'this is not gzip data at all', 'gzip');
    await put('large.txt.br', new Uint8Array(brotliCompressSync(text)), 'br');
    await put('noise.gz', new Uint8Array(gzipSync(noise)), 'gzip');
    await put('stored.txt', 'plain bytes behind a bad header', 'x-unknown');
  });

  afterAll(() => emulator.close());

  it('reads a small gzip object decoded, whole', async () => {
    const start = await readObjectStart(client, { bucket: 'enc-test', key: 'small.txt.gz', maxBytes: MAX, contentEncoding: 'gzip' });
    expect(new TextDecoder().decode(start.bytes)).toBe('tiny');
    expect(start).toMatchObject({ truncated: false, form: 'decoded' });
  });

  it('reads the first 256 KiB of a large gzip object\'s decoded text', async () => {
    expect(text.length).toBeGreaterThan(MAX);
    const start = await readObjectStart(client, { bucket: 'enc-test', key: 'large.txt.gz', maxBytes: MAX, contentEncoding: 'gzip' });
    expect(start.bytes.byteLength).toBe(MAX);
    expect(new TextDecoder().decode(start.bytes)).toBe(text.slice(0, MAX));
    expect(start).toMatchObject({ truncated: true, form: 'decoded' });
  });

  it('reads the start of a compressed body cut by the Range: what decompressed before the cut', async () => {
    const start = await readObjectStart(client, { bucket: 'enc-test', key: 'noise.gz', maxBytes: MAX, contentEncoding: 'gzip' });
    expect(start.bytes.byteLength).toBeGreaterThan(200 * KIB);
    expect(start.bytes.byteLength).toBeLessThan(MAX);
    expect(Buffer.from(start.bytes).equals(noise.subarray(0, start.bytes.byteLength))).toBe(true);
    expect(start).toMatchObject({ truncated: true, form: 'decoded' });
  });

  it('br (which the page cannot decompress itself) is read without Range, decoded by the client, cut at 256 KiB', async () => {
    const start = await readObjectStart(client, { bucket: 'enc-test', key: 'large.txt.br', maxBytes: MAX, contentEncoding: 'br' });
    expect(new TextDecoder().decode(start.bytes)).toBe(text.slice(0, MAX));
    expect(start).toMatchObject({ truncated: true, form: 'decoded' });
  });

  it('names the encoding when the bytes cannot be decoded as it says', async () => {
    const failure = await readObjectStart(client, { bucket: 'enc-test', key: 'broken.gz', maxBytes: MAX, contentEncoding: 'gzip' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ContentDecodingError);
    expect(failure).toMatchObject({ encoding: 'gzip' });
  });

  it('reads the stored bytes of an object whose encoding the browser refused, signed only', async () => {
    const start = await readObjectStart(client, { bucket: 'enc-test', key: 'stored.txt', maxBytes: MAX, refused: true });
    expect(new TextDecoder().decode(start.bytes)).toBe('plain bytes behind a bad header');
    expect(start).toMatchObject({ truncated: false, form: 'stored' });
    await expect(readObjectStart(clientFor(emulator.url, true), { bucket: 'enc-test', key: 'stored.txt', maxBytes: MAX, refused: true })).rejects.toBeInstanceOf(ContentDecodingError);
  });

  it('storedEncodings lists the codings, without identity', () => {
    expect(storedEncodings('GZip, identity , br')).toEqual(['gzip', 'br']);
    expect(storedEncodings('')).toEqual([]);
    expect(storedEncodings(undefined)).toEqual([]);
  });
});
