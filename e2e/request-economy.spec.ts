import { putBucket } from '../src/api/buckets/operations.ts';
import { requestInit } from '../src/api/client.ts';
import { getBucketCors, putBucketCors } from '../src/api/cors/operations.ts';
import { buildCorsRule } from '../src/api/cors/rule.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { putObject } from '../src/api/objects/write.ts';
import { ConsolePage } from './fixtures.ts';
import { endpointBackend } from './metadata-backend.ts';
import { connect, expect, test, uniqueBucketName, type EmulatorHandle } from './support/emulator.ts';

// What the console's requests cost on the wire, in Chromium against the standalone emulator over real HTTP
// (the relay in e2e/support/emulator.ts records every request that reached the server, preflights included):
// reads are signed in their query string and are CORS simple requests (ref §2.5, §5.4), writes keep a
// preflight the browser caches, and a metadata save reads once before its copy and once after.

function methodsTo(emulator: EmulatorHandle, path: string): string[] {
  return emulator.requests.filter((r) => r.url === path || r.url.startsWith(`${path}?`)).map((r) => (r.method === 'OPTIONS' ? `OPTIONS(${r.preflightMethod ?? ''})` : r.method));
}

test('100 HEADs of distinct keys, as the console sends them, cost no preflight; the headers stay readable', async ({ page, emulator, api, pageOrigin }) => {
  const ref = { zone: 'pek3a', bucket: uniqueBucketName('heads') };
  await putBucket(api, ref);
  await putBucketCors(api, ref, { cors_rules: [buildCorsRule(pageOrigin)] });
  const keys = Array.from({ length: 100 }, (_, i) => `many/${String(i).padStart(3, '0')}.txt`);
  for (const key of keys) emulator.server.store.putObject(ref.bucket, key, { body: new TextEncoder().encode(key), metadata: { standard: { 'cache-control': 'max-age=3600' }, custom: { n: key } } });
  // The requests exactly as the console's client prepares and sends them (client.ts prepare + requestInit).
  const heads = await Promise.all(keys.map(async (key) => {
    const prepared = await api.prepare({ operation: 'HeadObject', method: 'HEAD', ...ref, key });
    const init = requestInit(prepared);
    return { url: prepared.url.href, init: { method: init.method, cache: init.cache, credentials: init.credentials, headers: [...prepared.headers] } };
  }));
  await page.goto('/connect');
  emulator.clearRequests();
  const seen = await page.evaluate(async (requests) => {
    const out: string[] = [];
    for (const { url, init } of requests) {
      const response = await fetch(url, init);
      out.push(`${response.status} ${response.headers.get('x-qs-meta-n') ?? 'hidden'}`);
    }
    return out;
  }, heads);
  expect(seen).toEqual(keys.map((key) => `200 ${key}`));
  const reached = emulator.requests.filter((r) => r.url.startsWith(`/${ref.bucket}/`));
  expect(reached.filter((r) => r.method === 'HEAD')).toHaveLength(100);
  expect(reached.filter((r) => r.method === 'OPTIONS').length).toBeLessThanOrEqual(1);
  expect(reached.every((r) => r.headers.authorization === undefined && r.headers['x-qs-date'] === undefined)).toBe(true);
});

test('browsing, details and a text preview send no preflight; reads are never answered from the browser cache', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = 'notes/cached.txt';
  await backend.put(key, { standard: { 'content-type': 'text/plain', 'cache-control': 'public, max-age=3600' }, custom: {} }, 'first version');
  await backend.open('/buckets');
  emulator.clearRequests();
  await backend.open(backend.path(`prefix=notes/&object=${encodeURIComponent(key)}`));
  const qs = new ConsolePage(page);
  await expect(qs.row('cached.txt')).toBeVisible();
  await qs.details.getByRole('tab', { name: 'Preview' }).click();
  await expect(qs.details.getByTestId('preview-text')).toHaveText('first version');
  const toBucket = emulator.requests.filter((r) => r.url.startsWith(`/${backend.bucket}`));
  expect(toBucket.map((r) => r.method)).toEqual(expect.arrayContaining(['GET', 'HEAD']));
  expect(toBucket.filter((r) => r.method === 'OPTIONS')).toEqual([]);
  // The preview's Range went along, as the one header a read keeps (a CORS-safelisted simple range).
  expect(toBucket.some((r) => r.method === 'GET' && r.url.startsWith(`/${backend.bucket}/${key}?`) && r.headers.range === 'bytes=0-262143')).toBe(true);

  // Freshness: one signed URL (same second, same signature) read twice, the object rewritten in between,
  // and it replays `Cache-Control: public, max-age=3600`. With the console's request init the second read
  // is the new body; with the browser's default cache mode it would be the old one from the cache.
  const prepared = await api.prepare({ operation: 'GetObject', method: 'GET', zone: backend.zone, bucket: backend.bucket, key });
  const init = requestInit(prepared);
  const read = (mode: RequestCache | undefined) => page.evaluate(async ({ url, cache }) => (await fetch(url, { cache, credentials: 'omit' })).text(), { url: prepared.url.href, cache: mode });
  expect(await read(init.cache)).toBe('first version');
  expect(await read('default')).toBe('first version');
  await backend.put(key, { standard: { 'content-type': 'text/plain', 'cache-control': 'public, max-age=3600' }, custom: {} }, 'second version');
  expect(await read(init.cache)).toBe('second version');
  expect(await read('default'), 'the control: a cache-mode read is stale, so the check above can fail').toBe('first version');
});

test('one metadata save: HEAD, the copy, the read-back HEAD; the copy\'s preflight is paid once and cached', async ({ page, emulator, api, pageOrigin }) => {
  const backend = await endpointBackend(page, emulator, api, pageOrigin);
  const key = 'docs/save-me.txt';
  // Written a minute ago, so the save has no second of Last-Modified to wait out (and read again after).
  emulator.server.store.bulkLoad(backend.bucket, [{ key, body: new TextEncoder().encode('body'), contentType: 'text/plain', custom: { a: '1' }, lastModified: new Date(Date.now() - 60_000) }]);
  const objectPath = `/${backend.bucket}/${key}`;
  await backend.open(backend.path(`prefix=docs/&object=${encodeURIComponent(key)}&edit=1`));
  const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });

  const saveWith = async (cacheControl: string): Promise<string[]> => {
    await dialog.getByLabel('Cache-Control', { exact: true }).fill(cacheControl);
    await dialog.getByRole('button', { name: 'Review changes' }).click();
    await expect(dialog.getByTestId('metadata-diff')).toBeVisible();
    emulator.clearRequests();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();
    // The details take the save's read-back; only the listing is read again (not the object).
    await expect.poll(() => emulator.requests.some((r) => r.method === 'GET' && r.url.startsWith(`/${backend.bucket}?`))).toBe(true);
    return methodsTo(emulator, objectPath);
  };

  expect(await saveWith('no-cache')).toEqual(['HEAD', 'OPTIONS(PUT)', 'PUT', 'HEAD']);
  expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain', 'cache-control': 'no-cache' }, custom: { a: '1' } });

  // Edit again from the saved result: the object was just written, so this save waits for the next second
  // and reads once more before its copy; the copy's preflight comes from the browser's cache (max-age 600).
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await page.goto(backend.path(`prefix=docs/&object=${encodeURIComponent(key)}&edit=1`));
  const second = await saveWith('no-store');
  expect(second.filter((m) => m.startsWith('OPTIONS'))).toEqual([]);
  expect(second.filter((m) => m === 'PUT')).toHaveLength(1);
  expect(await backend.head(key)).toEqual({ standard: { 'content-type': 'text/plain', 'cache-control': 'no-store' }, custom: { a: '1' } });
});

test('"Apply this rule" on a bucket whose wildcard rule hides headers: the console\'s rule goes first, the save works, the wildcard rule stays', async ({ page, emulator, api, pageOrigin }) => {
  const ref = { zone: 'pek3a', bucket: uniqueBucketName('wildcard') };
  await putBucket(api, ref);
  const wildcard = { allowed_origin: '*', allowed_methods: ['GET' as const, 'PUT' as const, 'POST' as const, 'DELETE' as const, 'HEAD' as const], allowed_headers: ['*'], expose_headers: ['ETag', 'x-qs-request-id'], max_age_seconds: 60 };
  await putBucketCors(api, ref, { cors_rules: [wildcard] });
  const key = 'docs/download-me.txt';
  const original: ObjectMetadata = { standard: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="download-me.txt"' }, custom: {} };
  await putObject(api, { ...ref, key, body: 'x', metadata: original });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, zones: 'pek3a', remember: true });
  await page.goto(`/buckets/pek3a/${ref.bucket}?prefix=docs/&object=${encodeURIComponent(key)}&edit=1`);
  const dialog = page.getByRole('dialog', { name: `Edit metadata of ${key}` });
  await dialog.getByLabel('Cache-Control', { exact: true }).fill('no-cache');
  await dialog.getByRole('button', { name: 'Review changes' }).click();
  const warning = dialog.getByTestId('visibility-warning');
  await expect(warning.getByRole('listitem').filter({ hasText: 'content-disposition' })).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();

  await warning.getByRole('button', { name: `Apply this rule to ${ref.bucket}` }).click();
  await expect(dialog.getByText('The object was read again with every header visible.', { exact: false })).toBeVisible();
  await expect(dialog.getByTestId('visibility-warning')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved', { exact: true })).toBeVisible();

  const stored = await getBucketCors(api, ref);
  expect(stored.cors_rules).toEqual([buildCorsRule(pageOrigin), wildcard]);
  const head = await api.send({ operation: 'HeadObject', method: 'HEAD', ...ref, key });
  expect(head.headers.get('content-disposition')).toBe('attachment; filename="download-me.txt"');
  expect(head.headers.get('cache-control')).toBe('no-cache');
});
