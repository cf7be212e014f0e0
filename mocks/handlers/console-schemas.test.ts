/**
 * The console and the emulator must agree on the wire: every JSON response of the emulator is run through
 * the console's own zod schemas (src/api/<area>/schemas.ts), request bodies are built with the console's own
 * body builders, and no field the emulator sends may be unknown to the console's schema (a drift there means
 * one side renamed something). The status of every operation is checked against ref §11.2 on the way.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { putBucketAclBody } from '../../src/api/acl/operations.ts';
import { bucketAclSchema } from '../../src/api/acl/schemas.ts';
import { bucketStatisticsSchema } from '../../src/api/buckets/schemas.ts';
import { bucketCorsSchema, putBucketCorsBodySchema } from '../../src/api/cors/schemas.ts';
import { errorBodySchema } from '../../src/api/errors.ts';
import { completeMultipartUploadBody } from '../../src/api/multipart/operations.ts';
import { initiateMultipartUploadSchema, listMultipartSchema, listMultipartUploadsSchema } from '../../src/api/multipart/schemas.ts';
import { objectHeadFromResponse } from '../../src/api/objects/read.ts';
import { deleteMultipleObjectsBody } from '../../src/api/objects/write.ts';
import { deleteMultipleObjectsResultSchema, listObjectsSchema, objectHeadersSchema } from '../../src/api/objects/schemas.ts';
import { listBucketsSchema, locationsSchema } from '../../src/api/service/schemas.ts';
import { createEmulator, DEMO_USER, type Emulator } from '../emulator.ts';
import { createBucket, md5Base64, md5Hex, putText, READER, send, testEmulator } from './test-utils.ts';

let em: Emulator;
const B = 'schema-bucket';

/** Paths of fields present in `value` that `schema` does not declare (objects and arrays, recursively). */
function unknownFields(schema: z.core.$ZodType, value: unknown, path = '$'): string[] {
  let s: z.core.$ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) s = s.unwrap();
  if (s instanceof z.ZodArray && Array.isArray(value)) {
    const element = s.element;
    return value.flatMap((item, i) => unknownFields(element, item, `${path}[${i}]`));
  }
  if (s instanceof z.ZodObject && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const shape: Record<string, z.core.$ZodType> = s.shape;
    return Object.entries(value).flatMap(([k, v]) => {
      const field = shape[k];
      return field === undefined ? [`${path}.${k}`] : unknownFields(field, v, `${path}.${k}`);
    });
  }
  return [];
}

/** Status, schema parse and field coverage of one JSON response. */
async function agrees(response: Response, schema: z.core.$ZodType): Promise<{ status: number; contentType: string | null; issues: string[]; unknown: string[] }> {
  const json: unknown = JSON.parse(await response.text());
  const parsed = z.safeParse(schema, json);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    issues: parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    unknown: unknownFields(schema, json),
  };
}

function ok(status: number): { status: number; contentType: string; issues: never[]; unknown: never[] } {
  return { status, contentType: 'application/json', issues: [], unknown: [] };
}

beforeAll(async () => {
  em = await testEmulator();
  await createBucket(em, B);
  await putText(em, B, 'a.txt', 'alpha', { 'content-type': 'text/plain; charset=utf-8' });
  await putText(em, B, 'dir/b.txt', 'beta');
  await putText(em, B, 'dir/', '');
  await send(em, 'POST', `/${B}/log.txt?append&position=0`, { body: 'line\n' });
  // A multipart object completed without an ETag header (ref §8.5).
  const init = (await (await send(em, 'POST', `/${B}/big.bin?uploads`)).json()) as { upload_id: string };
  await send(em, 'PUT', `/${B}/big.bin?upload_id=${init.upload_id}&part_number=0`, { body: 'part-zero' });
  await send(em, 'POST', `/${B}/big.bin?upload_id=${init.upload_id}`, { body: JSON.stringify(completeMultipartUploadBody([{ partNumber: 0 }])) });
});

describe('emulator JSON responses parse with the console schemas (ref §11.2 statuses)', () => {
  it('ListBuckets (global and zone host) and GET /?location', async () => {
    expect(await agrees(await send(em, 'GET', 'https://qingstor.com/'), listBucketsSchema)).toEqual(ok(200));
    expect(await agrees(await send(em, 'GET', 'https://pek3a.qingstor.com/?limit=1'), listBucketsSchema)).toEqual(ok(200));
    expect(await agrees(await send(em, 'GET', 'https://qingstor.com/?location&lang=zh-cn', { as: 'anonymous' }), locationsSchema)).toEqual(ok(200));
  });

  it('ListObjects: plain, with delimiter, paged, and with ETag-less and appendable entries', async () => {
    for (const query of ['', '?delimiter=/', '?limit=1', '?prefix=dir/&delimiter=/', '?marker=a.txt']) {
      expect(await agrees(await send(em, 'GET', `/${B}${query}`), listObjectsSchema)).toEqual(ok(200));
    }
    const parsed = listObjectsSchema.parse(await (await send(em, 'GET', `/${B}`)).json());
    expect(parsed.keys.find((k) => k.key === 'big.bin')?.etag).toBeUndefined();
    expect(parsed.keys.find((k) => k.key === 'a.txt')).toMatchObject({ etag: `"${md5Hex('alpha')}"`, mime_type: 'text/plain; charset=utf-8', size: 5 });
  });

  it('GetBucketStatistics', async () => {
    expect(await agrees(await send(em, 'GET', `/${B}?stats`), bucketStatisticsSchema)).toEqual(ok(200));
  });

  it('bucket ACL: PUT with the console body builder (200, no body), GET parses', async () => {
    const body = putBucketAclBody([
      { grantee: { type: 'user', id: READER.id }, permission: 'READ' },
      { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' },
    ]);
    const put = await send(em, 'PUT', `/${B}?acl`, { body: JSON.stringify(body) });
    expect(put.status).toBe(200);
    expect(await put.text()).toBe('');
    expect(await agrees(await send(em, 'GET', `/${B}?acl`), bucketAclSchema)).toEqual(ok(200));
    const acl = bucketAclSchema.parse(await (await send(em, 'GET', `/${B}?acl`)).json());
    expect(acl.acl).toHaveLength(3);
  });

  it('bucket CORS: empty, configured with the console body schema, deleted (200/200/204)', async () => {
    expect(await agrees(await send(em, 'GET', `/${B}?cors`), bucketCorsSchema)).toEqual(ok(200));
    const body = putBucketCorsBodySchema.parse({
      cors_rules: [{ allowed_origin: 'http://*.example.com', allowed_methods: ['GET', 'PUT'], allowed_headers: ['*'], expose_headers: ['ETag'], max_age_seconds: 400 }],
      resp_vary: 'enabled',
    });
    expect((await send(em, 'PUT', `/${B}?cors`, { body: JSON.stringify(body) })).status).toBe(200);
    expect(await agrees(await send(em, 'GET', `/${B}?cors`), bucketCorsSchema)).toEqual(ok(200));
    expect(bucketCorsSchema.parse(await (await send(em, 'GET', `/${B}?cors`)).json())).toEqual(body);
    expect((await send(em, 'DELETE', `/${B}?cors`)).status).toBe(204);
  });

  it('multipart: Initiate 200, Upload 201, ListMultipart, ListMultipartUploads, Complete 201, Abort 204', async () => {
    const init = await send(em, 'POST', `/${B}/mp/obj.bin?uploads`, { headers: { 'content-type': 'application/zip' } });
    const initJson: unknown = JSON.parse(await init.clone().text());
    expect(await agrees(init, initiateMultipartUploadSchema)).toEqual(ok(200));
    const { upload_id: id } = initiateMultipartUploadSchema.parse(initJson);
    expect((await send(em, 'PUT', `/${B}/mp/obj.bin?upload_id=${id}&part_number=1`, { body: 'one--' })).status).toBe(201);
    expect((await send(em, 'PUT', `/${B}/mp/obj.bin?upload_id=${id}&part_number=2`, { body: 'two' })).status).toBe(201);
    expect(await agrees(await send(em, 'GET', `/${B}/mp/obj.bin?upload_id=${id}`), listMultipartSchema)).toEqual(ok(200));
    expect(await agrees(await send(em, 'GET', `/${B}/mp/obj.bin?upload_id=${id}&part_number_marker=1&limit=1`), listMultipartSchema)).toEqual(ok(200));
    for (const query of ['?uploads', '?uploads&delimiter=/', '?uploads&limit=1', '?uploads&prefix=mp/']) {
      expect(await agrees(await send(em, 'GET', `/${B}${query}`), listMultipartUploadsSchema)).toEqual(ok(200));
    }
    const listed = listMultipartSchema.parse(await (await send(em, 'GET', `/${B}/mp/obj.bin?upload_id=${id}`)).json());
    const body = completeMultipartUploadBody(listed.object_parts.map((p) => ({ partNumber: p.part_number, ...(p.etag !== undefined ? { etag: p.etag } : {}) })));
    const complete = await send(em, 'POST', `/${B}/mp/obj.bin?upload_id=${id}`, { body: JSON.stringify(body), headers: { etag: '"client-etag"' } });
    expect(complete.status).toBe(201);
    expect(complete.headers.get('etag')).toBe('"client-etag"');
    expect((await send(em, 'DELETE', `/${B}/mp/obj.bin?upload_id=${id}`)).status).toBe(204);
  });

  it('DeleteMultipleObjects with the console body builder, loud and quiet', async () => {
    await putText(em, B, 'del/1', '1');
    await putText(em, B, 'del/2', '2');
    const loud = JSON.stringify(deleteMultipleObjectsBody(['del/1', 'del/missing', 'k'.repeat(1024)]));
    const r = await send(em, 'POST', `/${B}?delete`, { body: loud, headers: { 'content-md5': md5Base64(loud) } });
    expect(await agrees(r, deleteMultipleObjectsResultSchema)).toEqual(ok(200));
    const quiet = JSON.stringify(deleteMultipleObjectsBody(['del/2'], true));
    const q = await send(em, 'POST', `/${B}?delete`, { body: quiet, headers: { 'content-md5': md5Base64(quiet) } });
    expect(await agrees(q, deleteMultipleObjectsResultSchema)).toEqual(ok(200));
  });

  it('every error envelope parses with errorBodySchema and carries exactly its four fields', async () => {
    const failures = [
      send(em, 'GET', `/${B}/missing`),
      send(em, 'GET', '/no-such-bucket'),
      send(em, 'GET', `/${B}`, { as: 'anonymous' }),
      send(em, 'PUT', `/${B}?acl`, { body: '{' }),
      send(em, 'GET', `/${B}/a.txt`, { headers: { range: 'bytes=9-' } }),
      send(em, 'GET', `/${B}/a.txt`, { headers: { 'if-match': '"x"' } }),
      send(em, 'PATCH', `/${B}`),
    ];
    for (const response of await Promise.all(failures)) {
      const result = await agrees(response, errorBodySchema);
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect({ ...result, status: 0 }).toEqual({ ...ok(0) });
    }
  });
});

describe('object responses parse with the console header schema', () => {
  it('HEAD and GET of plain, appendable, ETag-less and ranged objects', async () => {
    for (const [method, key, headers, status] of [
      ['HEAD', 'a.txt', {}, 200],
      ['GET', 'a.txt', {}, 200],
      ['HEAD', 'log.txt', {}, 200],
      ['HEAD', 'big.bin', {}, 200],
      ['GET', 'a.txt', { range: 'bytes=1-2' }, 206],
    ] as const) {
      const r = await send(em, method, `/${B}/${key}`, { headers });
      expect(r.status).toBe(status);
      const parsed = objectHeadersSchema.safeParse(Object.fromEntries(r.headers));
      expect(parsed.success).toBe(true);
      const head = objectHeadFromResponse(r, { bucket: B, key }, 'HeadObject', method);
      expect(head.key).toBe(key);
    }
    const append = objectHeadersSchema.parse(Object.fromEntries((await send(em, 'HEAD', `/${B}/log.txt`)).headers));
    expect(append).toMatchObject({ 'x-qs-object-type': 'appendable', 'x-qs-next-append-position': 5, 'content-length': 5 });
    const noEtag = objectHeadersSchema.parse(Object.fromEntries((await send(em, 'HEAD', `/${B}/big.bin`)).headers));
    expect(noEtag.etag).toBeUndefined();
  });

  it('write statuses: PUT/copy/move 201 with ETag, append 200 with next position, DELETE 204, 304 and 412', async () => {
    const put = await putText(em, B, 'w/src', 'source');
    expect([put.status, put.headers.get('etag')]).toEqual([201, `"${md5Hex('source')}"`]);
    const copy = await send(em, 'PUT', `/${B}/w/copy`, { headers: { 'x-qs-copy-source': `/${B}/w/src` } });
    expect([copy.status, copy.headers.get('etag')]).toEqual([201, `"${md5Hex('source')}"`]);
    const move = await send(em, 'PUT', `/${B}/w/moved`, { headers: { 'x-qs-move-source': `/${B}/w/copy` } });
    expect([move.status, move.headers.get('etag')]).toEqual([201, `"${md5Hex('source')}"`]);
    const append = await send(em, 'POST', `/${B}/log.txt?append&position=5`, { body: 'more' });
    expect([append.status, append.headers.get('x-qs-next-append-position')]).toEqual([200, '9']);
    expect((await send(em, 'GET', `/${B}/w/src`, { headers: { 'if-none-match': `"${md5Hex('source')}"` } })).status).toBe(304);
    expect((await send(em, 'GET', `/${B}/w/src`, { headers: { 'if-match': '"other"' } })).status).toBe(412);
    expect((await send(em, 'DELETE', `/${B}/w/src`)).status).toBe(204);
    expect((await send(em, 'DELETE', `/${B}/w/never-existed`)).status).toBe(204);
  });
});

describe('the demo seed, as the console first sees it', () => {
  it('every bucket, object page, upload list and part list parses with the console schemas', async () => {
    const demo = await createEmulator({ seed: 'demo' });
    const as = DEMO_USER;
    const buckets = listBucketsSchema.parse(await (await send(demo, 'GET', 'https://qingstor.com/', { as })).json());
    expect(buckets.buckets.length).toBeGreaterThan(0);
    let pages = 0;
    for (const bucket of buckets.buckets) {
      const base = `https://${bucket.location}.qingstor.com/${bucket.name}`;
      const reads: Array<[string, z.core.$ZodType]> = [
        ['', listObjectsSchema],
        ['?delimiter=/', listObjectsSchema],
        ['?stats', bucketStatisticsSchema],
        ['?acl', bucketAclSchema],
        ['?cors', bucketCorsSchema],
        ['?uploads', listMultipartUploadsSchema],
      ];
      for (const [query, schema] of reads) {
        const url = base + query;
        expect({ url, ...(await agrees(await send(demo, 'GET', url, { as }), schema)) }).toEqual({ url, ...ok(200) });
        pages++;
      }
      const uploads = listMultipartUploadsSchema.parse(await (await send(demo, 'GET', `${base}?uploads&limit=3`, { as })).json());
      for (const upload of uploads.uploads) {
        const url = `${base}/${upload.key.split('/').map(encodeURIComponent).join('/')}?upload_id=${upload.upload_id}`;
        expect({ url, ...(await agrees(await send(demo, 'GET', url, { as }), listMultipartSchema)) }).toEqual({ url, ...ok(200) });
      }
    }
    expect(pages).toBe(buckets.buckets.length * 6);
  });
});
