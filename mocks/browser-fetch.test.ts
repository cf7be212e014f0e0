import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { countPrefix } from '../src/api/objects/count-queries.ts';
import { headObject } from '../src/api/objects/read.ts';
import { interceptDemoFetch, type DemoFetchInterception } from './browser-fetch.ts';
import { createEmulator } from './emulator.ts';

/**
 * Demo mode's in-page fetch: the console's own client, unchanged, talks to the demo emulator through the
 * page's `fetch`, which answers the demo domain itself and hands everything else to the real fetch.
 */

const DOMAIN = 'qingstor.invalid';
let interception: DemoFetchInterception | undefined;
afterEach(() => {
  interception?.dispose();
  interception = undefined;
});

async function demo() {
  const emulator = await createEmulator({ seed: 'demo', domains: [DOMAIN], defaultZone: 'pek3a' });
  const answered: string[] = [];
  interception = interceptDemoFetch((request) => {
    answered.push(`${request.method} ${new URL(request.url).pathname}`);
    return emulator.respond(request);
  }, DOMAIN);
  return { emulator, answered, client: createClient(DEMO_CONNECTION) };
}

describe('interceptDemoFetch', () => {
  it('answers the console\'s signed reads and writes to the demo domain in the page, with every header readable', async () => {
    const { client, answered } = await demo();
    const head = await headObject(client, { zone: 'pek3a', bucket: 'demo-documents', key: 'reports/readme.md' });
    expect(head.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(head.requestId).toMatch(/^[0-9a-f]{16}$/);
    const counted = await countPrefix(client, { zone: 'sh1a', bucket: 'demo-archive', prefix: 'logs/2024/01/0' });
    expect(counted.count).toBe(9 * 400);
    expect(answered[0]).toBe('HEAD /demo-documents/reports/readme.md');
    expect(answered.length).toBeGreaterThan(36);
  });

  it('leaves every other URL to the real fetch, and puts that fetch back on dispose', async () => {
    const native = globalThis.fetch;
    await demo();
    expect(globalThis.fetch).not.toBe(native);
    // A name that never resolves: the real fetch fails, the demo emulator was not asked.
    await expect(fetch('https://example.invalid/x')).rejects.toThrow(TypeError);
    interception?.dispose();
    expect(globalThis.fetch).toBe(native);
  });

  it('an aborted request rejects with the reason, as fetch does, and a refused signature is a QingStor error', async () => {
    const { client } = await demo();
    const controller = new AbortController();
    const reason = new DOMException('stopped', 'AbortError');
    controller.abort(reason);
    await expect(headObject(client, { zone: 'pek3a', bucket: 'demo-documents', key: 'reports/readme.md' }, { signal: controller.signal })).rejects.toBe(reason);
    const wrong = createClient({ ...DEMO_CONNECTION, credentials: { accessKeyId: DEMO_CONNECTION.credentials?.accessKeyId ?? '', secretAccessKey: 'not-the-secret' } });
    await expect(headObject(wrong, { zone: 'pek3a', bucket: 'demo-documents', key: 'reports/readme.md' })).rejects.toMatchObject({ name: 'ApiError', status: 401 });
  });
});
