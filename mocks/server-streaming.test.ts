/**
 * Bodies stream through the standalone server: the object size cap holds for bodies of unknown length
 * (chunked) while they arrive, and the answer comes before the client has sent the rest.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp, signedHeaders } from './server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './server-options.ts';
import { startEmulatorServer, type RunningEmulatorServer } from './server.ts';

const demo = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
const bucket = 'streaming-bucket';
const MAX = 1024 * 1024;

interface Sent {
  status: number;
  code: unknown;
  /** Bytes the client had written when the answer arrived. */
  sent: number;
}

describe('streamed bodies', () => {
  let server: RunningEmulatorServer;
  let port = 0;

  async function headersFor(method: string, target: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return signedHeaders({ method, host: `127.0.0.1:${port}`, pathAndQuery: target, credentials: demo, headers: extra });
  }

  /** Sends up to `total` bytes chunked, stopping as soon as an answer arrives. */
  function sendChunked(method: string, target: string, headers: Record<string, string>, total: number): Promise<Sent> {
    return new Promise((resolve, reject) => {
      const state = { answered: false, sent: 0 };
      const req = http.request({ host: '127.0.0.1', port, method, path: target, agent: false, headers: { ...headers, 'transfer-encoding': 'chunked' } });
      req.on('response', (res) => {
        state.answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, code: text === '' ? undefined : JSON.parse(text).code, sent: state.sent });
        });
      });
      req.on('error', (error) => {
        if (!state.answered) reject(error);
      });
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = (): void => {
        while (!state.answered && state.sent < total) {
          state.sent += chunk.byteLength;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!state.answered) req.end();
      };
      pump();
    });
  }

  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0, seed: 'empty', maxObjectSize: MAX, minPartSize: 1 });
    port = server.port;
    const created = await rawHttp({ port, method: 'PUT', target: `/${bucket}`, headers: await headersFor('PUT', `/${bucket}`) });
    if (created.status !== 201) throw new Error(`PutBucket gave ${created.status}`);
  });

  afterAll(async () => {
    await server.close();
  });

  it('refuses a chunked PUT, part and append once they pass the size cap, before the client is done', async () => {
    const init = await rawHttp({ port, method: 'POST', target: `/${bucket}/mp?uploads`, headers: await headersFor('POST', `/${bucket}/mp?uploads`) });
    const uploadId = String((JSON.parse(init.body.toString()) as { upload_id: unknown }).upload_id);
    for (const [method, target] of [
      ['PUT', `/${bucket}/too-big`],
      ['PUT', `/${bucket}/mp?part_number=1&upload_id=${uploadId}`],
      ['POST', `/${bucket}/appended?append&position=0`],
    ] as const) {
      const result = await sendChunked(method, target, await headersFor(method, target), 256 * MAX);
      expect(result.status).toBe(400);
      expect(result.code).toBe('entity_too_large');
      expect(result.sent).toBeLessThan(64 * MAX);
    }
    for (const key of ['too-big', 'appended']) {
      const head = await rawHttp({ port, method: 'HEAD', target: `/${bucket}/${key}`, headers: await headersFor('HEAD', `/${bucket}/${key}`) });
      expect(head.status).toBe(404);
    }
    expect(server.store.listParts(bucket, 'mp', uploadId, {}).count).toBe(0);
  });

  it('accepts a chunked body of exactly the cap', async () => {
    const target = `/${bucket}/at-cap`;
    const result = await sendChunked('PUT', target, await headersFor('PUT', target), MAX);
    expect(result.status).toBe(201);
    expect(server.store.getObject(bucket, 'at-cap').size).toBe(MAX);
  });
});
