import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_CREDENTIALS } from '../src/api/connection.ts';
import { createEmulator, type Emulator } from './emulator.ts';
import { send, sendRequest, encodeKeyPath, jsonOf } from './handlers/test-utils.ts';
import { DEMO_ARCHIVE_OBJECTS, DEMO_BUCKETS, DEMO_TINY_PARTS, DEMO_USER, HOSTILE_KEYS } from './seed.ts';

const demo = (): Promise<Emulator> => createEmulator({ seed: 'demo', domains: ['qingstor.invalid'] });
const Z = 'https://pek3a.qingstor.invalid';
const SH = 'https://sh1a.qingstor.invalid';

describe('demo seed', () => {
  // One shared emulator for the read-only checks: seeding 100,000 objects is not free on a busy machine.
  let shared: Emulator;
  beforeAll(async () => {
    shared = await demo();
  });

  it('uses the documented demo user whose keys the console ships with', () => {
    expect(DEMO_USER).toEqual({ id: 'usr-demo0001', name: 'demo', accessKeyId: DEMO_CREDENTIALS.accessKeyId, secretAccessKey: DEMO_CREDENTIALS.secretAccessKey });
    expect(DEMO_USER.accessKeyId).toBe('QSDEMOACCESSKEYID0001');
  });

  it('creates buckets in two zones, owned by the demo user, visible over HTTP', async () => {
    const em = shared;
    const body = z.object({ count: z.number(), buckets: z.array(z.object({ name: z.string(), location: z.string() })) }).parse(await jsonOf(await send(em, 'GET', 'https://qingstor.invalid/', { as: DEMO_USER })));
    expect(body.buckets.map((b) => `${b.location}/${b.name}`)).toEqual([
      'sh1a/demo-archive',
      'pek3a/demo-documents',
      'pek3a/demo-photos',
      'pek3a/demo-public',
      'sh1a/demo-uploads',
    ]);
  });

  it('bulk-loads 100,000 objects in the archive bucket that list in folders', async () => {
    const em = shared;
    expect(em.store.getBucketStatistics(DEMO_BUCKETS.archive).count).toBe(DEMO_ARCHIVE_OBJECTS);
    const top = await jsonOf(await send(em, 'GET', `${SH}/demo-archive?delimiter=/&prefix=logs/2024/`, { as: DEMO_USER }));
    expect(top).toMatchObject({ common_prefixes: expect.arrayContaining(['logs/2024/01/', 'logs/2024/09/']), keys: [] });
    const day = await jsonOf(await send(em, 'GET', `${SH}/demo-archive?prefix=logs/2024/01/01/&limit=3`, { as: DEMO_USER }));
    expect(day).toMatchObject({ has_more: true, keys: [{ key: 'logs/2024/01/01/event-0000.json', mime_type: 'application/json' }, {}, {}] });
  });

  it('stores hostile keys retrievable over HTTP and an object with all five standard headers', async () => {
    const em = shared;
    for (const key of HOSTILE_KEYS) {
      const r = await send(em, 'GET', `${Z}/demo-documents/${encodeKeyPath(key)}`, { as: DEMO_USER });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(`Content of ${key}\n`);
    }
    const head = await send(em, 'HEAD', `${Z}/demo-documents/reports/quarterly-report.pdf`, { as: DEMO_USER });
    for (const name of ['content-type', 'cache-control', 'content-disposition', 'content-encoding', 'expires']) expect(head.headers.get(name)).not.toBeNull();
    expect(head.headers.get('x-qs-meta-title')).toMatch(/^=\?UTF-8\?B\?/i);
    expect(head.headers.get('x-qs-meta-project')).toMatch(/%[0-9A-F]{2}/);
  });

  it('has real sample files to preview: a PNG, a PDF with a valid cross-reference table, text and JSON', async () => {
    const bytes = async (key: string) => new Uint8Array(await (await send(shared, 'GET', `${Z}/demo-documents/${encodeKeyPath(key)}`, { as: DEMO_USER })).arrayBuffer());
    const png = await bytes('samples/chart.png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const pdf = new TextDecoder().decode(await bytes('samples/summary.pdf'));
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    // startxref points at the "xref" keyword, and every object offset at "N 0 obj".
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
    expect(JSON.parse(new TextDecoder().decode(await bytes('samples/settings.json')))).toMatchObject({ theme: 'system' });
    const wav = await bytes('samples/tone.wav');
    expect(new TextDecoder().decode(wav.subarray(0, 4)) + new TextDecoder().decode(wav.subarray(8, 12))).toBe('RIFFWAVE');
    expect(new DataView(wav.buffer, wav.byteOffset).getUint32(4, true)).toBe(wav.length - 8);
    expect((await send(shared, 'HEAD', `${Z}/demo-documents/${encodeKeyPath('samples/invoice\u202efdp.exe')}`, { as: DEMO_USER })).status).toBe(200);
  });

  it('has a public-read bucket: anonymous GET yes, anonymous ListObjects no', async () => {
    const em = shared;
    expect((await send(em, 'GET', `${Z}/demo-public/index.html`, { as: 'anonymous' })).status).toBe(200);
    expect((await send(em, 'GET', `${Z}/demo-public`, { as: 'anonymous' })).status).toBe(403);
  });

  it('has in-progress uploads with gaps and with 2,500 tiny parts that the demo minimum lets complete', async () => {
    const em = await demo();
    const uploads = em.store.listMultipartUploads(DEMO_BUCKETS.uploads, {}).uploads;
    const byKey = new Map(uploads.map((u) => [u.key, u.uploadId]));
    const gaps = byKey.get('videos/holiday-4k.mp4') ?? '';
    expect(em.store.listParts(DEMO_BUCKETS.uploads, 'videos/holiday-4k.mp4', gaps, {}).parts.map((p) => p.partNumber)).toEqual([1, 2, 5]);
    const tiny = byKey.get('backups/db-dump.sql') ?? '';
    const first = await jsonOf(await send(em, 'GET', `${SH}/demo-uploads/backups/db-dump.sql?upload_id=${tiny}&limit=1000&part_number_marker=2000`, { as: DEMO_USER }));
    expect(first).toMatchObject({ count: DEMO_TINY_PARTS, object_parts: expect.any(Array) });
    const parts = Array.from({ length: DEMO_TINY_PARTS }, (_, i) => ({ part_number: i + 1 }));
    const done = await send(em, 'POST', `${SH}/demo-uploads/backups/db-dump.sql?upload_id=${tiny}`, { as: DEMO_USER, body: JSON.stringify({ object_parts: parts }), headers: { 'content-type': 'application/json' } });
    expect(done.status).toBe(201);
    expect(em.store.getObject(DEMO_BUCKETS.uploads, 'backups/db-dump.sql').size).toBe(DEMO_TINY_PARTS * 16);
  });

  it('is deterministic: two seeds hold the same keys and ETags', async () => {
    const a = shared;
    const b = await demo();
    const snapshot = (em: Emulator) => em.store.listObjects(DEMO_BUCKETS.documents, { limit: 1000 }).keys.map((o) => `${o.key}=${o.etag}`);
    expect(snapshot(a)).toEqual(snapshot(b));
    expect(snapshot(a).length).toBeGreaterThan(10);
  });

  it('gives every demo bucket a CORS rule a browser console can use', async () => {
    const em = shared;
    const r = await sendRequest(em, new Request(`${Z}/demo-photos/cover.svg`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,x-qs-date,content-type' } }));
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(r.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
  });
});

describe('empty seed', () => {
  it('has no buckets but accepts its users', async () => {
    const em = await createEmulator({ seed: 'empty' });
    expect(await jsonOf(await send(em, 'GET', 'https://qingstor.com/', { as: DEMO_USER }))).toEqual({ count: 0, buckets: [] });
  });
});
