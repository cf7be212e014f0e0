import { putBucket } from '../src/api/buckets/operations.ts';
import { corsRuleSchema } from '../src/api/cors/schemas.ts';
import { getBucketCors, putBucketCors } from '../src/api/cors/operations.ts';
import { getObjectUrl } from '../src/api/objects/read.ts';
import { putObject } from '../src/api/objects/write.ts';
import { buildCorsRule } from '../src/api/cors/rule.ts';
import { ConsolePage, expectNoAxeViolations } from './fixtures.ts';
import { connect, expect, fetchFromPage, test, uniqueBucketName } from './support/emulator.ts';

// The CORS diagnosis and fix (the CORS help of the error notice), with real browser CORS enforcement.
//
// What can work from the page: PUT ?cors (and the GET ?cors the fix reads first) are requests to the very
// bucket whose rules are missing, so their preflights are refused like every other call (the emulator
// evaluates only the bucket's rules for bucket-level preflights, as the real service does, ref §5.7/§9.9).
// Hence:
//   - no rule at all for this origin  → the fix cannot be applied from the browser; the console says so and
//     points to other tools; once the exact rule it shows is in place (applied here with a signed call, as
//     the SDK or qsctl would), the listing works;
//   - a rule that already allows GET and PUT from this origin but not everything the console needs (here
//     HEAD) → the console's own "apply" succeeds and the failing view recovers.
// Through the same-origin proxy no CORS rule is needed at all (proxy.spec.ts).

test.use({ expectCorsBlocks: true });

test('no CORS rule: a plain-words diagnosis, the exact rule, an honest apply failure, and listing after the rule is added', async ({ page, emulator, api, pageOrigin }) => {
  const bucket = uniqueBucketName('cors-none');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putObject(api, { zone: 'pek3a', bucket, key: 'hello.txt', body: 'hello, CORS', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
  expect((await getBucketCors(api, { zone: 'pek3a', bucket })).cors_rules).toEqual([]);

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  await expect(page.getByRole('main').getByRole('link', { name: bucket })).toBeVisible();
  emulator.clearRequests();
  await page.getByRole('main').getByRole('link', { name: bucket }).click();

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('network_error_cors', { timeout: 15_000 });
  await expect(alert).toContainText('The browser blocked the answer: this is most likely a missing CORS rule on the bucket.');
  // A listing is signed in its query string, a simple request without a preflight (ref §2.5): it reached
  // the server, which answered it without the CORS headers this origin needs, and the browser hid the answer.
  const toBucket = emulator.requests.filter((r) => r.url.startsWith(`/${bucket}`));
  expect(toBucket.filter((r) => r.method === 'OPTIONS')).toEqual([]);
  expect(toBucket.some((r) => r.method === 'GET' && r.origin === pageOrigin && r.status === 200)).toBe(true);

  await alert.getByRole('button', { name: 'What is CORS and how do I fix it?' }).click();
  const dialog = page.getByRole('dialog', { name: 'The browser blocked the answer (CORS)' });
  await expect(dialog).toContainText(`This console runs at ${pageOrigin}, so bucket ${bucket} needs a rule that allows this origin`);
  const shown = corsRuleSchema.parse(JSON.parse((await dialog.getByTestId('cors-rule').textContent()) ?? 'null'));
  expect(shown).toEqual(buildCorsRule(pageOrigin));
  await expect(dialog).toContainText('it can be blocked for the same CORS reason');
  await expectNoAxeViolations(page);

  await dialog.getByRole('button', { name: `Apply this rule to ${bucket}` }).click();
  const failed = dialog.getByRole('alert');
  await expect(failed).toContainText('The rule could not be applied.', { timeout: 15_000 });
  await expect(failed).toContainText('network_error_cors');
  expect((await getBucketCors(api, { zone: 'pek3a', bucket })).cors_rules).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // Another tool adds exactly the rule the console showed; "Try again" then lists the bucket.
  await putBucketCors(api, { zone: 'pek3a', bucket }, { cors_rules: [shown] });
  await alert.getByRole('button', { name: 'Try again' }).click();
  const qs = new ConsolePage(page);
  await expect(qs.row('hello.txt')).toBeVisible();
  await expect(qs.row('hello.txt')).toContainText('text/plain');

  // The rule is sufficient for the rest of the console too: HEAD with its exposed headers, and a download.
  await qs.row('hello.txt').getByRole('link').click();
  await expect(qs.details).toContainText('11 B (11 bytes)');
  await expect(qs.details).toContainText(/"[0-9a-f]{32}"/);
  await qs.details.getByRole('tab', { name: 'Share' }).click();
  await qs.details.getByRole('button', { name: 'Create download link' }).click();
  const href = await qs.details.getByTestId('download-link').getAttribute('href');
  expect(await page.evaluate(async (u) => (await fetch(u)).text(), href ?? '')).toBe('hello, CORS');
});

test('a rule without HEAD: object details fail, the console applies its own rule, details load, other origins kept', async ({ page, emulator, api, pageOrigin }) => {
  const bucket = uniqueBucketName('cors-part');
  const ref = { zone: 'pek3a', bucket };
  await putBucket(api, ref);
  await putObject(api, { ...ref, key: 'notes/today.txt', body: 'partial rule', metadata: { standard: { 'content-type': 'text/plain; charset=utf-8' }, custom: {} } });
  const otherOrigin = { allowed_origin: 'https://other.example', allowed_methods: ['GET' as const], allowed_headers: ['*'] };
  await putBucketCors(api, ref, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT'], allowed_headers: ['*'], expose_headers: ['x-qs-request-id'] }, otherOrigin],
  });

  await page.goto('/connect');
  await connect(page, { endpoint: emulator.url, remember: true });
  const qs = new ConsolePage(page);
  await page.goto(`/buckets/pek3a/${bucket}?prefix=notes/`);
  await expect(qs.row('today.txt')).toBeVisible();
  await qs.row('today.txt').getByRole('link').click();

  const alert = qs.details.getByRole('alert');
  await expect(alert).toContainText('network_error_cors', { timeout: 15_000 });
  await alert.getByRole('button', { name: 'What is CORS and how do I fix it?' }).click();
  const dialog = page.getByRole('dialog', { name: 'The browser blocked the answer (CORS)' });
  await dialog.getByRole('button', { name: `Apply this rule to ${bucket}` }).click();

  // Applying invalidates the connection's queries: the HEAD runs again, succeeds, and the failure notice
  // (with this dialog inside it) gives way to the details without another click.
  await expect(qs.details).toContainText('text/plain; charset=utf-8', { timeout: 15_000 });
  await expect(qs.details).toContainText('12 B (12 bytes)');
  await expect(qs.details.getByRole('alert')).toHaveCount(0);
  await expect(dialog).toBeHidden();

  // PUT ?cors replaces the whole configuration (ref §9.9): the console's rule replaced the old one for this
  // origin and comes first (the first matching rule decides), the other origin's rule survived.
  const stored = await getBucketCors(api, ref);
  expect(stored.cors_rules).toEqual([buildCorsRule(pageOrigin), otherOrigin]);
  expect(emulator.requests.some((r) => r.method === 'OPTIONS' && r.preflightMethod === 'PUT' && r.url === `/${bucket}?cors` && r.status === 200)).toBe(true);
  expect(emulator.requests.some((r) => r.method === 'PUT' && r.url === `/${bucket}?cors` && r.status === 200 && r.origin === pageOrigin)).toBe(true);
});

test('without a rule the server answers a simple GET but the browser hides the answer', async ({ page, emulator, api, request }) => {
  const bucket = uniqueBucketName('plain');
  await putBucket(api, { zone: 'pek3a', bucket });
  await putObject(api, { zone: 'pek3a', bucket, key: 'a.txt', body: 'plain' });
  const link = await getObjectUrl(api, { zone: 'pek3a', bucket, key: 'a.txt', expiresIn: 300 });
  await page.goto('/connect');
  emulator.clearRequests();
  expect(await fetchFromPage(page, link.href)).toBe('TypeError');
  // A simple GET needs no preflight: it reached the server and succeeded there.
  expect(emulator.requests.filter((r) => r.url.startsWith(`/${bucket}/a.txt?`)).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200']);
  expect((await request.get(link.href)).status()).toBe(200);
});
