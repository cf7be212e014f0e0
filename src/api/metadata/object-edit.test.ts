/**
 * editObjectMetadata, the per-object edit of bulk jobs, and saveMetadataEdits, the single editor's save,
 * counted request by request against the emulator, and attacked the way they break: a header the browser
 * cannot see, and another writer between the read and the copy, also within the second of the version read
 * (where the copy's date condition alone cannot tell the two versions apart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { putBucket } from '../buckets/operations.ts';
import { createClient, type QsClient, type SendInput } from '../client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../connection.ts';
import { SAFELISTED_RESPONSE_HEADERS, type HeaderVisibility } from '../cors/visibility.ts';
import { headObject } from '../objects/read.ts';
import { copyObject, putObject } from '../objects/write.ts';
import type { ObjectMetadata } from './types.ts';
import { editObjectMetadata, saveMetadataEdits, SaveBlockedError } from './save.ts';

// The emulator's clock: real time, or frozen on one second for the same-second race.
let frozen: Date | undefined;
const { server } = await setupEmulatorServer({ seed: 'empty', now: () => frozen ?? new Date() });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const bucket = 'object-edit-test';
const ALL: HeaderVisibility = { kind: 'all', reason: 'demo' };
const ORIGINAL: ObjectMetadata = { standard: { 'content-type': 'text/plain', 'content-disposition': 'inline' }, custom: { a: '1' } };
const THEIRS: ObjectMetadata = { standard: { 'content-type': 'text/plain' }, custom: { a: '1', theirs: 'yes' } };

let counter = 0;
/** A new object whose Last-Modified is a minute in the past (so the save has no second to wait out). */
async function oldObject(metadata: ObjectMetadata = ORIGINAL): Promise<{ zone: string; bucket: string; key: string }> {
  counter += 1;
  const ref = { zone: 'pek3a', bucket, key: `edit/${counter}.txt` };
  frozen = new Date(Date.now() - 60_000);
  try {
    await putObject(client, { ...ref, body: 'body', metadata });
  } finally {
    frozen = undefined;
  }
  return ref;
}

/** A client that records what it sends and can act right after a given answer arrives. */
function recording(base: QsClient, after?: (input: SendInput, index: number) => Promise<void>): { client: QsClient; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    client: {
      ...base,
      send: async (input) => {
        sent.push(`${input.method} ${input.operation}`);
        const response = await base.send(input);
        await after?.(input, sent.length - 1);
        return response;
      },
    },
  };
}

beforeAll(async () => {
  await putBucket(client, { zone: 'pek3a', bucket });
});

describe('editObjectMetadata: one read before the write, one read-back after', () => {
  it('HEAD, the conditional REPLACE copy, the read-back HEAD: three requests, every header kept', async () => {
    const ref = await oldObject();
    const { client: rec, sent } = recording(client);
    const result = await editObjectMetadata(rec, ref, { standard: { 'cache-control': 'no-cache' } }, ALL);
    expect(result.kind).toBe('saved');
    expect(sent).toEqual(['HEAD HeadObject', 'PUT CopyObject', 'HEAD HeadObject']);
    expect((await headObject(client, ref)).metadata).toEqual({ standard: { ...ORIGINAL.standard, 'cache-control': 'no-cache' }, custom: ORIGINAL.custom });
  });

  it('edits that change nothing on this object: the HEAD only, nothing written', async () => {
    const ref = await oldObject();
    const { client: rec, sent } = recording(client);
    const result = await editObjectMetadata(rec, ref, { custom: [{ op: 'set', key: 'a', value: '1' }] }, ALL);
    expect(result.kind).toBe('unchanged');
    expect(sent).toEqual(['HEAD HeadObject']);
  });

  it('a CORS rule that hides a header the save must resend refuses the save after the HEAD; nothing is written', async () => {
    const ref = await oldObject();
    // What a cross-origin page reads: the safelisted headers and the exposed ones only.
    const exposed = ['etag', 'x-qs-request-id', 'x-qs-meta-a'];
    const readable = new Set([...SAFELISTED_RESPONSE_HEADERS, ...exposed]);
    const browser: QsClient = {
      ...client,
      send: async (input) => {
        const response = await client.send(input);
        const headers = new Headers();
        response.headers.forEach((value, name) => readable.has(name) && headers.set(name, value));
        return new Response(null, { status: response.status, headers });
      },
    };
    const { client: rec, sent } = recording(browser);
    const error = await editObjectMetadata(rec, ref, { standard: { 'cache-control': 'no-cache' } }, { kind: 'listed', exposed }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaveBlockedError);
    expect(error instanceof SaveBlockedError && error.block).toMatchObject({ kind: 'hidden-headers', hidden: { standard: ['content-disposition', 'content-encoding'] } });
    expect(sent).toEqual(['HEAD HeadObject']);
    expect((await headObject(client, ref)).metadata).toEqual(ORIGINAL);
  });

  it('another writer between our read and our copy: the copy fails its condition (412), theirs stays', async () => {
    const ref = await oldObject();
    const { client: rec, sent } = recording(client, async (input, index) => {
      if (index === 0) await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: THEIRS });
    });
    const result = await editObjectMetadata(rec, ref, { custom: [{ op: 'set', key: 'mine', value: 'yes' }] }, ALL);
    expect(result.kind === 'conflict' && result.detectedBy).toBe('precondition');
    expect(sent).toEqual(['HEAD HeadObject', 'PUT CopyObject', 'HEAD HeadObject']);
    expect((await headObject(client, ref)).metadata).toEqual(THEIRS);
  });

  it('another writer within the same second as the version read (same Last-Modified): read again after that second, conflict, theirs stays', async () => {
    counter += 1;
    const ref = { zone: 'pek3a', bucket, key: `edit/same-second-${counter}.txt` };
    // The emulator's clock stands still: the object, our read and their write all carry one Last-Modified.
    frozen = new Date(Math.floor(Date.now() / 1000) * 1000);
    try {
      await putObject(client, { ...ref, body: 'body', metadata: ORIGINAL });
      const { client: rec, sent } = recording(client, async (input, index) => {
        if (index === 0) await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: THEIRS });
      });
      const result = await editObjectMetadata(rec, ref, { custom: [{ op: 'set', key: 'mine', value: 'yes' }] }, ALL);
      expect(result.kind === 'conflict' && result.detectedBy).toBe('head');
      expect(sent).toEqual(['HEAD HeadObject', 'HEAD HeadObject']);
      expect((await headObject(client, ref)).metadata).toEqual(THEIRS);
    } finally {
      frozen = undefined;
    }
  });
});

describe('saveMetadataEdits (the single editor): one read before the write, one read-back after', () => {
  it('a save of the version the editor shows: HEAD, conditional copy, read-back HEAD', async () => {
    const ref = await oldObject();
    const base = await headObject(client, ref);
    const { client: rec, sent } = recording(client);
    const result = await saveMetadataEdits(rec, { ref, base, edits: { standard: { 'content-disposition': null } }, visibility: ALL });
    expect(result.kind).toBe('saved');
    expect(sent).toEqual(['HEAD HeadObject', 'PUT CopyObject', 'HEAD HeadObject']);
    expect((await headObject(client, ref)).metadata).toEqual({ standard: { 'content-type': 'text/plain' }, custom: ORIGINAL.custom });
  });
});
