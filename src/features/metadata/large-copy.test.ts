import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient, type QsClient, type SendInput } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { ApiError } from '../../api/errors.ts';
import { abortMultipartUpload, copyRangeHeader, initiateMultipartUpload, listMultipartUploads, uploadPartCopy } from '../../api/multipart/operations.ts';
import { getObject, headObject, type ObjectHead } from '../../api/objects/read.ts';
import { putObject } from '../../api/objects/write.ts';
import { copyLimitOf, multipartSelfCopy, planCopyParts, QINGSTOR_COPY_LIMIT, type LargeCopyProgress } from '../../api/metadata/large-copy.ts';
import { saveMetadataEdits } from '../../api/metadata/save.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';

const ALL: HeaderVisibility = { kind: 'all', reason: 'demo' };

// A lowered copy limit: objects of a few KiB are "large". The demo seed's minimum part size is 16 bytes.
const LIMIT = 1000;
const SIZE = 2600;

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const tick = () => {
  offsetMs += 2000;
};

const { server, emulator } = await setupEmulatorServer({ seed: 'demo', now, copyLimit: LIMIT });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = {
  endpoint: 'https://qingstor.com',
  zoneInHost: true,
  style: 'path',
  defaultZone: 'pek3a',
  credentials: DEMO_CREDENTIALS,
  copyLimit: LIMIT,
};
const client = createClient(connection, { now });
const bucket = 'demo-documents';
const ref = { zone: 'pek3a', bucket, key: 'large/video.bin' };
const METADATA = {
  standard: { 'content-type': 'video/mp4', 'cache-control': 'private, max-age=600', 'content-disposition': 'attachment; filename="v.mp4"' },
  custom: { camera: 'X100', keep: 'me' },
};

let body: Uint8Array<ArrayBuffer>;
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

beforeEach(async () => {
  body = new Uint8Array(randomBytes(SIZE));
  await putObject(client, { ...ref, body, metadata: METADATA });
  tick();
});

interface Sent {
  operation: string;
  headers: Record<string, string | undefined>;
  query: SendInput['query'];
}

/**
 * A client that records every request and lets "another client" act right before the `nth` request
 * (1-based) of `operation` goes out.
 */
function recordingClient(race?: { operation: string; nth: number; act: () => Promise<unknown> }): { client: QsClient; sent: Sent[] } {
  const sent: Sent[] = [];
  let seen = 0;
  return {
    sent,
    client: {
      ...client,
      send: async (input: SendInput) => {
        if (race && input.operation === race.operation && ++seen === race.nth) await race.act();
        sent.push({ operation: input.operation, headers: { ...input.headers }, query: input.query });
        return client.send(input);
      },
      json: (schema, input) => {
        sent.push({ operation: input.operation, headers: { ...input.headers }, query: input.query });
        return client.json(schema, input);
      },
    },
  };
}

async function uploadsLeft(): Promise<number> {
  const page = await listMultipartUploads(client, { zone: 'pek3a', bucket, prefix: ref.key });
  return page.uploads.length;
}

async function bodyNow(): Promise<Uint8Array> {
  const got = await getObject(client, ref);
  return new Uint8Array(await got.body.arrayBuffer());
}

function unchanged(before: ObjectHead, after: ObjectHead) {
  expect({ etag: after.etag, lastModified: after.lastModifiedRaw, metadata: after.metadata, size: after.size }).toEqual({
    etag: before.etag,
    lastModified: before.lastModifiedRaw,
    metadata: before.metadata,
    size: before.size,
  });
}

describe('planCopyParts', () => {
  it('covers the object with consecutive ranges of at most the limit', () => {
    expect(planCopyParts(2600, 1000)).toEqual([
      { partNumber: 1, start: 0, end: 999 },
      { partNumber: 2, start: 1000, end: 1999 },
      { partNumber: 3, start: 2000, end: 2599 },
    ]);
    expect(planCopyParts(2000, 1000).map((p) => p.end)).toEqual([999, 1999]);
    // A preferred part size below the limit is used while it fits in 10000 parts.
    expect(planCopyParts(6 * 1024 ** 3, QINGSTOR_COPY_LIMIT)).toHaveLength(6);
    expect(planCopyParts(10, 1000, 4).map((p) => p.end - p.start + 1)).toEqual([4, 4, 2]);
    // More than 10000 preferred parts: the parts grow (still at most the limit).
    expect(planCopyParts(50_000, 1000, 1)).toHaveLength(10000);
    expect(() => planCopyParts(10_000_001, 1000)).toThrow(RangeError);
    expect(() => planCopyParts(0, 1000)).toThrow(RangeError);
  });

  it('the console assumes QingStor’s 5 GB unless the connection names another limit', () => {
    expect(copyLimitOf({})).toBe(5_000_000_000);
    expect(copyLimitOf({ copyLimit: LIMIT })).toBe(LIMIT);
  });
});

describe('uploadPartCopy', () => {
  it('refuses ranges that are not start ≤ end before sending anything', () => {
    expect(copyRangeHeader({ start: 0, end: 9 })).toBe('bytes=0-9');
    expect(() => copyRangeHeader({ start: 5, end: 4 })).toThrow(RangeError);
    expect(() => copyRangeHeader({ start: -1, end: 4 })).toThrow(RangeError);
    expect(() => copyRangeHeader({ start: 0.5, end: 4 })).toThrow(RangeError);
  });

  it('reports the copied range; the server refuses a part above the limit with entity_too_large', async () => {
    const upload = await initiateMultipartUpload(client, { zone: 'pek3a', bucket, key: 'large/part-copy-target' });
    const source = { bucket, key: ref.key };
    const ok = await uploadPartCopy(client, { zone: 'pek3a', bucket, key: 'large/part-copy-target', uploadId: upload.upload_id, partNumber: 1, source, range: { start: 100, end: 199 } });
    expect(ok.copiedRange).toBe(`bytes 100-199/${SIZE}`);
    expect(ok.etag).toBe(`"${md5(body.subarray(100, 200))}"`);
    const refused = await uploadPartCopy(client, { zone: 'pek3a', bucket, key: 'large/part-copy-target', uploadId: upload.upload_id, partNumber: 2, source }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'entity_too_large' });
    await abortMultipartUpload(client, { zone: 'pek3a', bucket, key: 'large/part-copy-target', uploadId: upload.upload_id });
  });
});

describe('saving the metadata of an object above the copy limit', () => {
  it('rewrites it in parts: body size and MD5 unchanged, ETag kept, metadata replaced, every part conditional, no upload left', async () => {
    const base = await headObject(client, ref);
    const { client: recording, sent } = recordingClient();
    const progress: LargeCopyProgress[] = [];
    const result = await saveMetadataEdits(recording, {
      visibility: ALL,
      ref,
      base,
      edits: { standard: { 'cache-control': 'no-cache' }, custom: [{ op: 'set', key: 'camera', value: 'X200' }] },
      largeCopy: { copyLimit: copyLimitOf(connection), onProgress: (p) => progress.push(p) },
    });
    expect(result.kind).toBe('saved');

    const after = await headObject(client, ref);
    expect(after.size).toBe(SIZE);
    expect(md5(await bodyNow())).toBe(md5(body));
    expect(after.etag).toBe(base.etag);
    expect(after.metadata).toEqual({
      standard: { ...METADATA.standard, 'cache-control': 'no-cache' },
      custom: { camera: 'X200', keep: 'me' },
    });
    expect(await uploadsLeft()).toBe(0);

    expect(sent.some((r) => r.operation === 'CopyObject')).toBe(false);
    const initiate = sent.find((r) => r.operation === 'InitiateMultipartUpload');
    // The complete REPLACE set, untouched headers included.
    expect(initiate?.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-disposition': 'attachment; filename="v.mp4"',
      'cache-control': 'no-cache',
      'x-qs-meta-camera': 'X200',
      'x-qs-meta-keep': 'me',
      'x-qs-storage-class': 'STANDARD',
    });
    const parts = sent.filter((r) => r.operation === 'UploadPartCopy');
    expect(parts.map((p) => p.headers['x-qs-copy-range'])).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2599']);
    for (const part of parts) {
      expect(part.headers['x-qs-copy-source']).toBe('/demo-documents/large/video.bin');
      expect(part.headers['x-qs-copy-source-if-match']).toBe(base.etag);
      expect(part.headers['x-qs-copy-source-if-unmodified-since']).toBe(base.lastModifiedRaw);
    }
    expect(progress.at(-1)).toMatchObject({ phase: 'completing', partsDone: 3, partsTotal: 3, bytesDone: SIZE, bytesTotal: SIZE, cancellable: false });
    expect(progress.filter((p) => p.phase === 'copying').map((p) => p.bytesDone)).toEqual([0, 1000, 2000, 2600]);
  });

  it('without options the save takes the limit from the connection', async () => {
    const { client: recording, sent } = recordingClient();
    const saved = await saveMetadataEdits(recording, { visibility: ALL, ref, base: await headObject(client, ref), edits: { custom: [{ op: 'set', key: 'camera', value: 'Z' }] } });
    expect(saved.kind).toBe('saved');
    expect(sent.filter((r) => r.operation === 'CompleteMultipartUpload')).toHaveLength(1);
    expect(sent.map((r) => r.operation)).not.toContain('CopyObject');
    const after = await headObject(client, ref);
    expect(after.metadata.custom).toEqual({ camera: 'Z', keep: 'me' });
    expect(md5(await bodyNow())).toBe(md5(body));
  });

  it('an object of exactly the limit is saved with one PUT-copy', async () => {
    const small = { ...ref, key: 'large/exact.bin' };
    await putObject(client, { ...small, body: new Uint8Array(LIMIT), metadata: METADATA });
    const { client: recording, sent } = recordingClient();
    const result = await saveMetadataEdits(recording, { visibility: ALL, ref: small, base: await headObject(client, small), edits: { standard: { 'cache-control': 'no-store' } }, largeCopy: { copyLimit: LIMIT } });
    expect(result.kind).toBe('saved');
    expect(sent.map((r) => r.operation)).toContain('CopyObject');
    expect(sent.map((r) => r.operation)).not.toContain('UploadPartCopy');
  });

  it('without the large-copy path the server refuses the single copy (the guard is needed)', async () => {
    const base = await headObject(client, ref);
    // A connection that does not know the emulator's lowered limit assumes QingStor's 5 GB: one PUT-copy, refused.
    const { copyLimit: _lowered, ...unaware } = connection;
    const refused = await saveMetadataEdits(createClient(unaware, { now }), { visibility: ALL, ref, base, edits: { standard: { 'cache-control': 'no-cache' } } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: 'entity_too_large' });
    unchanged(base, await headObject(client, ref));
  });

  it('cancel after the first part aborts the upload: the object is as it was and no upload is left', async () => {
    const base = await headObject(client, ref);
    const controller = new AbortController();
    const { client: recording, sent } = recordingClient();
    const outcome = await saveMetadataEdits(recording, {
      visibility: ALL,
      ref,
      base,
      signal: controller.signal,
      edits: { custom: [{ op: 'set', key: 'camera', value: 'cancelled' }] },
      largeCopy: {
        copyLimit: LIMIT,
        onProgress: (p) => {
          if (p.partsDone === 1) controller.abort();
        },
      },
    }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ name: 'AbortError' });
    expect(sent.filter((r) => r.operation === 'UploadPartCopy')).toHaveLength(1);
    expect(sent.map((r) => r.operation)).toContain('AbortMultipartUpload');
    expect(sent.map((r) => r.operation)).not.toContain('CompleteMultipartUpload');
    unchanged(base, await headObject(client, ref));
    expect(md5(await bodyNow())).toBe(md5(body));
    expect(await uploadsLeft()).toBe(0);
    expect(emulator.store.listMultipartUploads(bucket, { prefix: 'large/' }).uploads).toHaveLength(0);
  });

  it('another client replacing the body between two parts: the next part fails its condition, conflict, nothing written', async () => {
    const base = await headObject(client, ref);
    const theirs = new Uint8Array(randomBytes(SIZE));
    const { client: recording, sent } = recordingClient({
      operation: 'UploadPartCopy',
      nth: 2,
      act: () => putObject(client, { ...ref, body: theirs, metadata: { standard: { 'content-type': 'video/webm' }, custom: { by: 'them' } } }),
    });
    const result = await saveMetadataEdits(recording, { visibility: ALL, ref, base, edits: { custom: [{ op: 'set', key: 'camera', value: 'mine' }] }, largeCopy: { copyLimit: LIMIT } });
    expect(result).toMatchObject({ kind: 'conflict', detectedBy: 'precondition' });
    expect(result.kind === 'conflict' && result.theirs.metadata).toEqual({ standard: { 'content-type': 'video/webm' }, custom: { by: 'them' } });
    expect(sent.map((r) => r.operation)).not.toContain('CompleteMultipartUpload');
    expect(md5(await bodyNow())).toBe(md5(theirs));
    expect((await headObject(client, ref)).metadata.custom).toEqual({ by: 'them' });
    expect(await uploadsLeft()).toBe(0);
  });

  it('a metadata-only change after the last part (ETag unchanged) is caught before Complete: conflict, theirs kept', async () => {
    const base = await headObject(client, ref);
    const { client: recording, sent } = recordingClient({
      operation: 'HeadObject',
      // 1: the save's fresh HEAD; 2: the engine's check before Complete.
      nth: 2,
      act: async () => {
        tick();
        const theirs = await headObject(client, ref);
        await multipartSelfCopy(client, {
          ...ref,
          version: theirs,
          metadata: { standard: { 'content-type': 'video/mp4' }, custom: { by: 'them' } },
          conditions: { ifMatch: theirs.etag },
          copyLimit: LIMIT,
        });
      },
    });
    const result = await saveMetadataEdits(recording, { visibility: ALL, ref, base, edits: { custom: [{ op: 'set', key: 'camera', value: 'mine' }] }, largeCopy: { copyLimit: LIMIT } });
    expect(result).toMatchObject({ kind: 'conflict', detectedBy: 'precondition' });
    expect(sent.map((r) => r.operation)).not.toContain('CompleteMultipartUpload');
    const current = await headObject(client, ref);
    expect(current.metadata.custom).toEqual({ by: 'them' });
    expect(current.etag).toBe(base.etag);
    expect(md5(await bodyNow())).toBe(md5(body));
    expect(await uploadsLeft()).toBe(0);
  });

  it('refuses to run without any source condition, before sending anything', async () => {
    const base = await headObject(client, ref);
    const { client: recording, sent } = recordingClient();
    const { etag: _etag, lastModifiedRaw: _lm, ...blind } = base;
    await expect(multipartSelfCopy(recording, { ...ref, version: blind, metadata: METADATA, conditions: {}, copyLimit: LIMIT })).rejects.toThrow(/source condition/);
    expect(sent).toEqual([]);
  });
});
