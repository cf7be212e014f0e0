import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { signRequest } from '../src/api/signing.ts';
import { DEMO_USER } from './emulator.ts';
import { setupEmulatorServer, type EmulatorServer } from './node.ts';

let env: EmulatorServer;
const credentials = { accessKeyId: DEMO_USER.accessKeyId, secretAccessKey: DEMO_USER.secretAccessKey };

beforeAll(async () => {
  env = await setupEmulatorServer({ seed: 'empty', domains: ['qingstor.local'] });
  env.server.listen({ onUnhandledFrame: 'error' });
});
afterAll(() => env.server.close());

async function signedFetch(method: string, url: string, body?: Uint8Array, extra: Record<string, string> = {}, bucketInHost?: string): Promise<Response> {
  const headers = new Headers(extra);
  const target = new URL(url);
  await signRequest({ method, url: target, headers, credentials, ...(bucketInHost ? { bucketInHost } : {}) });
  return fetch(target, { method, headers, ...(body ? { body: new Blob([new Uint8Array(body)]) } : {}) });
}

describe('setupServer adapter (mocks/node.ts)', () => {
  it('answers global fetch for the configured domain', async () => {
    expect((await signedFetch('PUT', 'http://pek3a.qingstor.local/node-bucket')).status).toBe(201);
    const put = await signedFetch('PUT', 'http://pek3a.qingstor.local/node-bucket/%E4%B8%AD.txt', new TextEncoder().encode('via fetch'), { 'content-type': 'text/plain' });
    expect(put.status).toBe(201);
    const get = await signedFetch('GET', 'http://node-bucket.pek3a.qingstor.local/%E4%B8%AD.txt', undefined, {}, 'node-bucket');
    expect(get.status).toBe(200);
    expect(get.headers.get('server')).toBe('QingStor');
    expect(await get.text()).toBe('via fetch');
    expect(env.emulator.store.getObject('node-bucket', '中.txt').contentType).toBe('text/plain');
  });

  it('answers node:http requests too, HEAD without a body', async () => {
    const url = new URL('http://pek3a.qingstor.local/node-bucket/%E4%B8%AD.txt');
    const headers = new Headers();
    await signRequest({ method: 'HEAD', url, headers, credentials });
    const result = await new Promise<{ status: number; length: string | undefined; body: string }>((resolve, reject) => {
      // Through the module object: msw patches http.request after this file's imports were bound.
      const req = http.request(url, { method: 'HEAD', headers: Object.fromEntries(headers) }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(result).toEqual({ status: 200, length: '9', body: '' });
  });
});
