import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient, type QsClient, type SendInput } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { MetadataEditError } from '../../api/metadata/edit.ts';
import { headObject } from '../../api/objects/read.ts';
import { copyObject, putObject } from '../../api/objects/write.ts';
import { editsBetween } from '../../components/metadata-form/form-model.ts';
import { saveMetadataEdits } from '../../api/metadata/save.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';

const visibility: HeaderVisibility = { kind: 'all', reason: 'demo' };

// Seconds matter: Last-Modified has one-second resolution, so the tests move the shared clock on.
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const tick = () => {
  offsetMs += 2000;
};

const { server } = await setupEmulatorServer({ seed: 'demo', now });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection, { now });
const bucket = 'demo-documents';
const ref = { zone: 'pek3a', bucket, key: 'editor/report.txt' };

const FULL = {
  standard: {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'private, max-age=600',
    'content-disposition': 'attachment; filename="r.txt"',
    'content-encoding': 'identity',
    expires: 'Wed, 31 Dec 2031 23:59:59 GMT',
  },
  custom: { author: 'Alice', project: '%E9%A1%B9%E7%9B%AE', keep: 'me' },
};

beforeEach(async () => {
  await putObject(client, { ...ref, body: 'hello', metadata: FULL });
  tick();
});

/** A client that lets "another client" act right before the first request of `operation` goes out. */
function racingClient(operation: string, act: () => Promise<unknown>): QsClient {
  let done = false;
  return {
    ...client,
    send: async (input: SendInput) => {
      if (!done && input.operation === operation) {
        done = true;
        await act();
      }
      return client.send(input);
    },
  };
}

describe('saveMetadataEdits', () => {
  it('sends the full merged set: untouched standard headers and keys survive, edits apply', async () => {
    const base = await headObject(client, ref);
    const result = await saveMetadataEdits(client, {
      visibility,
      ref,
      base,
      edits: { standard: { 'cache-control': 'no-cache', expires: null }, custom: [{ op: 'set', key: 'Author', value: 'Bob' }, { op: 'remove', key: 'project' }] },
    });
    expect(result.kind).toBe('saved');
    const after = await headObject(client, ref);
    expect(after.metadata).toEqual({
      standard: {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-cache',
        'content-disposition': 'attachment; filename="r.txt"',
        'content-encoding': 'identity',
      },
      custom: { author: 'Bob', keep: 'me' },
    });
    expect(result.kind === 'saved' && result.after.metadata).toEqual(after.metadata);
    expect(result.kind === 'saved' && result.requestId).toMatch(/^[0-9a-f]{16,32}$/);
  });

  it('reports a conflict from the HEAD comparison and writes nothing when another client changed the metadata', async () => {
    const base = await headObject(client, ref);
    tick();
    await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/csv' }, custom: { theirs: '1' } } });
    const result = await saveMetadataEdits(client, { visibility, ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: '2' }] } });
    expect(result.kind).toBe('conflict');
    expect(result.kind === 'conflict' && result.detectedBy).toBe('head');
    expect(result.kind === 'conflict' && result.theirs.metadata.custom).toEqual({ theirs: '1' });
    expect((await headObject(client, ref)).metadata.custom).toEqual({ theirs: '1' });
  });

  it('reports a conflict from the conditional copy (412, If-Unmodified-Since) when the content changes between HEAD and copy', async () => {
    const base = await headObject(client, ref);
    const racing = racingClient('CopyObject', () => putObject(client, { ...ref, body: 'changed content', metadata: { standard: {}, custom: { racer: 'yes' } } }));
    const result = await saveMetadataEdits(racing, { visibility, ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: '2' }] } });
    expect(result.kind === 'conflict' && result.detectedBy).toBe('precondition');
    expect(result.kind === 'conflict' && result.theirs.metadata.custom).toEqual({ racer: 'yes' });
    expect((await headObject(client, ref)).metadata.custom).toEqual({ racer: 'yes' });
  });

  it('makes the copy conditional on the version just read (If-Unmodified-Since Last-Modified, no If-Match to override it)', async () => {
    const base = await headObject(client, ref);
    const sent: SendInput[] = [];
    const recording: QsClient = { ...client, send: (input) => (sent.push(input), client.send(input)) };
    await saveMetadataEdits(recording, { visibility, ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: '2' }] } });
    expect(sent.map((input) => input.operation)).toEqual(['HeadObject', 'CopyObject', 'HeadObject']);
    const headers = sent[1]?.headers ?? {};
    expect(headers['x-qs-copy-source-if-match']).toBeUndefined();
    expect(headers['x-qs-copy-source-if-unmodified-since']).toBe(base.lastModifiedRaw);
    expect(headers['x-qs-metadata-directive']).toBe('REPLACE');
    expect(headers['x-qs-copy-source']).toBe('/demo-documents/editor/report.txt');
    // The full set: every untouched header and key goes out again, and nothing else that is metadata.
    const standardNames = ['content-type', 'cache-control', 'content-disposition', 'content-encoding', 'expires'];
    const metadataSent = Object.fromEntries(Object.entries(headers).filter(([name]) => standardNames.includes(name.toLowerCase()) || name.toLowerCase().startsWith('x-qs-meta-')));
    expect(metadataSent).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'private, max-age=600',
      'content-disposition': 'attachment; filename="r.txt"',
      'content-encoding': 'identity',
      expires: 'Wed, 31 Dec 2031 23:59:59 GMT',
      'x-qs-meta-author': 'Alice',
      'x-qs-meta-project': '%E9%A1%B9%E7%9B%AE',
      'x-qs-meta-keep': 'me',
      'x-qs-meta-mine': '2',
    });
  });

  it('refuses a merged set over 2 KB before sending anything', async () => {
    const base = await headObject(client, ref);
    const big = 'v'.repeat(2048);
    await expect(saveMetadataEdits(client, { visibility, ref, base, edits: { custom: [{ op: 'set', key: 'big', value: big }] } })).rejects.toSatisfy(
      (error: unknown) => error instanceof MetadataEditError && error.violation.rule === 'total_too_large' && error.violation.code === 'metadata_too_large',
    );
    expect((await headObject(client, ref)).metadata).toEqual(base.metadata);
  });

  it('undo restores the previous metadata exactly, conditional on the saved version', async () => {
    const base = await headObject(client, ref);
    const saved = await saveMetadataEdits(client, { visibility, ref, base, edits: { standard: { 'content-type': 'application/json' }, custom: [{ op: 'remove', key: 'keep' }] } });
    if (saved.kind !== 'saved') throw new Error('expected a save');
    tick();
    const undo = await saveMetadataEdits(client, { visibility, ref, base: saved.after, edits: editsBetween(saved.after.metadata, saved.before.metadata) });
    expect(undo.kind).toBe('saved');
    expect((await headObject(client, ref)).metadata).toEqual(base.metadata);
  });

  it('undo is refused when the object changed after the save', async () => {
    const base = await headObject(client, ref);
    const saved = await saveMetadataEdits(client, { visibility, ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: '1' }] } });
    if (saved.kind !== 'saved') throw new Error('expected a save');
    tick();
    await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: { standard: {}, custom: { later: '1' } } });
    const undo = await saveMetadataEdits(client, { visibility, ref, base: saved.after, edits: editsBetween(saved.after.metadata, saved.before.metadata) });
    expect(undo.kind).toBe('conflict');
    expect((await headObject(client, ref)).metadata.custom).toEqual({ later: '1' });
  });
});
