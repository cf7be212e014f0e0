import { beforeEach, describe, expect, it } from 'vitest';
import { presignUrl } from '../../src/api/signing.ts';
import type { Emulator } from '../emulator.ts';
import { createBucket, errorOf, OWNER, putText, READER, send, sendRequest, STRANGER, testEmulator } from './test-utils.ts';

let em: Emulator;
const credentials = { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey };
beforeEach(async () => {
  em = await testEmulator();
  await createBucket(em, 'auth-bucket');
  await putText(em, 'auth-bucket', 'docs/report.pdf', 'pdf bytes', { 'content-type': 'application/pdf' });
});

describe('pre-signed URLs (ref §2.5)', () => {
  it('serves a pre-signed GET with response-* overrides in both URL styles', async () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    const disposition = 'attachment; filename="report.pdf"';
    for (const [base, bucketInHost] of [
      ['https://pek3a.qingstor.com/auth-bucket/docs/report.pdf', undefined],
      ['https://auth-bucket.pek3a.qingstor.com/docs/report.pdf', 'auth-bucket'],
    ] as const) {
      const url = new URL(`${base}?response-content-disposition=${encodeURIComponent(disposition)}`);
      const signed = await presignUrl({ method: 'GET', url, credentials, expires, ...(bucketInHost ? { bucketInHost } : {}) });
      const r = await sendRequest(em, new Request(signed));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition')).toBe(disposition);
      expect(await r.text()).toBe('pdf bytes');
    }
  });

  it('refuses expired links (request_expired) and tampered ones (signature_not_matched)', async () => {
    const url = new URL('https://pek3a.qingstor.com/auth-bucket/docs/report.pdf');
    const expired = await presignUrl({ method: 'GET', url, credentials, expires: Math.floor(Date.now() / 1000) - 1 });
    expect(await errorOf(await sendRequest(em, new Request(expired)))).toMatchObject({ status: 403, code: 'request_expired' });
    const valid = await presignUrl({ method: 'GET', url, credentials, expires: Math.floor(Date.now() / 1000) + 60 });
    const tampered = new URL(valid.href.replace('report.pdf', 'other.pdf'));
    expect(await errorOf(await sendRequest(em, new Request(tampered)))).toMatchObject({ status: 401, code: 'signature_not_matched' });
  });
});

describe('authentication precedence (ref §4)', () => {
  it('checks credentials before bucket existence and permission', async () => {
    const bad = { ...STRANGER, secretAccessKey: 'nope' };
    expect(await errorOf(await send(em, 'GET', '/no-such-bucket/x', { as: bad }))).toMatchObject({ status: 401, code: 'signature_not_matched' });
    expect(await errorOf(await send(em, 'GET', '/no-such-bucket/x', { as: STRANGER }))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
    expect(await errorOf(await send(em, 'GET', '/auth-bucket/missing', { as: STRANGER }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await send(em, 'GET', '/auth-bucket/missing', { as: OWNER }))).toMatchObject({ status: 404, code: 'object_not_exists' });
  });

  it('fails bad credentials on a public bucket instead of falling back to anonymous (ref §2)', async () => {
    em.store.putBucketAcl('auth-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' }]);
    expect((await send(em, 'GET', '/auth-bucket/docs/report.pdf', { as: 'anonymous' })).status).toBe(200);
    expect(await errorOf(await send(em, 'GET', '/auth-bucket/docs/report.pdf', { as: { ...READER, secretAccessKey: 'wrong' } }))).toMatchObject({ status: 401, code: 'signature_not_matched' });
    expect(await errorOf(await send(em, 'GET', '/auth-bucket/docs/report.pdf', { as: { ...READER, accessKeyId: 'UNKNOWN0000000000000' } }))).toMatchObject({ status: 401, code: 'invalid_access_key_id' });
    expect(await errorOf(await send(em, 'GET', '/auth-bucket/docs/report.pdf', { as: READER }))).toMatchObject({ status: 403, code: 'permission_denied' });
  });

  it('signs virtual-host requests with the bucket prefixed to the resource', async () => {
    expect((await send(em, 'GET', 'https://auth-bucket.pek3a.qingstor.com/?prefix=docs%2F')).status).toBe(200);
    expect((await send(em, 'GET', 'https://auth-bucket.pek3a.qingstor.com/docs/report.pdf')).status).toBe(200);
  });
});
