import { describe, expect, it } from 'vitest';
import { formatHttpDate } from '../../src/api/protocol/http-date.ts';
import {
  encodePolicy,
  hmacSha256Base64,
  presignUrl,
  signPolicy,
  signRequest,
  type Credentials,
} from '../../src/api/signing.ts';
import type { QsErrorCode } from '../errors.ts';
import {
  authenticatePostForm,
  authenticateRequest,
  constantTimeEqual,
  decodePolicy,
  type AuthContext,
  type MockUser,
} from './signature.ts';

const alice: MockUser = {
  id: 'usr-alice',
  name: 'alice',
  accessKeyId: 'AKALICE0000000000001',
  secretAccessKey: 'alice-secret-0123456789abcdefghijklmnopqrs',
};
const aliceCreds: Credentials = { accessKeyId: alice.accessKeyId, secretAccessKey: alice.secretAccessKey };
const NOW = new Date(Date.UTC(2025, 4, 6, 12, 0, 0));
const NOW_S = NOW.getTime() / 1000;

function ctx(extra: Partial<AuthContext> = {}): AuthContext {
  return { findUser: (ak) => (ak === alice.accessKeyId ? alice : undefined), now: NOW, ...extra };
}

/** The shape of the QsError a rejected authentication must carry. */
function qs(code: QsErrorCode, status: number) {
  return { name: 'QsError', code, status };
}

/** Signs like the console does and returns the Request the emulator would receive. */
async function signed(
  method: string,
  href: string,
  options: { bucketInHost?: string; headers?: Record<string, string>; now?: Date; creds?: Credentials } = {},
): Promise<Request> {
  const url = new URL(href);
  const headers = new Headers(options.headers);
  await signRequest({
    method,
    url,
    headers,
    bucketInHost: options.bucketInHost,
    credentials: options.creds ?? aliceCreds,
    now: options.now ?? NOW,
  });
  return new Request(url, { method, headers });
}

function withHeaders(request: Request, change: (h: Headers) => void, href = request.url): Request {
  const headers = new Headers(request.headers);
  change(headers);
  return new Request(href, { method: request.method, headers });
}

const UNICODE_KEY = `/mybucket/${['照片 2024', 'שלום "q"', '🌍 a+b=c&d?e#f', "it's (1)*!"].map((s) => encodeURIComponent(s)).join('/')}`;

describe('authenticateRequest: header signature round trips', () => {
  it('accepts path-style requests with a unicode key, metadata and sub-resources', async () => {
    const request = await signed('PUT', `https://pek3a.qingstor.com${UNICODE_KEY}?upload_id=abc&part_number=2&prefix=x`, {
      headers: { 'content-type': 'image/jpeg', 'content-md5': 'XrY7u+Ae7tCTyyK7j1rNww==', 'x-qs-meta-who': ' Ann ' },
    });
    await expect(authenticateRequest(request, ctx())).resolves.toEqual({ kind: 'user', user: alice });
  });

  it('accepts virtual-host requests (object and bucket level) and rejects them under the wrong style', async () => {
    const object = await signed('GET', 'https://mybucket.pek3a.qingstor.com/a%2Fb/%E4%B8%AD?acl', { bucketInHost: 'mybucket' });
    await expect(authenticateRequest(object, ctx({ bucketInHost: 'mybucket' }))).resolves.toMatchObject({ kind: 'user' });
    await expect(authenticateRequest(object, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));

    const bucket = await signed('GET', 'https://mybucket.pek3a.qingstor.com/?prefix=a&stats', { bucketInHost: 'mybucket' });
    await expect(authenticateRequest(bucket, ctx({ bucketInHost: 'mybucket' }))).resolves.toMatchObject({ kind: 'user' });
  });

  it('accepts a Date-only request (no x-qs-date) signed without a blank line', async () => {
    const date = formatHttpDate(NOW);
    const sts = `GET\n\n\n${date}\n/mybucket/k`;
    const sig = await hmacSha256Base64(alice.secretAccessKey, sts);
    const request = new Request('https://pek3a.qingstor.com/mybucket/k', {
      headers: { date, authorization: `QS ${alice.accessKeyId}:${sig}` },
    });
    await expect(authenticateRequest(request, ctx())).resolves.toMatchObject({ kind: 'user' });
    // ref §2.7: the JS SDK's extra blank line is NOT accepted.
    const quirk = await hmacSha256Base64(alice.secretAccessKey, `GET\n\n\n${date}\n\n/mybucket/k`);
    const bad = withHeaders(request, (h) => h.set('authorization', `QS ${alice.accessKeyId}:${quirk}`));
    await expect(authenticateRequest(bad, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
  });

  it('vhost leniency: a bucket-level request that signed /bucket instead of /bucket/ (ref §2.6)', async () => {
    const date = formatHttpDate(NOW);
    for (const [href, resource] of [
      ['https://mybucket.pek3a.qingstor.com/', '/mybucket'],
      ['https://mybucket.pek3a.qingstor.com/?acl', '/mybucket?acl'],
    ] as const) {
      const sig = await hmacSha256Base64(alice.secretAccessKey, `GET\n\n\n\nx-qs-date:${date}\n${resource}`);
      const request = new Request(href, { headers: { 'x-qs-date': date, authorization: `QS ${alice.accessKeyId}:${sig}` } });
      await expect(authenticateRequest(request, ctx({ bucketInHost: 'mybucket' }))).resolves.toMatchObject({ kind: 'user' });
    }
    // The leniency is for the bucket resource only, not for objects.
    const sig = await hmacSha256Base64(alice.secretAccessKey, `GET\n\n\n\nx-qs-date:${date}\n/mybucketk`);
    const object = new Request('https://mybucket.pek3a.qingstor.com/k', {
      headers: { 'x-qs-date': date, authorization: `QS ${alice.accessKeyId}:${sig}` },
    });
    await expect(authenticateRequest(object, ctx({ bucketInHost: 'mybucket' }))).rejects.toMatchObject(qs('signature_not_matched', 401));
  });

  it('signs the raw path: a%2Fb and a/b are different signatures', async () => {
    const request = await signed('GET', 'https://pek3a.qingstor.com/mybucket/a%2Fb');
    const moved = withHeaders(request, () => undefined, 'https://pek3a.qingstor.com/mybucket/a/b');
    await expect(authenticateRequest(moved, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
  });
});

describe('authenticateRequest: failures', () => {
  it('no credentials at all ⇒ anonymous', async () => {
    await expect(authenticateRequest(new Request('https://pek3a.qingstor.com/b/k?expires=5'), ctx())).resolves.toEqual({
      kind: 'anonymous',
    });
  });

  it('malformed Authorization ⇒ signature_not_matched 401', async () => {
    for (const value of ['QS', 'QS AK', 'QS :sig', 'QS AK:', 'AWS AK:sig', 'QS AK:sig extra', '']) {
      const request = new Request('https://pek3a.qingstor.com/b', {
        headers: { authorization: value, 'x-qs-date': formatHttpDate(NOW) },
      });
      await expect(authenticateRequest(request, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
    }
  });

  it('unknown access key ⇒ invalid_access_key_id 401 (checked before the time)', async () => {
    const request = await signed('GET', 'https://pek3a.qingstor.com/b', {
      creds: { accessKeyId: 'NOBODY', secretAccessKey: 'x' },
      now: new Date(0),
    });
    await expect(authenticateRequest(request, ctx())).rejects.toMatchObject(qs('invalid_access_key_id', 401));
  });

  it('wrong secret ⇒ signature_not_matched 401', async () => {
    const request = await signed('GET', 'https://pek3a.qingstor.com/b', {
      creds: { accessKeyId: alice.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    await expect(authenticateRequest(request, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
  });

  it('tampered method, path, sub-resource, header or x-qs-date ⇒ signature_not_matched', async () => {
    const request = await signed('PUT', 'https://pek3a.qingstor.com/mybucket/k?upload_id=u&part_number=1', {
      headers: { 'content-type': 'text/plain', 'x-qs-meta-a': 'b' },
    });
    await expect(authenticateRequest(request, ctx())).resolves.toMatchObject({ kind: 'user' });
    const tampered: Request[] = [
      new Request(request.url, { method: 'POST', headers: request.headers }),
      withHeaders(request, () => undefined, 'https://pek3a.qingstor.com/mybucket/k2?upload_id=u&part_number=1'),
      withHeaders(request, () => undefined, 'https://pek3a.qingstor.com/mybucket/k?upload_id=u&part_number=2'),
      withHeaders(request, () => undefined, 'https://pek3a.qingstor.com/mybucket/k?upload_id=u&part_number=1&acl'),
      withHeaders(request, (h) => h.set('x-qs-meta-a', 'c')),
      withHeaders(request, (h) => h.set('x-qs-storage-class', 'STANDARD_IA')),
      withHeaders(request, (h) => h.set('content-type', 'text/html')),
      withHeaders(request, (h) => h.set('content-md5', 'XrY7u+Ae7tCTyyK7j1rNww==')),
      withHeaders(request, (h) => h.set('x-qs-date', formatHttpDate(new Date(NOW.getTime() + 1000)))),
    ];
    for (const t of tampered) await expect(authenticateRequest(t, ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
    // Parameters that are not sub-resources are not signed (ref §2.3 step 4).
    const listing = withHeaders(request, () => undefined, `${request.url}&prefix=zzz&limit=5`);
    await expect(authenticateRequest(listing, ctx())).resolves.toMatchObject({ kind: 'user' });
  });

  it('15-minute window in both directions, x-qs-date preferred over Date', async () => {
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const MIN = 60_000;
    for (const offset of [-14 * MIN - 59_000, 14 * MIN + 59_000, -15 * MIN, 15 * MIN]) {
      const request = await signed('GET', 'https://pek3a.qingstor.com/b', { now: at(offset) });
      await expect(authenticateRequest(request, ctx())).resolves.toMatchObject({ kind: 'user' });
    }
    for (const offset of [-15 * MIN - 60_000, 15 * MIN + 60_000, -15 * MIN - 1000, 15 * MIN + 1000]) {
      const request = await signed('GET', 'https://pek3a.qingstor.com/b', { now: at(offset) });
      await expect(authenticateRequest(request, ctx())).rejects.toMatchObject(qs('request_expired', 403));
    }
    // A stale Date does not matter when x-qs-date is present and fresh ...
    const fresh = await signed('GET', 'https://pek3a.qingstor.com/b', { headers: { date: formatHttpDate(new Date(0)) } });
    await expect(authenticateRequest(fresh, ctx())).resolves.toMatchObject({ kind: 'user' });
    // ... and a Date-only request is timed by Date.
    const date = formatHttpDate(at(-16 * MIN));
    const sig = await hmacSha256Base64(alice.secretAccessKey, `GET\n\n\n${date}\n/b`);
    const old = new Request('https://pek3a.qingstor.com/b', { headers: { date, authorization: `QS ${alice.accessKeyId}:${sig}` } });
    await expect(authenticateRequest(old, ctx())).rejects.toMatchObject(qs('request_expired', 403));
  });

  it('missing or unparseable date on a header-signed request ⇒ request_expired 403', async () => {
    const request = await signed('GET', 'https://pek3a.qingstor.com/b');
    await expect(authenticateRequest(withHeaders(request, (h) => h.delete('x-qs-date')), ctx())).rejects.toMatchObject(qs('request_expired', 403));
    await expect(authenticateRequest(withHeaders(request, (h) => h.set('x-qs-date', 'yesterday')), ctx())).rejects.toMatchObject(qs('request_expired', 403));
  });

  it('constantTimeEqual compares whole strings', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });
});

describe('authenticateRequest: pre-signed URLs', () => {
  it('round-trips path and virtual-host styles with unicode keys and sub-resources', async () => {
    const path = await presignUrl({
      method: 'GET',
      url: new URL(`https://pek3a.qingstor.com${UNICODE_KEY}?response-content-disposition=${encodeURIComponent('attachment; filename="é.txt"')}`),
      credentials: aliceCreds,
      expires: NOW_S + 60,
    });
    await expect(authenticateRequest(new Request(path), ctx())).resolves.toEqual({ kind: 'user', user: alice });

    const vhost = await presignUrl({
      method: 'PUT',
      url: new URL('https://mybucket.pek3a.qingstor.com/%F0%9F%8C%8D.bin?upload_id=u1&part_number=7'),
      bucketInHost: 'mybucket',
      credentials: aliceCreds,
      expires: NOW_S + 60,
      headers: new Headers({ 'content-type': 'application/octet-stream' }),
    });
    const put = new Request(vhost, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'x' });
    await expect(authenticateRequest(put, ctx({ bucketInHost: 'mybucket' }))).resolves.toMatchObject({ kind: 'user' });
    // The signed headers are part of the signature.
    const other = new Request(vhost, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' });
    await expect(authenticateRequest(other, ctx({ bucketInHost: 'mybucket' }))).rejects.toMatchObject(qs('signature_not_matched', 401));
  });

  it('expiry: valid up to and including `expires`, refused one second later; Date window does not apply', async () => {
    const url = await presignUrl({ method: 'GET', url: new URL('https://pek3a.qingstor.com/b/k'), credentials: aliceCreds, expires: NOW_S + 3600 * 24 * 7 });
    await expect(authenticateRequest(new Request(url), ctx())).resolves.toMatchObject({ kind: 'user' });
    const exact = await presignUrl({ method: 'GET', url: new URL('https://pek3a.qingstor.com/b/k'), credentials: aliceCreds, expires: NOW_S });
    await expect(authenticateRequest(new Request(exact), ctx())).resolves.toMatchObject({ kind: 'user' });
    const expired = await presignUrl({ method: 'GET', url: new URL('https://pek3a.qingstor.com/b/k'), credentials: aliceCreds, expires: NOW_S - 1 });
    await expect(authenticateRequest(new Request(expired), ctx())).rejects.toMatchObject(qs('request_expired', 403));
  });

  it('lifetime: at most 7 days (plus the 15-minute clock allowance) after the server time; later ⇒ invalid_argument 400', async () => {
    const link = (expires: number) => presignUrl({ method: 'GET', url: new URL('https://pek3a.qingstor.com/b/k'), credentials: aliceCreds, expires });
    const week = 7 * 24 * 3600;
    await expect(authenticateRequest(new Request(await link(NOW_S + week + 15 * 60)), ctx())).resolves.toMatchObject({ kind: 'user' });
    for (const expires of [NOW_S + week + 15 * 60 + 1, NOW_S + 100 * 365 * 24 * 3600, 999_999_999_999_999]) {
      const refused = authenticateRequest(new Request(await link(expires)), ctx());
      await expect(refused).rejects.toMatchObject(qs('invalid_argument', 400));
      await expect(refused).rejects.toThrow(/at most 604800 seconds \(7 days\)/);
    }
  });

  it('tampered path, query or expires ⇒ signature_not_matched; unknown key ⇒ invalid_access_key_id', async () => {
    const url = await presignUrl({
      method: 'GET',
      url: new URL('https://pek3a.qingstor.com/b/k?response-content-type=text%2Fplain'),
      credentials: aliceCreds,
      expires: NOW_S + 60,
    });
    const variants = [
      url.href.replace('/b/k', '/b/K'),
      url.href.replace('text%2Fplain', 'text%2Fhtml'),
      `${url.href}&acl`,
      url.href.replace(`expires=${NOW_S + 60}`, `expires=${NOW_S + 61}`),
    ];
    for (const href of variants) await expect(authenticateRequest(new Request(href), ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
    // A raw `+` in the signature is read as `+` (base64 has no spaces), an encoded one as well.
    const rawPlus = url.href.replace(/signature=([^&]*)/, (_, s: string) => `signature=${decodeURIComponent(s).replace(/\//g, '%2F').replace(/=/g, '%3D')}`);
    await expect(authenticateRequest(new Request(rawPlus), ctx())).resolves.toMatchObject({ kind: 'user' });
    const unknown = url.href.replace(`access_key_id=${alice.accessKeyId}`, 'access_key_id=NOBODY');
    await expect(authenticateRequest(new Request(unknown), ctx())).rejects.toMatchObject(qs('invalid_access_key_id', 401));
  });

  it('incomplete query credentials ⇒ signature_not_matched 401', async () => {
    const base = 'https://pek3a.qingstor.com/b/k';
    for (const query of [
      `?access_key_id=${alice.accessKeyId}&expires=${NOW_S}`,
      `?signature=abc&expires=${NOW_S}`,
      `?access_key_id=${alice.accessKeyId}&signature=abc`,
      `?access_key_id=${alice.accessKeyId}&signature=abc&expires=soon`,
      `?access_key_id=&signature=abc&expires=${NOW_S}`,
    ]) {
      await expect(authenticateRequest(new Request(base + query), ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
    }
  });
});

describe('authenticatePostForm (ref §7)', () => {
  const policyFields = { key: 'user/tom/${filename}', redirect: 'http://example.com/callback', 'x-qs-meta-note': '备注' };

  async function form(policy: Record<string, string>, fields: Array<[string, string]>, secret = alice.secretAccessKey) {
    const encoded = encodePolicy(policy);
    return [
      ...fields,
      ['access_key_id', alice.accessKeyId],
      ['policy', encoded],
      ['signature', await signPolicy(encoded, secret)],
    ] satisfies Array<[string, string]>;
  }

  it('no credentials ⇒ anonymous', async () => {
    await expect(authenticatePostForm([['key', 'a.txt']], ctx())).resolves.toEqual({ kind: 'anonymous' });
  });

  it('accepts a form whose fields match the policy exactly (names case-insensitive)', async () => {
    const fields: Array<[string, string]> = [
      ['key', policyFields.key],
      ['Redirect', policyFields.redirect],
      ['X-QS-Meta-Note', policyFields['x-qs-meta-note']],
    ];
    await expect(authenticatePostForm(await form(policyFields, fields), ctx())).resolves.toEqual({ kind: 'user', user: alice });
  });

  it('accepts the V5 policy from ref §2.8 with its own spacing', async () => {
    const policy =
      'eyJrZXkiOiAidXNlci90b20vJHtmaWxlbmFtZX0iLCAicmVkaXJlY3QiOiAiaHR0cDovL2V4YW1wbGUuY29tL2NhbGxiYWNrIn0=';
    const fields: Array<[string, string]> = [
      ['key', 'user/tom/${filename}'],
      ['redirect', 'http://example.com/callback'],
      ['access_key_id', alice.accessKeyId],
      ['policy', policy],
      ['signature', await signPolicy(policy, alice.secretAccessKey)],
    ];
    await expect(authenticatePostForm(fields, ctx())).resolves.toMatchObject({ kind: 'user' });
  });

  it('field not in policy, changed value, missing field or duplicate field ⇒ form_policy_violated 400', async () => {
    const good: Array<[string, string]> = Object.entries(policyFields);
    const cases: Array<Array<[string, string]>> = [
      [...good, ['content-type', 'text/html']],
      good.map(([k, v]) => [k, k === 'key' ? 'user/eve/x' : v]),
      good.filter(([k]) => k !== 'redirect'),
      [...good, ['KEY', policyFields.key]],
    ];
    for (const fields of cases) {
      await expect(authenticatePostForm(await form(policyFields, fields), ctx())).rejects.toMatchObject(qs('form_policy_violated', 400));
    }
  });

  it('policy that is not base64 of a JSON object with string values ⇒ form_policy_violated 400', async () => {
    const toB64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
    for (const policy of ['not base64!', toB64('[1,2]'), toB64('"key"'), toB64('{"key": 5}'), toB64('{oops'), btoa('\xff\xfe{}')]) {
      const fields: Array<[string, string]> = [
        ['access_key_id', alice.accessKeyId],
        ['policy', policy],
        ['signature', await signPolicy(policy, alice.secretAccessKey)],
      ];
      await expect(authenticatePostForm(fields, ctx())).rejects.toMatchObject(qs('form_policy_violated', 400));
    }
    expect(decodePolicy(encodePolicy({ Key: 'k' }))).toEqual(new Map([['key', 'k']]));
  });

  it('bad signature ⇒ signature_not_matched 401; unknown key ⇒ invalid_access_key_id 401', async () => {
    const good: Array<[string, string]> = Object.entries(policyFields);
    await expect(authenticatePostForm(await form(policyFields, good, 'wrong'), ctx())).rejects.toMatchObject(qs('signature_not_matched', 401));
    const unknown = (await form(policyFields, good)).map(([k, v]): [string, string] => [k, k === 'access_key_id' ? 'NOBODY' : v]);
    await expect(authenticatePostForm(unknown, ctx())).rejects.toMatchObject(qs('invalid_access_key_id', 401));
  });

  it('incomplete credential triple ⇒ invalid_request 400', async () => {
    const full = await form(policyFields, Object.entries(policyFields));
    for (const drop of ['access_key_id', 'policy', 'signature']) {
      await expect(authenticatePostForm(full.filter(([k]) => k !== drop), ctx())).rejects.toMatchObject(qs('invalid_request', 400));
    }
  });
});
