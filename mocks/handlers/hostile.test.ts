/**
 * The emulator against a hostile client (audit): malformed credentials and parameters, odd Range and If-*
 * values, broken JSON bodies, malformed copy sources, boundary keys, odd paths and methods. Every answer must
 * be a QingStor error envelope (ref §4, §11.1) with the documented status — never a 500 — and a refused
 * write must leave the store exactly as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/api/signing.ts';
import type { Emulator } from '../emulator.ts';
import {
  buildRequest,
  createBucket,
  encodeKeyPath,
  errorOf,
  jsonOf,
  md5Base64,
  md5Hex,
  OWNER,
  putText,
  send,
  sendRequest,
  STRANGER,
  testEmulator,
} from './test-utils.ts';

let em: Emulator;
const B = 'hostile-bucket';

/** Every key of the bucket, straight from the store (the oracle for "nothing was written"). */
function keysOf(bucket = B): string[] {
  return em.store.listObjects(bucket, { limit: 1000 }).keys.map((o) => o.key);
}

interface Refusal {
  status: number;
  code: string | undefined;
  /** Server header, 16-hex request id equal to the body's request_id, JSON content type (ref §4, §11.1). */
  shaped: boolean;
}

/** What a client sees of an error response, for `expect(await refusal(r)).toEqual(qs(400, 'code'))`. */
async function refusal(response: Response): Promise<Refusal> {
  const headersOk =
    response.headers.get('server') === 'QingStor' &&
    /^[0-9a-f]{16}$/.test(response.headers.get('x-qs-request-id') ?? '') &&
    response.headers.get('content-type') === 'application/json';
  const { status, code, requestIdMatches } = await errorOf(response);
  return { status, code, shaped: headersOk && requestIdMatches };
}

function qs(status: number, code: string): Refusal {
  return { status, code, shaped: true };
}

beforeAll(async () => {
  em = await testEmulator({ maxObjectSize: 64 });
  await createBucket(em, B);
  await createBucket(em, 'hostile-pek3b', 'pek3b');
  await putText(em, B, 'hello.txt', 'hello world', { 'content-type': 'text/plain' });
});

describe('malformed credentials (ref §2, §12)', () => {
  const bad = ['garbage', '', 'QS ', 'QS :sig', 'QS key:', 'QS key sig', 'AWS TESTOWNERACCESSKEY01:abc=', 'QS a:b, QS c:d', 'qs TESTOWNERACCESSKEY01:abc='];
  for (const authorization of bad) {
    it(`Authorization ${JSON.stringify(authorization)} ⇒ 401 signature_not_matched, nothing written`, async () => {
      const r = await send(em, 'PUT', `/${B}/auth-probe`, { as: 'anonymous', body: 'x', headers: { authorization, 'x-qs-date': new Date().toUTCString() } });
      expect(await refusal(r)).toEqual(qs(401, 'signature_not_matched'));
      expect(keysOf()).not.toContain('auth-probe');
    });
  }

  it('a second Authorization header (joined by fetch with ", ") is malformed, not a second chance', async () => {
    const request = await buildRequest('GET', `/${B}/hello.txt`);
    request.headers.append('authorization', `QS ${OWNER.accessKeyId}:AAAA`);
    expect(await refusal(await sendRequest(em, request))).toEqual(qs(401, 'signature_not_matched'));
  });

  it('a repeated x-qs-date is no date at all ⇒ 403 request_expired', async () => {
    const request = await buildRequest('GET', `/${B}/hello.txt`);
    request.headers.append('x-qs-date', request.headers.get('x-qs-date') ?? '');
    expect(await refusal(await sendRequest(em, request))).toEqual(qs(403, 'request_expired'));
  });

  it('a pre-signed URL with a non-numeric, negative or huge expires ⇒ 401 signature_not_matched', async () => {
    for (const expires of ['soon', '-1', '1e10', '9999999999999999']) {
      const r = await send(em, 'GET', `/${B}/hello.txt?access_key_id=${OWNER.accessKeyId}&expires=${expires}&signature=abc`, { as: 'anonymous' });
      expect(await refusal(r)).toEqual(qs(401, 'signature_not_matched'));
    }
  });
});

describe('numeric query parameters (ref §4 invalid_argument)', () => {
  const malformed = ['-1', 'abc', '1.5', '1e3', '0x10', '99999999999999999999', ' 5', '+5'];
  let uploadId = '';
  beforeAll(async () => {
    const r = await send(em, 'POST', `/${B}/mp-probe?uploads`);
    uploadId = String((await jsonOf(r) as { upload_id: string }).upload_id);
  });

  for (const value of malformed) {
    const v = encodeURIComponent(value);
    it(`${JSON.stringify(value)} as limit/offset/part_number/part_number_marker/position ⇒ 400 invalid_argument`, async () => {
      expect(await refusal(await send(em, 'GET', `/${B}?limit=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'GET', `/${B}?uploads&limit=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'GET', `https://qingstor.com/?offset=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'GET', `https://qingstor.com/?limit=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'GET', `/${B}/mp-probe?upload_id=${uploadId}&limit=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'GET', `/${B}/mp-probe?upload_id=${uploadId}&part_number_marker=${v}`))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'PUT', `/${B}/mp-probe?upload_id=${uploadId}&part_number=${v}`, { body: 'x' }))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'POST', `/${B}/append-probe?append&position=${v}`, { body: 'x' }))).toEqual(qs(400, 'invalid_argument'));
    });
  }

  it('refused parts and appends leave nothing behind', async () => {
    const parts = await jsonOf(await send(em, 'GET', `/${B}/mp-probe?upload_id=${uploadId}`));
    expect(parts).toEqual({ count: 0, object_parts: [] });
    expect(keysOf()).not.toContain('append-probe');
  });

  it('part_number 10001 is out of range, 0 and 10000 are fine (ref §8.2)', async () => {
    expect(await refusal(await send(em, 'PUT', `/${B}/mp-probe?upload_id=${uploadId}&part_number=10001`, { body: 'x' }))).toEqual(qs(400, 'invalid_argument'));
    expect((await send(em, 'PUT', `/${B}/mp-probe?upload_id=${uploadId}&part_number=0`, { body: 'x' })).status).toBe(201);
    expect((await send(em, 'PUT', `/${B}/mp-probe?upload_id=${uploadId}&part_number=10000`, { body: 'x' })).status).toBe(201);
  });

  it('a huge but well-formed limit is clamped, not refused; 0 means the default', async () => {
    const big = (await jsonOf(await send(em, 'GET', `/${B}?limit=5000`))) as { limit: number };
    expect(big.limit).toBe(100);
    const zero = (await jsonOf(await send(em, 'GET', `/${B}?limit=0`))) as { limit: number };
    expect(zero.limit).toBe(100);
    const parts = await send(em, 'GET', `/${B}/mp-probe?upload_id=${uploadId}&limit=5000`);
    expect(parts.status).toBe(200);
  });
});

describe('Range edge cases (ref §3)', () => {
  beforeAll(async () => {
    await putText(em, B, 'empty', '');
  });
  it('bytes=0-0 is the first byte', async () => {
    const r = await send(em, 'GET', `/${B}/hello.txt`, { headers: { range: 'bytes=0-0' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe('bytes 0-0/11');
    expect(await r.text()).toBe('h');
  });
  it('an end far beyond the object (even beyond 2^53) is clamped', async () => {
    const r = await send(em, 'GET', `/${B}/hello.txt`, { headers: { range: 'bytes=6-99999999999999999999999' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe('bytes 6-10/11');
    expect(await r.text()).toBe('world');
  });
  for (const range of ['bytes=-0', 'bytes=5-2', 'bytes=0-0,2-3', 'bytes=11-', 'bytes=99999999999999999999-', 'bytes=a-b', 'bytes 0-1', 'bytes=--1', 'bytes=1-2-3']) {
    it(`${range} ⇒ 416 invalid_range`, async () => {
      expect(await refusal(await send(em, 'GET', `/${B}/hello.txt`, { headers: { range } }))).toEqual(qs(416, 'invalid_range'));
    });
  }
  it('no range of an empty object can be satisfied', async () => {
    for (const range of ['bytes=0-', 'bytes=0-0', 'bytes=-1']) {
      expect(await refusal(await send(em, 'GET', `/${B}/empty`, { headers: { range } }))).toEqual(qs(416, 'invalid_range'));
    }
    expect((await send(em, 'GET', `/${B}/empty`)).status).toBe(200);
  });
  it('a failed conditional wins over a bad Range (conditions come first, ref §5.4)', async () => {
    const r = await send(em, 'GET', `/${B}/hello.txt`, { headers: { range: 'bytes=5-2', 'if-match': '"nope"' } });
    expect(await refusal(r)).toEqual(qs(412, 'precondition_failed'));
  });
});

describe('If-* with odd ETag forms (ref §5.4: quotes and W/ ignored)', () => {
  const etag = md5Hex('hello world');
  const matching = [`"${etag}"`, etag, `W/"${etag}"`, `"other", "${etag}"`, `"other",${etag}`, '*'];
  for (const value of matching) {
    it(`If-Match ${value} ⇒ 200; If-None-Match ${value} ⇒ 304 with ETag and no body`, async () => {
      expect((await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-match': value } })).status).toBe(200);
      const r = await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-none-match': value } });
      expect(r.status).toBe(304);
      expect(r.headers.get('etag')).toBe(`"${etag}"`);
      expect(await r.text()).toBe('');
    });
  }
  for (const value of ['"other"', `"${etag.toUpperCase()}x"`, '""', ',', `W/"other", "x"`]) {
    it(`If-Match ${JSON.stringify(value)} ⇒ 412; If-None-Match ⇒ 200`, async () => {
      expect(await refusal(await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-match': value } }))).toEqual(qs(412, 'precondition_failed'));
      expect((await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-none-match': value } })).status).toBe(200);
    });
  }
  it('If-*-Since values that are no HTTP-date are ignored (RFC 9110 §13.1.3), even ones Date.parse reads', async () => {
    for (const value of ['yesterday', '0', '1', '2000', '2000-01-01']) {
      expect((await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-modified-since': value } })).status).toBe(200);
      expect((await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-unmodified-since': value } })).status).toBe(200);
    }
  });
  it('all three HTTP-date forms are honoured (IMF-fixdate, RFC 850, asctime)', async () => {
    for (const value of ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994']) {
      expect(await refusal(await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-unmodified-since': value } }))).toEqual(qs(412, 'precondition_failed'));
      expect((await send(em, 'GET', `/${B}/hello.txt`, { headers: { 'if-modified-since': value } })).status).toBe(200);
    }
  });
});

describe('JSON bodies: invalid_json vs invalid_request (ref §4), and nothing stored when refused', () => {
  const notJson = ['', '{', 'nul', '{"acl": [}', '\u0000'];
  const wrongShape = ['null', '[]', '"x"', '42', 'true'];

  it('PUT ?acl', async () => {
    for (const body of notJson) expect(await refusal(await send(em, 'PUT', `/${B}?acl`, { body }))).toEqual(qs(400, 'invalid_json'));
    for (const body of [...wrongShape, '{}', '{"acl":"x"}', '{"acl":[{"grantee":{"type":"user"},"permission":"READ"}]}',
      '{"acl":[{"grantee":{"type":"group","name":"EVERYONE"},"permission":"READ"}]}',
      '{"acl":[{"grantee":{"type":"user","id":"usr-x"},"permission":"read"}]}',
      '{"acl":[{"grantee":{"type":"user","id":7},"permission":"READ"}]}']) {
      expect(await refusal(await send(em, 'PUT', `/${B}?acl`, { body }))).toEqual(qs(400, 'invalid_request'));
    }
    expect(em.store.getBucket(B).acl).toEqual([]);
  });

  it('PUT ?acl ignores unknown fields and never stores them', async () => {
    const body = JSON.stringify({ acl: [{ grantee: { type: 'user', id: STRANGER.id, evil: 1 }, permission: 'READ', extra: true }], extra: 'x' });
    expect((await send(em, 'PUT', `/${B}?acl`, { body })).status).toBe(200);
    const acl = await jsonOf(await send(em, 'GET', `/${B}?acl`));
    expect(JSON.stringify(acl)).not.toMatch(/evil|extra/);
    expect((await send(em, 'PUT', `/${B}?acl`, { body: '{"acl":[]}' })).status).toBe(200);
  });

  it('PUT ?cors', async () => {
    for (const body of notJson) expect(await refusal(await send(em, 'PUT', `/${B}?cors`, { body }))).toEqual(qs(400, 'invalid_json'));
    for (const body of [...wrongShape, '{}', '{"cors_rules":{}}', '{"cors_rules":[{"allowed_origin":"*","allowed_methods":["PATCH"]}]}',
      '{"cors_rules":[{"allowed_origin":"*","allowed_methods":[]}]}', '{"cors_rules":[{"allowed_origin":"","allowed_methods":["GET"]}]}',
      '{"cors_rules":[{"allowed_origin":"*","allowed_methods":["GET"],"max_age_seconds":-1}]}',
      '{"cors_rules":[{"allowed_origin":"*","allowed_methods":["GET"],"max_age_seconds":1.5}]}',
      '{"cors_rules":[{"allowed_origin":"*","allowed_methods":["GET"],"max_age_seconds":"5"}]}',
      '{"cors_rules":[],"resp_vary":"sometimes"}']) {
      expect(await refusal(await send(em, 'PUT', `/${B}?cors`, { body }))).toEqual(qs(400, 'invalid_request'));
    }
    expect(em.store.getBucket(B).cors).toBeNull();
    const extra = '{"cors_rules":[{"allowed_origin":"*","allowed_methods":["get"],"evil":1}],"extra":2}';
    expect((await send(em, 'PUT', `/${B}?cors`, { body: extra })).status).toBe(200);
    expect(await jsonOf(await send(em, 'GET', `/${B}?cors`))).toEqual({ cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET'] }] });
    expect((await send(em, 'DELETE', `/${B}?cors`)).status).toBe(204);
  });

  it('PUT ?policy', async () => {
    for (const body of notJson) expect(await refusal(await send(em, 'PUT', `/${B}?policy`, { body }))).toEqual(qs(400, 'invalid_json'));
    const st = (s: Record<string, unknown>) => JSON.stringify({ statement: [{ id: 's1', user: '*', action: 'get_object', effect: 'allow', resource: [`${B}/*`], ...s }] });
    for (const body of [...wrongShape, '{}', '{"statement":{}}', st({ id: '' }), st({ id: 'x'.repeat(101) }), st({ effect: 'maybe' }),
      st({ user: [] }), st({ action: 5 }), st({ condition: 'x' }),
      JSON.stringify({ statement: [{ id: 'a', user: '*', action: '*', effect: 'deny' }, { id: 'a', user: '*', action: '*', effect: 'deny' }] })]) {
      expect(await refusal(await send(em, 'PUT', `/${B}?policy`, { body }))).toEqual(qs(400, 'invalid_request'));
    }
    expect(em.store.getBucket(B).policy).toBeNull();
    // __proto__ in the document must neither pollute prototypes nor break the verbatim round trip.
    const proto = '{"__proto__":{"polluted":true},"statement":[]}';
    expect((await send(em, 'PUT', `/${B}?policy`, { body: proto })).status).toBe(200);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((await send(em, 'GET', `/${B}?policy`)).status).toBe(200);
    expect((await send(em, 'DELETE', `/${B}?policy`)).status).toBe(204);
  });

  it('POST ?delete (Content-MD5 is checked before the JSON is parsed)', async () => {
    await putText(em, B, 'keep-me', 'x');
    const post = (body: string) => send(em, 'POST', `/${B}?delete`, { body, headers: { 'content-md5': md5Base64(body) } });
    for (const body of notJson) expect(await refusal(await post(body))).toEqual(qs(400, 'invalid_json'));
    for (const body of [...wrongShape, '{}', '{"objects":{}}', '{"objects":[{"key":5}]}', '{"objects":[{"key":""}]}', '{"objects":["keep-me"]}',
      '{"quiet":"yes","objects":[{"key":"keep-me"}]}']) {
      expect(await refusal(await post(body))).toEqual(qs(400, 'invalid_request'));
    }
    expect(keysOf()).toContain('keep-me');
    const extra = JSON.stringify({ objects: [{ key: 'keep-me', version: 1 }], extra: true });
    expect(await jsonOf(await post(extra))).toEqual({ deleted: [{ key: 'keep-me' }], errors: [] });
  });

  it('POST ?delete reports keys that can never exist as per-key errors, not as a failure', async () => {
    const body = JSON.stringify({ objects: [{ key: 'k'.repeat(1024) }, { key: 'hello.txt-missing' }] });
    const r = await send(em, 'POST', `/${B}?delete`, { body, headers: { 'content-md5': md5Base64(body) } });
    expect(r.status).toBe(200);
    expect(await jsonOf(r)).toEqual({ deleted: [{ key: 'hello.txt-missing' }], errors: [{ key: 'k'.repeat(1024), code: 'invalid_object_name', message: expect.any(String) }] });
  });

  it('POST ?upload_id (Complete)', async () => {
    const r = await send(em, 'POST', `/${B}/complete-probe?uploads`);
    const id = String((await jsonOf(r) as { upload_id: string }).upload_id);
    expect((await send(em, 'PUT', `/${B}/complete-probe?upload_id=${id}&part_number=1`, { body: 'part' })).status).toBe(201);
    const complete = (body: string) => send(em, 'POST', `/${B}/complete-probe?upload_id=${id}`, { body });
    for (const body of notJson) expect(await refusal(await complete(body))).toEqual(qs(400, 'invalid_json'));
    for (const body of [...wrongShape, '{}', '{"object_parts":[]}', '{"object_parts":{}}', '{"object_parts":[{"part_number":"1"}]}',
      '{"object_parts":[{"part_number":1.5}]}', '{"object_parts":[{"part_number":-1}]}', '{"object_parts":[{"part_number":10001}]}',
      '{"object_parts":[{"part_number":1,"etag":5}]}']) {
      expect(await refusal(await complete(body))).toEqual(qs(400, 'invalid_request'));
    }
    // The upload survives every refusal, and nothing became visible.
    expect(keysOf()).not.toContain('complete-probe');
    const extra = JSON.stringify({ object_parts: [{ part_number: 1, etag: md5Hex('part'), size: 4, extra: 1 }], extra: 'x' });
    expect((await complete(extra)).status).toBe(201);
    expect(await (await send(em, 'GET', `/${B}/complete-probe`)).text()).toBe('part');
  });

  it('Complete with more than 10000 parts ⇒ 400 max_parts_exceeded (ref §12)', async () => {
    const r = await send(em, 'POST', `/${B}/too-many-parts?uploads`);
    const id = String((await jsonOf(r) as { upload_id: string }).upload_id);
    const body = JSON.stringify({ object_parts: Array.from({ length: 10001 }, (_, n) => ({ part_number: n })) });
    expect(await refusal(await send(em, 'POST', `/${B}/too-many-parts?upload_id=${id}`, { body }))).toEqual(qs(400, 'max_parts_exceeded'));
  });
});

describe('copy/move sources (ref §5.2, §5.3)', () => {
  const malformed = ['', 'nonsense', `${B}/hello.txt`, `/${B}`, `/${B}/`, `//${B}/hello.txt`, `/${B}/%E4`, '/', '%2F'];
  for (const source of malformed) {
    it(`x-qs-copy-source / x-qs-move-source ${JSON.stringify(source)} ⇒ 400 invalid_argument, nothing written or moved`, async () => {
      expect(await refusal(await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-copy-source': source } }))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-move-source': source } }))).toEqual(qs(400, 'invalid_argument'));
      expect(keysOf()).not.toContain('copy-target');
      expect(keysOf()).toContain('hello.txt');
    });
  }

  it('a source in another zone is not visible ⇒ 404 bucket_not_exists (ref §11.18)', async () => {
    await putText(em, 'hostile-pek3b', 'x', 'x').then(() => undefined);
    const r = await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-copy-source': '/hostile-pek3b/x' } });
    expect(await refusal(r)).toEqual(qs(404, 'bucket_not_exists'));
    expect(await refusal(await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-move-source': '/hostile-pek3b/x' } }))).toEqual(qs(404, 'bucket_not_exists'));
    expect(keysOf()).not.toContain('copy-target');
  });

  it('copy and move source together ⇒ 400 invalid_argument; the source stays and nothing is written', async () => {
    const r = await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-copy-source': `/${B}/hello.txt`, 'x-qs-move-source': `/${B}/hello.txt` } });
    expect(await refusal(r)).toEqual(qs(400, 'invalid_argument'));
    expect(keysOf()).toContain('hello.txt');
    expect(keysOf()).not.toContain('copy-target');
  });

  it('an unknown x-qs-metadata-directive ⇒ 400 invalid_argument', async () => {
    const r = await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-copy-source': `/${B}/hello.txt`, 'x-qs-metadata-directive': 'MERGE' } });
    expect(await refusal(r)).toEqual(qs(400, 'invalid_argument'));
    expect(keysOf()).not.toContain('copy-target');
  });

  it('a 1024-byte source or destination key ⇒ 400 invalid_object_name; a 1023-byte one copies', async () => {
    const k1024 = 'k'.repeat(1024);
    expect(await refusal(await send(em, 'PUT', `/${B}/copy-target`, { headers: { 'x-qs-copy-source': `/${B}/${k1024}` } }))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'PUT', `/${B}/${k1024}`, { headers: { 'x-qs-copy-source': `/${B}/hello.txt` } }))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'PUT', `/${B}/${k1024}`, { headers: { 'x-qs-move-source': `/${B}/hello.txt` } }))).toEqual(qs(400, 'invalid_object_name'));
    expect(keysOf()).toContain('hello.txt');
    const k1023 = 'é'.repeat(511) + 'k';
    expect((await send(em, 'PUT', `/${B}/${encodeKeyPath(k1023)}`, { headers: { 'x-qs-copy-source': `/${B}/hello.txt` } })).status).toBe(201);
    expect((await send(em, 'DELETE', `/${B}/${encodeKeyPath(k1023)}`)).status).toBe(204);
  });
});

describe('keys and paths (ref §1.1, §1.3, §11.15)', () => {
  const k1023 = '界'.repeat(341);
  const k1024 = `${'界'.repeat(341)}k`;

  it('1023 bytes works for every writing operation; 1024 bytes is invalid_object_name everywhere and writes nothing', async () => {
    const before = keysOf();
    const long = encodeKeyPath(k1024);
    expect(await refusal(await send(em, 'PUT', `/${B}/${long}`, { body: 'x' }))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'POST', `/${B}/${long}?append&position=0`, { body: 'x' }))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'POST', `/${B}/${long}?uploads`))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'GET', `/${B}/${long}`))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'DELETE', `/${B}/${long}`))).toEqual(qs(400, 'invalid_object_name'));
    expect(keysOf()).toEqual(before);
    expect(em.store.listMultipartUploads(B, {}).uploads.map((u) => u.key)).not.toContain(k1024);
    const ok = encodeKeyPath(k1023);
    expect((await send(em, 'PUT', `/${B}/${ok}`, { body: 'x' })).status).toBe(201);
    const okAppend = encodeKeyPath(`${'界'.repeat(340)}app`); // 1020 + 3 bytes
    expect((await send(em, 'POST', `/${B}/${okAppend}?append&position=0`, { body: 'x' })).status).toBe(200);
    expect((await send(em, 'POST', `/${B}/${ok}?uploads`)).status).toBe(200);
    expect((await send(em, 'DELETE', `/${B}/${ok}`)).status).toBe(204);
  });

  it('the empty key is the bucket resource: PUT /<bucket>/ is PutBucket (409 here), never an object ""', async () => {
    expect(await refusal(await send(em, 'PUT', `/${B}/`, { body: 'x' }))).toEqual(qs(409, 'bucket_already_exists'));
    expect(await refusal(await send(em, 'PUT', `https://${B}.pek3a.qingstor.com/`, { body: 'x' }))).toEqual(qs(409, 'bucket_already_exists'));
    expect(keysOf()).not.toContain('');
  });

  it('a key that is "/" only, and "/double" from //double, are ordinary keys that round-trip', async () => {
    for (const [path, key] of [[`/${B}//`, '/'], [`/${B}//double`, '/double'], [`/${B}/%2F`, '/']] as const) {
      expect((await send(em, 'PUT', path, { body: key })).status).toBe(201);
      expect(await (await send(em, 'GET', path)).text()).toBe(key);
      expect(keysOf()).toContain(key);
    }
    expect((await send(em, 'DELETE', `/${B}//`)).status).toBe(204);
    expect((await send(em, 'DELETE', `/${B}//double`)).status).toBe(204);
    expect(keysOf().filter((k) => k.startsWith('/'))).toEqual([]);
  });

  it('//double at the service level names the empty bucket ⇒ 404 bucket_not_exists', async () => {
    expect(await refusal(await send(em, 'GET', '//double'))).toEqual(qs(404, 'bucket_not_exists'));
    expect(await refusal(await send(em, 'PUT', '//double', { body: 'x' }))).toEqual(qs(404, 'bucket_not_exists'));
  });

  it('undecodable percent-escapes in the key or bucket ⇒ 400, never a 500', async () => {
    expect(await refusal(await send(em, 'GET', `/${B}/%E4`))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'PUT', `/${B}/%ED%A0%80`, { body: 'x' }))).toEqual(qs(400, 'invalid_object_name'));
    expect(await refusal(await send(em, 'GET', '/%E4/x'))).toEqual(qs(400, 'invalid_bucket_name'));
  });
});

describe('unknown sub-resources and methods (ref §4)', () => {
  it('parameters that are no sub-resource are ignored like any other query parameter', async () => {
    const r = await send(em, 'GET', `/${B}?foo&bar=1`);
    expect(r.status).toBe(200);
  });
  it('unimplemented sub-resources answer invalid_request and never fall through to a destructive op', async () => {
    for (const [method, path] of [['DELETE', `/${B}?notification`], ['PUT', `/${B}/hello.txt?versioning`], ['DELETE', `/${B}/hello.txt?acl`], ['DELETE', `/${B}?upload_id=x`]] as const) {
      expect(await refusal(await send(em, method, path))).toEqual(qs(400, 'invalid_request'));
    }
    expect(keysOf()).toContain('hello.txt');
    expect(em.store.findBucket(B)).toBeDefined();
  });
  it('PATCH, PROPFIND and POST on a plain object answer 405 method_not_allowed on every level', async () => {
    for (const [method, url] of [['PATCH', `/${B}/hello.txt`], ['PATCH', `/${B}`], ['PATCH', 'https://qingstor.com/'], ['PROPFIND', `/${B}/hello.txt`], ['POST', `/${B}/hello.txt`], ['PUT', 'https://pek3a.qingstor.com/'], ['DELETE', 'https://qingstor.com/']] as const) {
      expect(await refusal(await send(em, method, url, method === 'POST' || method === 'PUT' ? { body: 'x' } : {}))).toEqual(qs(405, 'method_not_allowed'));
    }
    expect(await (await send(em, 'GET', `/${B}/hello.txt`)).text()).toBe('hello world');
  });
});

describe('Content-MD5 (ref §5.1, §5.8, §5.9, §8.2, §11.12)', () => {
  // Not base64, base64 of the wrong length, the hex digest instead of base64, a well-formed digest of other bytes.
  const wrong = ['!!!!', 'AAAA', md5Hex('payload'), md5Base64('other')];
  let uploadId = '';
  beforeAll(async () => {
    const r = await send(em, 'POST', `/${B}/md5-mp?uploads`);
    uploadId = String((await jsonOf(r) as { upload_id: string }).upload_id);
  });

  for (const md5 of wrong) {
    it(`${JSON.stringify(md5)} ⇒ 400 bad_digest on PutObject, UploadMultipart, AppendObject and DeleteMultipleObjects, nothing written`, async () => {
      const headers = { 'content-md5': md5 };
      expect(await refusal(await send(em, 'PUT', `/${B}/md5-put`, { body: 'payload', headers }))).toEqual(qs(400, 'bad_digest'));
      expect(await refusal(await send(em, 'PUT', `/${B}/md5-mp?upload_id=${uploadId}&part_number=1`, { body: 'payload', headers }))).toEqual(qs(400, 'bad_digest'));
      expect(await refusal(await send(em, 'POST', `/${B}/md5-app?append&position=0`, { body: 'payload', headers }))).toEqual(qs(400, 'bad_digest'));
      const del = JSON.stringify({ objects: [{ key: 'hello.txt' }] });
      expect(await refusal(await send(em, 'POST', `/${B}?delete`, { body: del, headers }))).toEqual(qs(400, 'bad_digest'));
      expect(keysOf()).toContain('hello.txt');
      expect(keysOf()).not.toContain('md5-put');
      expect(keysOf()).not.toContain('md5-app');
      expect(await jsonOf(await send(em, 'GET', `/${B}/md5-mp?upload_id=${uploadId}`))).toEqual({ count: 0, object_parts: [] });
    });
  }

  it('the right digest is accepted on all four', async () => {
    const headers = { 'content-md5': md5Base64('payload') };
    expect((await send(em, 'PUT', `/${B}/md5-put`, { body: 'payload', headers })).status).toBe(201);
    expect((await send(em, 'PUT', `/${B}/md5-mp?upload_id=${uploadId}&part_number=1`, { body: 'payload', headers })).status).toBe(201);
    expect((await send(em, 'POST', `/${B}/md5-app?append&position=0`, { body: 'payload', headers })).status).toBe(200);
    const del = JSON.stringify({ objects: [{ key: 'md5-put' }, { key: 'md5-app' }] });
    expect((await send(em, 'POST', `/${B}?delete`, { body: del, headers: { 'content-md5': md5Base64(del) } })).status).toBe(200);
  });
});

describe('Content-Length and size limits (ref §4 incomplete_body, entity_too_large)', () => {
  let uploadId = '';
  beforeAll(async () => {
    const r = await send(em, 'POST', `/${B}/size-mp?uploads`);
    uploadId = String((await jsonOf(r) as { upload_id: string }).upload_id);
  });

  it('a body shorter than Content-Length ⇒ incomplete_body on PUT, part, append and JSON bodies; nothing written', async () => {
    const body = new Uint8Array([1, 2, 3]);
    const headers = { 'content-length': '10' };
    expect(await refusal(await send(em, 'PUT', `/${B}/short`, { body, headers }))).toEqual(qs(400, 'incomplete_body'));
    expect(await refusal(await send(em, 'PUT', `/${B}/size-mp?upload_id=${uploadId}&part_number=1`, { body, headers }))).toEqual(qs(400, 'incomplete_body'));
    expect(await refusal(await send(em, 'POST', `/${B}/short-app?append&position=0`, { body, headers }))).toEqual(qs(400, 'incomplete_body'));
    expect(await refusal(await send(em, 'PUT', `/${B}?acl`, { body: new TextEncoder().encode('{"acl":[]}'), headers: { 'content-length': '99' } }))).toEqual(qs(400, 'incomplete_body'));
    expect(keysOf()).not.toContain('short');
    expect(keysOf()).not.toContain('short-app');
    expect(await jsonOf(await send(em, 'GET', `/${B}/size-mp?upload_id=${uploadId}`))).toEqual({ count: 0, object_parts: [] });
  });

  it('accepts exactly maxObjectSize bytes and refuses one more with entity_too_large (PUT, part, append, PostObject)', async () => {
    const max = new Uint8Array(64).fill(7);
    const over = new Uint8Array(65).fill(7);
    expect((await send(em, 'PUT', `/${B}/at-max`, { body: max })).status).toBe(201);
    expect((await send(em, 'PUT', `/${B}/size-mp?upload_id=${uploadId}&part_number=2`, { body: max })).status).toBe(201);
    expect((await send(em, 'POST', `/${B}/app-max?append&position=0`, { body: max })).status).toBe(200);
    // The limit is per request: a second append that stays under it extends the object past it.
    expect((await send(em, 'POST', `/${B}/app-max?append&position=64`, { body: max })).status).toBe(200);

    expect(await refusal(await send(em, 'PUT', `/${B}/over-max`, { body: over }))).toEqual(qs(400, 'entity_too_large'));
    expect(await refusal(await send(em, 'PUT', `/${B}/size-mp?upload_id=${uploadId}&part_number=3`, { body: over }))).toEqual(qs(400, 'entity_too_large'));
    expect(await refusal(await send(em, 'POST', `/${B}/app-max?append&position=128`, { body: over }))).toEqual(qs(400, 'entity_too_large'));
    const form = new FormData();
    form.append('key', 'post-over');
    form.append('file', new Blob([over]), 'f.bin');
    em.store.putBucketAcl(B, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    try {
      expect(await refusal(await send(em, 'POST', `/${B}`, { as: 'anonymous', body: form }))).toEqual(qs(400, 'entity_too_large'));
    } finally {
      em.store.putBucketAcl(B, []);
    }
    expect(keysOf()).not.toContain('over-max');
    expect(keysOf()).not.toContain('post-over');
    expect(em.store.getObject(B, 'app-max').size).toBe(128);
    const parts = (await jsonOf(await send(em, 'GET', `/${B}/size-mp?upload_id=${uploadId}`))) as { count: number };
    expect(parts.count).toBe(1);
  });

  it('refuses a declared Content-Length above the maximum before reading the body', async () => {
    // The body is tiny; only the declared length is too large. Reading the body would end in incomplete_body.
    const r = await send(em, 'PUT', `/${B}/declared-over`, { body: new Uint8Array([1]), headers: { 'content-length': String(5 * 1024 ** 3 + 1) } });
    expect(await refusal(r)).toEqual(qs(400, 'entity_too_large'));
  });
});

describe('ListObjects entries of multipart objects without an ETag (ref §8.5)', () => {
  it('leave the etag field out instead of sending an empty string', async () => {
    const r = await send(em, 'POST', `/${B}/no-etag?uploads`);
    const id = String((await jsonOf(r) as { upload_id: string }).upload_id);
    await send(em, 'PUT', `/${B}/no-etag?upload_id=${id}&part_number=0`, { body: 'abc' });
    expect((await send(em, 'POST', `/${B}/no-etag?upload_id=${id}`, { body: '{"object_parts":[{"part_number":0}]}' })).status).toBe(201);
    const list = (await jsonOf(await send(em, 'GET', `/${B}?prefix=no-etag`))) as { keys: Array<Record<string, unknown>> };
    expect(list.keys).toHaveLength(1);
    expect(list.keys[0]).not.toHaveProperty('etag');
    expect(list.keys[0]).toMatchObject({ key: 'no-etag', size: 3 });
  });
});

describe('repeated headers (fetch joins them with ", ")', () => {
  async function sendPairs(method: string, path: string, pairs: Array<[string, string]>, body?: string): Promise<Response> {
    const url = new URL(`https://pek3a.qingstor.com${path}`);
    const headers = new Headers();
    for (const [name, value] of pairs) headers.append(name, value);
    await signRequest({ method, url, headers, credentials: { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey } });
    // Bytes, not a string: a string body would add a Content-Type after signing.
    return sendRequest(em, new Request(url, { method, headers, ...(body !== undefined ? { body: new TextEncoder().encode(body) } : {}) }));
  }

  it('two Content-MD5 values are no digest ⇒ bad_digest, nothing written', async () => {
    const md5 = md5Base64('dup');
    expect(await refusal(await sendPairs('PUT', `/${B}/dup-md5`, [['content-md5', md5], ['content-md5', md5]], 'dup'))).toEqual(qs(400, 'bad_digest'));
    expect(keysOf()).not.toContain('dup-md5');
  });
  it('two Range values are a multi-range ⇒ 416 invalid_range', async () => {
    expect(await refusal(await sendPairs('GET', `/${B}/hello.txt`, [['range', 'bytes=0-1'], ['range', 'bytes=2-3']]))).toEqual(qs(416, 'invalid_range'));
  });
  it('two storage classes or directives are invalid, and nothing is written', async () => {
    const sc = await sendPairs('PUT', `/${B}/dup-sc`, [['x-qs-storage-class', 'STANDARD'], ['x-qs-storage-class', 'STANDARD_IA']], 'x');
    expect(await refusal(sc)).toEqual(qs(400, 'invalid_request'));
    const directive = await sendPairs('PUT', `/${B}/dup-dir`, [['x-qs-copy-source', `/${B}/hello.txt`], ['x-qs-metadata-directive', 'REPLACE'], ['x-qs-metadata-directive', 'REPLACE']]);
    expect(await refusal(directive)).toEqual(qs(400, 'invalid_argument'));
    expect(keysOf()).not.toContain('dup-sc');
    expect(keysOf()).not.toContain('dup-dir');
  });
  it('two copy sources name one odd key, which does not exist ⇒ 404, nothing written', async () => {
    const r = await sendPairs('PUT', `/${B}/dup-src`, [['x-qs-copy-source', `/${B}/hello.txt`], ['x-qs-copy-source', `/${B}/hello.txt`]]);
    expect(await refusal(r)).toEqual(qs(404, 'object_not_exists'));
    expect(keysOf()).not.toContain('dup-src');
  });
  it('a repeated x-qs-meta-* header is stored as the joined value, like any HTTP header', async () => {
    expect((await sendPairs('PUT', `/${B}/dup-meta`, [['x-qs-meta-tag', 'a'], ['x-qs-meta-tag', 'b']], 'x')).status).toBe(201);
    expect((await send(em, 'HEAD', `/${B}/dup-meta`)).headers.get('x-qs-meta-tag')).toBe('a, b');
  });
});

describe('text that ends up in response headers (never a 500, never a split header)', () => {
  const name = '报告 2024.pdf';
  /** What a client reading the raw header bytes as UTF-8 sees. */
  const asUtf8 = (value: string | null) => (value === null ? null : new TextDecoder().decode(Uint8Array.from(value, (c) => c.charCodeAt(0))));

  it('response-* overrides beyond Latin-1 travel as UTF-8 bytes; control characters are invalid_argument', async () => {
    const disposition = `attachment; filename="${name}"`;
    const r = await send(em, 'GET', `/${B}/hello.txt?response-content-disposition=${encodeURIComponent(disposition)}`);
    expect(r.status).toBe(200);
    expect(asUtf8(r.headers.get('content-disposition'))).toBe(disposition);
    const undecodable = await send(em, 'GET', `/${B}/hello.txt?response-expires=%E4`);
    expect(undecodable.status).toBe(200);
    for (const evil of ['a%0D%0ASet-Cookie:%20x=1', 'a%00b', 'a%01b']) {
      expect(await refusal(await send(em, 'GET', `/${B}/hello.txt?response-content-type=${evil}`))).toEqual(qs(400, 'invalid_argument'));
    }
  });

  describe('PostObject fields', () => {
    beforeAll(() => {
      em.store.putBucketAcl(B, [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    });
    const form = (fields: Array<[string, string]>) => {
      const fd = new FormData();
      for (const [k, v] of fields) fd.append(k, v);
      fd.append('file', new Blob(['form body']), 'f.txt');
      return send(em, 'POST', `/${B}`, { as: 'anonymous', body: fd });
    };

    it('a non-ASCII Content-Disposition field is stored and replayed as UTF-8 bytes', async () => {
      const disposition = `attachment; filename="${name}"`;
      expect((await form([['key', 'form-cjk'], ['Content-Disposition', disposition]])).status).toBe(201);
      for (const method of ['GET', 'HEAD']) {
        const r = await send(em, method, `/${B}/form-cjk`);
        expect(r.status).toBe(200);
        expect(asUtf8(r.headers.get('content-disposition'))).toBe(disposition);
      }
    });

    it('control characters in a standard field or in redirect are refused before anything is stored', async () => {
      expect(await refusal(await form([['key', 'form-crlf'], ['Cache-Control', 'no-cache\r\nX-Evil: 1']]))).toEqual(qs(400, 'invalid_argument'));
      expect(await refusal(await form([['key', 'form-redirect'], ['redirect', 'http://example.com/\r\nX-Evil: 1']]))).toEqual(qs(400, 'invalid_argument'));
      expect(keysOf()).not.toContain('form-crlf');
      expect(keysOf()).not.toContain('form-redirect');
    });

    it('a non-ASCII redirect becomes a Location of UTF-8 bytes', async () => {
      const r = await form([['key', 'form-redirect-ok'], ['redirect', 'http://example.com/完成']]);
      expect(r.status).toBe(302);
      expect(asUtf8(r.headers.get('location'))).toMatch(/^http:\/\/example\.com\/完成\?status=201&code=created/);
    });
  });

  it('CORS rules whose names could not be sent as headers are refused (invalid_request), the config unchanged', async () => {
    const rule = (r: Record<string, unknown>) => JSON.stringify({ cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET'], ...r }] });
    for (const body of [rule({ expose_headers: ['中文'] }), rule({ expose_headers: ['a b'] }), rule({ allowed_headers: ['x\r\ny'] }), rule({ allowed_origin: 'http://例子.com' }), rule({ allowed_origin: 'http://a b' })]) {
      expect(await refusal(await send(em, 'PUT', `/${B}?cors`, { body }))).toEqual(qs(400, 'invalid_request'));
    }
    expect(em.store.getBucket(B).cors).toBeNull();
    expect((await send(em, 'PUT', `/${B}?cors`, { body: rule({ expose_headers: ['ETag', 'x-qs-meta-*'], allowed_headers: ['*'] }) })).status).toBe(200);
    const actual = await send(em, 'GET', `/${B}/hello.txt`, { headers: { origin: 'http://app.example' } });
    expect(actual.headers.get('access-control-expose-headers')).toBe('ETag, x-qs-meta-*');
    expect((await send(em, 'DELETE', `/${B}?cors`)).status).toBe(204);
  });
});
