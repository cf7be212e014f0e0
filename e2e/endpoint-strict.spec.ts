import { putBucket } from '../src/api/buckets/operations.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import { getObjectUrl } from '../src/api/objects/read.ts';
import { putObject } from '../src/api/objects/write.ts';
import { buildCorsRule } from '../src/api/cors/rule.ts';
import { DEMO_USER } from '../mocks/seed.ts';
import { ConsolePage } from './fixtures.ts';
import { connect, expect, fetchFromPage, test, uniqueBucketName } from './support/emulator.ts';

// Strict CORS on the standalone emulator (ref §9.9 "strict CORS" mode, ref §5.7). Without a
// matching rule, plain mode still answers (200, without CORS headers) and leaves the blocking to the
// browser (endpoint-cors.spec.ts); strict mode refuses the request itself (403), which is what the in-browser demo needs because
// the service worker bypasses CORS. From a real browser both look alike: the page cannot read the answer.
// Service-level calls stay open in both modes (no configurable CORS there, ref §12).

test.use({ expectCorsBlocks: true, emulatorOptions: { seed: 'empty', strictCors: true, users: [DEMO_USER] } });

test('refused preflights and simple requests get 403; the service level and buckets with a rule work', async ({ page, emulator, api, request, pageOrigin }) => {
  const closed = uniqueBucketName('strict-closed');
  const open = uniqueBucketName('strict-open');
  for (const bucket of [closed, open]) {
    await putBucket(api, { zone: 'pek3a', bucket });
    await putObject(api, { zone: 'pek3a', bucket, key: 'a.txt', body: `in ${bucket}` });
  }
  await putBucketCors(api, { zone: 'pek3a', bucket: open }, { cors_rules: [buildCorsRule(pageOrigin)] });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(page.getByRole('main').getByRole('link', { name: closed })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: open })).toBeVisible();

  emulator.clearRequests();
  await page.getByRole('main').getByRole('link', { name: closed }).click();
  await expect(page.getByRole('alert')).toContainText('network_error_cors', { timeout: 15_000 });
  // The listing is a simple request (signed in its query, ref §2.5): no preflight, the server refuses the GET.
  const toClosed = emulator.requests.filter((r) => r.url.startsWith(`/${closed}`));
  expect(toClosed.length).toBeGreaterThan(0);
  expect(toClosed.every((r) => r.method === 'GET' && r.status === 403)).toBe(true);

  // The same simple GET as in plain mode: now the server itself refuses it.
  const link = await getObjectUrl(api, { zone: 'pek3a', bucket: closed, key: 'a.txt', expiresIn: 300 });
  emulator.clearRequests();
  expect(await fetchFromPage(page, link.href)).toBe('TypeError');
  expect(emulator.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 403']);
  // Without Origin (not a browser) the link works.
  expect((await request.get(link.href)).status()).toBe(200);

  await page.goto(`/buckets/pek3a/${open}`);
  const qs = new ConsolePage(page);
  await expect(qs.row('a.txt')).toBeVisible();
  await qs.row('a.txt').getByRole('link').click();
  await expect(qs.details).toContainText(`${`in ${open}`.length} B`);
});
