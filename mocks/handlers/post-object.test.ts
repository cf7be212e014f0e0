import { beforeEach, describe, expect, it } from 'vitest';
import { encodePolicy, signPolicy } from '../../src/api/signing.ts';
import type { Emulator } from '../emulator.ts';
import { streamingFormReader } from '../http/form-stream.ts';
import { expandFilename } from './post-object.ts';
import { createBucket, errorOf, md5Hex, OWNER, send, STRANGER, testEmulator } from './test-utils.ts';

let em: Emulator;

interface FormInput {
  fields: Array<[string, string]>;
  file?: { content: string; name: string; type?: string };
  after?: Array<[string, string]>;
  user?: typeof OWNER;
  /** Fields covered by the policy; default: every field. */
  policyFields?: Record<string, string>;
}

async function form(input: FormInput): Promise<FormData> {
  const fd = new FormData();
  if (input.user) {
    const policy = encodePolicy(input.policyFields ?? Object.fromEntries(input.fields));
    fd.append('access_key_id', input.user.accessKeyId);
    fd.append('policy', policy);
    fd.append('signature', await signPolicy(policy, input.user.secretAccessKey));
  }
  for (const [k, v] of input.fields) fd.append(k, v);
  if (input.file) fd.append('file', new Blob([input.file.content], input.file.type !== undefined ? { type: input.file.type } : {}), input.file.name);
  for (const [k, v] of input.after ?? []) fd.append(k, v);
  return fd;
}

const post = async (input: FormInput, url = '/form-bucket') => send(em, 'POST', url, { as: 'anonymous', body: await form(input) });

// Every case runs with the whole-form parser (browser) and the streaming one (standalone server).
describe.each([
  ['request.formData()', undefined],
  ['streaming, busboy', streamingFormReader],
] as const)('PostObject (ref §7), form parsed with %s', (_name, postFormReader) => {
  beforeEach(async () => {
    em = await testEmulator(postFormReader ? { postFormReader } : {});
    await createBucket(em, 'form-bucket');
  });

  it('uploads with a signed policy: 201, empty body, ETag, ${filename} expanded, metadata stored', async () => {
    const r = await post({
      user: OWNER,
      fields: [
        ['key', 'user/tom/${filename}'],
        ['Content-Type', 'text/plain'],
        ['Cache-Control', 'max-age=60'],
        ['Content-Disposition', 'inline'],
        ['x-qs-meta-author', 'Tom'],
        ['x-qs-storage-class', 'STANDARD_IA'],
      ],
      file: { content: 'form body', name: 'C:\\Users\\tom\\notes.txt', type: 'text/plain' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('form body')}"`);
    expect(await r.text()).toBe('');
    const head = await send(em, 'HEAD', '/form-bucket/user/tom/notes.txt');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain');
    expect(head.headers.get('cache-control')).toBe('max-age=60');
    expect(head.headers.get('content-disposition')).toBe('inline');
    expect(head.headers.get('x-qs-meta-author')).toBe('Tom');
    expect(head.headers.get('x-qs-storage-class')).toBe('STANDARD_IA');
  });

  it('works in virtual-host style and takes the Content-Type from the file part when no field is given', async () => {
    const r = await post({ user: OWNER, fields: [['key', 'vhost.png']], file: { content: 'png', name: 'x.png', type: 'image/png' } }, 'https://form-bucket.pek3a.qingstor.com/');
    expect(r.status).toBe(201);
    expect((await send(em, 'HEAD', '/form-bucket/vhost.png')).headers.get('content-type')).toBe('image/png');
  });

  it('redirects with 302 and the documented query when `redirect` is given', async () => {
    const r = await post({ user: OWNER, fields: [['key', 'r.txt'], ['redirect', 'http://example.com/callback']], file: { content: 'r', name: 'r.txt' } });
    expect(r.status).toBe(302);
    const id = r.headers.get('x-qs-request-id');
    expect(r.headers.get('location')).toBe(`http://example.com/callback?status=201&code=created&message=Object+created&request_id=${id}`);
    expect(r.headers.get('etag')).toBe(`"${md5Hex('r')}"`);
    const withQuery = await post({ user: OWNER, fields: [['key', 'q.txt'], ['redirect', 'http://example.com/cb?x=1']], file: { content: 'q', name: 'q.txt' } });
    expect(withQuery.headers.get('location')).toMatch(/^http:\/\/example\.com\/cb\?x=1&status=201&/);
  });

  it('ignores fields after `file` (they cannot be covered by the policy)', async () => {
    const r = await post({ user: OWNER, fields: [['key', 'after.txt']], file: { content: 'a', name: 'a.txt' }, after: [['x-qs-meta-late', 'ignored'], ['key', 'other.txt']] });
    expect(r.status).toBe(201);
    expect((await send(em, 'HEAD', '/form-bucket/after.txt')).headers.get('x-qs-meta-late')).toBeNull();
    expect(em.store.findObject('form-bucket', 'other.txt')).toBeUndefined();
  });

  it('refuses fields the policy does not cover (form_policy_violated) and writes nothing', async () => {
    const r = await post({ user: OWNER, fields: [['key', 'evil.txt'], ['x-qs-meta-extra', '1']], policyFields: { key: 'evil.txt' }, file: { content: 'e', name: 'e' } });
    expect(await errorOf(r)).toMatchObject({ status: 400, code: 'form_policy_violated' });
    const tampered = await post({ user: OWNER, fields: [['key', 'tampered.txt']], policyFields: { key: 'expected.txt' }, file: { content: 'e', name: 'e' } });
    expect(await errorOf(tampered)).toMatchObject({ status: 400, code: 'form_policy_violated' });
    expect(em.store.findObject('form-bucket', 'evil.txt')).toBeUndefined();
    expect(em.store.findObject('form-bucket', 'tampered.txt')).toBeUndefined();
  });

  it('refuses a wrong signature (401) and an unknown key (401)', async () => {
    const fd = new FormData();
    const policy = encodePolicy({ key: 'sig.txt' });
    fd.append('access_key_id', OWNER.accessKeyId);
    fd.append('policy', policy);
    fd.append('signature', await signPolicy(policy, 'wrong-secret'));
    fd.append('key', 'sig.txt');
    fd.append('file', new Blob(['s']), 's');
    expect(await errorOf(await send(em, 'POST', '/form-bucket', { as: 'anonymous', body: fd }))).toMatchObject({ status: 401, code: 'signature_not_matched' });
    const unknown = await post({ user: { ...OWNER, accessKeyId: 'UNKNOWNKEY0000000000' }, fields: [['key', 'u.txt']], file: { content: 'u', name: 'u' } });
    expect(await errorOf(unknown)).toMatchObject({ status: 401, code: 'invalid_access_key_id' });
  });

  it('admits anonymous forms only on public-write buckets, and signed forms only with WRITE', async () => {
    expect(await errorOf(await post({ fields: [['key', 'anon.txt']], file: { content: 'a', name: 'a' } }))).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await errorOf(await post({ user: STRANGER, fields: [['key', 's.txt']], file: { content: 's', name: 's' } }))).toMatchObject({ status: 403, code: 'permission_denied' });
    em.store.putBucketAcl('form-bucket', [{ grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' }]);
    expect((await post({ fields: [['key', 'anon.txt']], file: { content: 'a', name: 'a' } })).status).toBe(201);
    expect(await errorOf(await post({ user: STRANGER, fields: [['key', 's.txt']], file: { content: 's', name: 's' } }))).toMatchObject({ status: 403 });
    expect(await errorOf(await post({ fields: [['key', 'x']], file: { content: 'x', name: 'x' } }, '/missing-bkt'))).toMatchObject({ status: 404, code: 'bucket_not_exists' });
  });

  it('takes form metadata of exactly 2048 bytes and refuses 2049', async () => {
    const at = await post({ user: OWNER, fields: [['key', 'edge'], ['x-qs-meta-a', 'v'.repeat(2047)]], file: { content: 'x', name: 'x' } });
    expect(at.status).toBe(201);
    expect(em.store.findObject('form-bucket', 'edge')?.metadata.custom).toEqual({ a: 'v'.repeat(2047) });
    const over = await post({ user: OWNER, fields: [['key', 'edge-over'], ['x-qs-meta-ab', 'v'.repeat(2047)]], file: { content: 'x', name: 'x' } });
    expect(await errorOf(over)).toMatchObject({ status: 400, code: 'metadata_too_large' });
    expect(em.store.findObject('form-bucket', 'edge-over')).toBeUndefined();
  });

  it('validates key, file, metadata, content type and body type', async () => {
    const bad: Array<[FormInput, number, string]> = [
      [{ user: OWNER, fields: [], file: { content: 'x', name: 'x' } }, 400, 'invalid_request'],
      [{ user: OWNER, fields: [['key', '/leading']], file: { content: 'x', name: 'x' } }, 400, 'invalid_object_name'],
      [{ user: OWNER, fields: [['key', 'nofile']] }, 400, 'invalid_request'],
      [{ user: OWNER, fields: [['key', 'm'], ['x-qs-meta-big', 'v'.repeat(2048)]], file: { content: 'x', name: 'x' } }, 400, 'metadata_too_large'],
      [{ user: OWNER, fields: [['key', 'm'], ['x-qs-meta-bad key', 'v']], file: { content: 'x', name: 'x' } }, 400, 'invalid_argument'],
      [{ user: OWNER, fields: [['key', 'm'], ['content-type', 'text/plain']], file: { content: 'x', name: 'x', type: 'image/png' } }, 400, 'invalid_argument'],
      [{ user: OWNER, fields: [['key', 'm'], ['x-qs-storage-class', 'COLD']], file: { content: 'x', name: 'x' } }, 400, 'invalid_request'],
    ];
    for (const [input, status, code] of bad) expect(await errorOf(await post(input))).toMatchObject({ status, code });
    expect(em.store.findObject('form-bucket', 'm')).toBeUndefined();
    const notForm = await send(em, 'POST', '/form-bucket', { body: 'key=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await errorOf(notForm)).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('expandFilename', () => {
  it('keeps what follows the last slash or backslash', () => {
    expect(expandFilename('u/${filename}', 'a/b/c.txt')).toBe('u/c.txt');
    expect(expandFilename('u/${filename}', 'C:\\x\\y.txt')).toBe('u/y.txt');
    expect(expandFilename('${filename}-${filename}', 'n')).toBe('n-n');
    expect(expandFilename('u/${filename}', '')).toBe('u/');
    expect(expandFilename('plain', 'x')).toBe('plain');
  });
});
