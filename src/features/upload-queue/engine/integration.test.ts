import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUser } from '../../../../mocks/auth/signature.ts';
import { setupEmulatorServer } from '../../../../mocks/node.ts';
import { putBucket } from '../../../api/buckets/operations.ts';
import { createClient } from '../../../api/client.ts';
import { ApiError } from '../../../api/errors.ts';
import { initiateMultipartUpload, listParts, uploadPart } from '../../../api/multipart/operations.ts';
import { getObject, headObject } from '../../../api/objects/read.ts';
import { createApiPorts } from './api-ports.ts';
import { createMainThreadHasher } from './hasher.ts';
import { ResumeMismatchError } from './multipart-model.ts';
import { planBatch } from './plan-batch.ts';
import type { UploadPorts } from './ports.ts';
import type { UploadQueue } from './queue-model.ts';
import { createUploadQueue } from './queue.ts';
import { createMemoryResumeStore, type ResumeStore } from './resume-store.ts';
import { bytes } from './test-fakes.ts';

/**
 * The engine through the real api client (signing, PostObject forms, XHR/fetch transport, error mapping)
 * against the real emulator handlers in-process (msw setupServer). The emulator's minimum part size is
 * lowered so multipart runs on small files (ref §8.5, mocks/emulator.ts minPartSize).
 */

// Test-only key pair; it exists nowhere but in this file.
const OWNER: MockUser = { id: 'usr-upleng01', name: 'upload-engine', accessKeyId: 'UPLOADENGINEKEY00001', secretAccessKey: 'uploadEngineSecret0000000000000000000000' };
const MIN_PART = 16;
const BUCKET = 'upload-engine';

const client = createClient({
  endpoint: 'https://qingstor.com',
  zoneInHost: true,
  style: 'path',
  defaultZone: 'pek3a',
  credentials: { accessKeyId: OWNER.accessKeyId, secretAccessKey: OWNER.secretAccessKey },
});
const { server } = await setupEmulatorServer({ seed: 'empty', users: [OWNER], minPartSize: MIN_PART });

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  await putBucket(client, { bucket: BUCKET });
});
afterAll(() => server.close());

const hasher = createMainThreadHasher();
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

function queueWith(ports: UploadPorts, resumeStore: ResumeStore): UploadQueue {
  return createUploadQueue({
    ports,
    scope: 'https://qingstor.com|UPLOADENGINEKEY00001',
    hasher: { ...hasher, dispose: () => undefined },
    resumeStore,
    partConcurrency: 3,
    partPlan: { minPartSize: MIN_PART, partSize: MIN_PART },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
}

async function objectBytes(key: string): Promise<Uint8Array> {
  return new Uint8Array(await (await getObject(client, { bucket: BUCKET, key })).body.arrayBuffer());
}

/** Real ports, counting part uploads and refusing the chosen part numbers (a dropped connection stand-in). */
function countingPorts(refuse: (partNumber: number) => boolean = () => false) {
  const real = createApiPorts(client);
  const sent: number[] = [];
  const ports: UploadPorts = {
    ...real,
    uploadPart: (input, signal) => {
      if (refuse(input.partNumber)) return Promise.reject(new ApiError({ status: 403, code: 'permission_denied', message: 'refused by the test', requestId: '', url: '', fromBody: false, operation: 'UploadMultipart', method: 'PUT', requestUrl: 'https://qingstor.com/' }));
      sent.push(input.partNumber);
      return real.uploadPart(input, signal);
    },
  };
  return { ports, sent };
}

describe('upload engine against the emulator', () => {
  it('uploads a batch (form + multipart) with metadata; objects have their bytes, metadata and MD5 ETags', async () => {
    const small = bytes(40, 1);
    const big = bytes(5 * MIN_PART + 3, 2);
    const plan = planBatch({
      files: [
        { file: new File([small], 'a.txt', { type: 'text/plain' }), relativePath: 'docs/a.txt' },
        { file: new File([big], 'big.bin'), relativePath: 'docs/big.bin' },
      ],
      bucket: BUCKET,
      prefix: 'batch/',
      metadata: { standard: { 'cache-control': 'max-age=60' }, custom: { project: 'apollo' } },
      multipartThreshold: 64,
    });
    expect(plan.uploads.map((u) => u.kind)).toEqual(['form', 'multipart']);
    const queue = queueWith(createApiPorts(client), createMemoryResumeStore());
    queue.add(plan.uploads);
    await queue.idle();

    const items = queue.getSnapshot().items;
    expect(items.map((i) => [i.state, i.error])).toEqual([['done', undefined], ['done', undefined]]);
    expect(items.map((i) => i.etag)).toEqual([`"${md5(small)}"`, `"${md5(big)}"`]);
    expect(items[1]?.multipart).toMatchObject({ partCount: 6, partsDone: 6 });

    const smallHead = await headObject(client, { bucket: BUCKET, key: 'batch/docs/a.txt' });
    expect(smallHead).toMatchObject({ size: 40, etag: `"${md5(small)}"`, contentType: 'text/plain', metadata: { custom: { project: 'apollo' } } });
    expect(smallHead.metadata.standard['cache-control']).toBe('max-age=60');
    const bigHead = await headObject(client, { bucket: BUCKET, key: 'batch/docs/big.bin' });
    expect(bigHead).toMatchObject({ size: big.length, etag: `"${md5(big)}"`, metadata: { custom: { project: 'apollo' } } });
    expect(bigHead.metadata.standard['cache-control']).toBe('max-age=60');
    expect(Buffer.from(await objectBytes('batch/docs/a.txt')).equals(Buffer.from(small))).toBe(true);
    expect(Buffer.from(await objectBytes('batch/docs/big.bin')).equals(Buffer.from(big))).toBe(true);
  });

  it('resumes after a "reload": a new queue with the remembered record sends only the missing parts', async () => {
    const data = bytes(7 * MIN_PART + 5, 3);
    const resumeStore = createMemoryResumeStore();
    const first = countingPorts((n) => n >= 4);
    const before = queueWith(first.ports, resumeStore);
    before.add(planBatch({ files: [new File([data], 'movie.bin', { lastModified: 42 })], bucket: BUCKET, prefix: 'resume/', metadata: { standard: { 'content-type': 'video/mp4' }, custom: { take: '1' } }, multipartThreshold: 1 }).uploads);
    await before.idle();
    expect(before.getSnapshot().items[0]?.state).toBe('failed');
    const [record] = await before.listResumable();
    expect(record).toMatchObject({ bucket: BUCKET, key: 'resume/movie.bin', partSize: MIN_PART });
    before.dispose();
    // Parts in flight when part 4 was refused were aborted, so ask the server what it has.
    const present = (await listParts(client, { bucket: BUCKET, key: 'resume/movie.bin', uploadId: record?.uploadId ?? '' })).object_parts.map((p) => p.part_number);
    expect(present.length).toBeGreaterThan(0);
    expect(present.every((n) => n < 4)).toBe(true);
    const missing = [0, 1, 2, 3, 4, 5, 6, 7].filter((n) => !present.includes(n));

    // The same file chosen again in a fresh console (new File object).
    const second = countingPorts();
    const after = queueWith(second.ports, resumeStore);
    after.add(planBatch({ files: [new File([data.slice()], 'movie.bin', { lastModified: 42 })], bucket: BUCKET, prefix: 'resume/', metadata: { standard: { 'content-type': 'video/mp4' }, custom: { take: '1' } }, multipartThreshold: 1 }).uploads);
    await after.idle();
    const item = after.getSnapshot().items[0];
    expect(item).toMatchObject({ state: 'done', etag: `"${md5(data)}"`, multipart: { uploadId: record?.uploadId, partsReused: present.length, partsDone: 8 } });
    expect(second.sent.sort((a, b) => a - b)).toEqual(missing);
    expect(Buffer.from(await objectBytes('resume/movie.bin')).equals(Buffer.from(data))).toBe(true);
    expect(await headObject(client, { bucket: BUCKET, key: 'resume/movie.bin' })).toMatchObject({ contentType: 'video/mp4', metadata: { custom: { take: '1' } } });
    expect(await after.listResumable()).toEqual([]);
  });

  it('continues an upload started elsewhere (inspector) and re-sends a part whose bytes differ; refuses a wrong file', async () => {
    const data = bytes(4 * MIN_PART + 9, 4);
    const key = 'elsewhere/data.bin';
    const { upload_id: uploadId } = await initiateMultipartUpload(client, { bucket: BUCKET, key, metadata: { standard: {}, custom: { source: 'cli' } } });
    await uploadPart(client, { bucket: BUCKET, key, uploadId, partNumber: 0, body: new Blob([data.slice(0, MIN_PART)]) });
    await uploadPart(client, { bucket: BUCKET, key, uploadId, partNumber: 2, body: new Blob([bytes(MIN_PART, 99)]) }); // wrong bytes

    const { ports, sent } = countingPorts();
    const queue = queueWith(ports, createMemoryResumeStore());
    const wrongId = queue.resumeRemote({ bucket: BUCKET, key, uploadId }, new File([bytes(3 * MIN_PART, 5)], 'other.bin'));
    await queue.idle();
    const wrong = queue.getSnapshot().items.find((i) => i.id === wrongId);
    expect(wrong?.state).toBe('failed');
    expect(wrong?.error).toBeInstanceOf(ResumeMismatchError);
    expect(sent).toEqual([]);
    expect((await listParts(client, { bucket: BUCKET, key, uploadId })).object_parts.map((p) => p.part_number)).toEqual([0, 2]);

    const rightId = queue.resumeRemote({ bucket: BUCKET, key, uploadId }, new File([data], 'data.bin'));
    await queue.idle();
    expect(queue.getSnapshot().items.find((i) => i.id === rightId)).toMatchObject({ state: 'done', multipart: { partsReused: 1, partsDone: 5 } });
    expect(sent.sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(Buffer.from(await objectBytes(key)).equals(Buffer.from(data))).toBe(true);
    expect(await headObject(client, { bucket: BUCKET, key })).toMatchObject({ etag: `"${md5(data)}"`, metadata: { custom: { source: 'cli' } } });
  });

  it('cancel aborts the upload on the emulator', async () => {
    const data = bytes(3 * MIN_PART, 6);
    const { ports } = countingPorts((n) => n === 2);
    const queue = queueWith(ports, createMemoryResumeStore());
    const [id = ''] = queue.add(planBatch({ files: [new File([data], 'x.bin')], bucket: BUCKET, prefix: 'cancel/', multipartThreshold: 1 }).uploads);
    await queue.idle();
    const uploadId = queue.getSnapshot().items[0]?.multipart?.uploadId ?? '';
    expect(uploadId).not.toBe('');
    await queue.cancel(id);
    expect(queue.getSnapshot().items[0]?.state).toBe('cancelled');
    await expect(listParts(client, { bucket: BUCKET, key: 'cancel/x.bin', uploadId })).rejects.toMatchObject({ code: 'upload_not_exists' });
  });
});
