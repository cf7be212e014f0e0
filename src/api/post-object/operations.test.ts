import { createHmac } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client.ts';
import type { Connection } from '../connection.ts';
import { baseFilename, buildPostObjectForm, expandKeyTemplate, postObject } from './operations.ts';

const credentials = { accessKeyId: 'EXAMPLEACCESSKEYID01', secretAccessKey: 'exampleSecretAccessKey0123456789abcdefXYZ' };
const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', credentials, defaultZone: 'pek3a' };

let captured: { fields: Array<[string, string]>; fileName: string; fileType: string; auth: string | null } | undefined;
const server = setupServer(
  http.post('https://pek3a.qingstor.com/forms-bucket', async ({ request }) => {
    const form = await request.formData();
    const fields: Array<[string, string]> = [];
    let fileName = '';
    let fileType = '';
    form.forEach((value, name) => {
      if (typeof value === 'string') fields.push([name, value]);
      else {
        fields.push([name, '<file>']);
        fileName = value.name;
        fileType = value.type;
      }
    });
    captured = { fields, fileName, fileType, auth: request.headers.get('authorization') };
    return new HttpResponse(null, { status: 201, headers: { etag: '"e"', 'x-qs-request-id': 'post-1' } });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe('PostObject form (ref §7)', () => {
  it('puts key, metadata and content-type before a policy covering exactly them; file last; no header signature', async () => {
    const result = await postObject(createClient(connection), {
      bucket: 'forms-bucket',
      key: 'user/tom/${filename}',
      file: new File(['data'], 'dir\\报告 1.pdf', { type: 'application/pdf' }),
      metadata: { standard: { 'cache-control': 'no-cache' }, custom: { Batch: '7' } },
      storageClass: 'STANDARD_IA',
    });
    expect(result).toEqual({ etag: '"e"', key: 'user/tom/报告 1.pdf', requestId: 'post-1' });
    const fields = captured?.fields ?? [];
    expect(fields.map(([n]) => n)).toEqual(['key', 'cache-control', 'x-qs-meta-batch', 'content-type', 'x-qs-storage-class', 'access_key_id', 'policy', 'signature', 'file']);
    expect(captured?.auth).toBeNull();
    expect(captured?.fileType).toBe('application/pdf');

    const value = (name: string) => fields.find(([n]) => n === name)?.[1] ?? '';
    const policy: unknown = JSON.parse(Buffer.from(value('policy'), 'base64').toString('utf8'));
    expect(policy).toEqual({
      key: 'user/tom/${filename}',
      'cache-control': 'no-cache',
      'x-qs-meta-batch': '7',
      'content-type': 'application/pdf',
      'x-qs-storage-class': 'STANDARD_IA',
    });
    expect(value('access_key_id')).toBe(credentials.accessKeyId);
    expect(value('signature')).toBe(createHmac('sha256', credentials.secretAccessKey).update(value('policy')).digest('base64'));
  });

  it('anonymous forms carry no access key, policy or signature', async () => {
    const form = await buildPostObjectForm(createClient({ ...connection, credentials: undefined }), { bucket: 'forms-bucket', key: 'a', file: new Blob(['x']) });
    expect(form.fields).toEqual([['key', 'a'], ['content-type', 'application/octet-stream']]);
    expect(form.policy).toBeUndefined();
    expect(form.file.name).toBe('blob');
  });

  it("a file named with control characters is posted whole: the form part's name has them percent-encoded (the emulator refused the raw name), the key keeps them", async () => {
    const result = await postObject(createClient(connection), { bucket: 'forms-bucket', key: 'up/bell\u0007 tab\t.txt', file: new File(['data'], 'bell\u0007 tab\t.txt', { type: 'text/plain' }) });
    expect(result.key).toBe('up/bell\u0007 tab\t.txt');
    expect(captured?.fields[0]).toEqual(['key', 'up/bell\u0007 tab\t.txt']);
    expect(captured?.fileName).toBe('bell%07 tab%09.txt');
  });

  it('expands ${filename} to the part after the last slash or backslash and refuses keys starting with /', async () => {
    expect(baseFilename('a/b\\c.txt')).toBe('c.txt');
    expect(baseFilename('plain')).toBe('plain');
    expect(expandKeyTemplate('x/${filename}/${filename}', 'C:\\up\\f.png')).toBe('x/f.png/f.png');
    await expect(buildPostObjectForm(createClient(connection), { bucket: 'forms-bucket', key: '/abs', file: new Blob([]) })).rejects.toThrow(RangeError);
  });
});
