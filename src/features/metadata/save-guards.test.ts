/**
 * The save's guards attacked the way they break: headers a browser cannot see (a client that filters
 * responses as a cross-origin fetch does), another writer's metadata-only save racing ours, and two
 * saves of one object at the same moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { createClient, type QsClient, type SendInput } from '../../api/client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../../api/connection.ts';
import { SAFELISTED_RESPONSE_HEADERS, type HeaderVisibility } from '../../api/cors/visibility.ts';
import { headObject } from '../../api/objects/read.ts';
import { copyObject, putObject } from '../../api/objects/write.ts';
import { saveMetadataEdits, SaveBlockedError, versionGuard, type SaveResult } from '../../api/metadata/save.ts';

const { server } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const bucket = 'demo-documents';
const ALL: HeaderVisibility = { kind: 'all', reason: 'demo' };

const FULL = {
  standard: {
    'content-type': 'text/plain',
    'cache-control': 'private, max-age=600',
    'content-disposition': 'attachment; filename="download-me.txt"',
    'content-encoding': 'identity',
  },
  custom: {},
};

let counter = 0;
function freshKey(name: string): string {
  counter += 1;
  return `guards/${name}-${Date.now().toString(36)}-${counter}.txt`;
}

/** What a browser hands a script across origins: safelisted headers plus the exposed ones. */
function browserLike(exposed: readonly string[]): QsClient {
  const readable = new Set([...SAFELISTED_RESPONSE_HEADERS, ...exposed.map((h) => h.toLowerCase())]);
  return {
    ...client,
    send: async (input: SendInput) => {
      const response = await client.send(input);
      const headers = new Headers();
      response.headers.forEach((value, name) => {
        if (readable.has(name)) headers.set(name, value);
      });
      return new Response(input.method === 'HEAD' ? null : await response.arrayBuffer(), { status: response.status, headers });
    },
  };
}

function recording(base: QsClient): { client: QsClient; sent: SendInput[] } {
  const sent: SendInput[] = [];
  return { client: { ...base, send: (input) => (sent.push(input), base.send(input)) }, sent };
}

describe('completeness: a save never resends a set the browser could not read whole', () => {
  it('the user report: a rule exposing only ETag and x-qs-request-id blocks the save and names what is hidden; nothing is sent', async () => {
    const key = freshKey('download-me');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'x', metadata: FULL });
    const exposed = ['etag', 'x-qs-request-id'];
    const browser = recording(browserLike(exposed));
    const base = await headObject(browser.client, ref);
    // What the browser sees: the two hidden headers read as absent.
    expect(base.metadata.standard['content-disposition']).toBeUndefined();
    const error = await saveMetadataEdits(browser.client, {
      ref,
      base,
      edits: { standard: { 'cache-control': 'no-cache' } },
      visibility: { kind: 'listed', exposed },
      acknowledgedHiddenCustom: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaveBlockedError);
    const block = error instanceof SaveBlockedError ? error.block : null;
    expect(block?.kind === 'hidden-headers' && block.hidden.standard).toEqual(['content-disposition', 'content-encoding']);
    expect(browser.sent.map((s) => s.operation)).toEqual(['HeadObject', 'HeadObject']);
    expect((await headObject(client, ref)).metadata.standard).toEqual(FULL.standard);
  });
});

describe('objects above the copy limit', () => {
  it('are not rewritten while the storage class or ETag a multipart copy must repeat is hidden', async () => {
    const key = freshKey('large-hidden');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'ten bytes!', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
    const exposed = ['content-disposition', 'content-encoding', 'etag'];
    const browser = recording(browserLike(exposed));
    const base = await headObject(browser.client, ref);
    const error = await saveMetadataEdits(browser.client, {
      ref,
      base,
      edits: { standard: { 'cache-control': 'no-cache' } },
      visibility: { kind: 'listed', exposed },
      acknowledgedHiddenCustom: true,
      largeCopy: { copyLimit: 4 },
    }).catch((e: unknown) => e);
    expect(error instanceof SaveBlockedError && error.block).toEqual({ kind: 'large-copy-hidden', headers: ['x-qs-storage-class'] });
    expect(browser.sent.map((s) => s.operation)).toEqual(['HeadObject', 'HeadObject']);
  });
});

describe('the version guard', () => {
  it('with ETag hidden it still conditions the copy on Last-Modified (If-Unmodified-Since) and saves', async () => {
    const key = freshKey('etag-hidden');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
    const exposed = ['content-disposition', 'content-encoding'];
    const visibility: HeaderVisibility = { kind: 'listed', exposed };
    const browser = recording(browserLike(exposed));
    const base = await headObject(browser.client, ref);
    expect(base.etag).toBeUndefined();
    expect(versionGuard(base)).toEqual({ kind: 'last-modified', lastModified: base.lastModifiedRaw });
    const result = await saveMetadataEdits(browser.client, { ref, base, edits: { standard: { 'cache-control': 'no-cache' } }, visibility, acknowledgedHiddenCustom: true });
    expect(result.kind).toBe('saved');
    const copy = browser.sent.find((s) => s.operation === 'CopyObject');
    expect(copy?.headers?.['x-qs-copy-source-if-unmodified-since']).toBe(base.lastModifiedRaw);
    expect(copy?.headers?.['x-qs-copy-source-if-match']).toBeUndefined();
  });

  it('with both Last-Modified and ETag unreadable the save is blocked before anything is written', async () => {
    const key = freshKey('no-guard');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
    const stripping: QsClient = {
      ...client,
      send: async (input) => {
        const response = await client.send(input);
        const headers = new Headers(response.headers);
        headers.delete('etag');
        headers.delete('last-modified');
        return new Response(null, { status: response.status, headers });
      },
    };
    const { client: rec, sent } = recording(stripping);
    const base = await headObject(rec, ref);
    expect(versionGuard(base)).toEqual({ kind: 'none' });
    const error = await saveMetadataEdits(rec, { ref, base, edits: { standard: { 'cache-control': 'no-cache' } }, visibility: ALL }).catch((e: unknown) => e);
    expect(error instanceof SaveBlockedError && error.block.kind).toBe('no-guard');
    expect(sent.map((s) => s.operation)).toEqual(['HeadObject', 'HeadObject']);
  });

  it('another client’s metadata-only save between our read and our copy is a 412 conflict (a self-copy keeps the ETag)', async () => {
    const key = freshKey('metadata-race');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: { a: '1' } } });
    const base = await headObject(client, ref);
    let raced = false;
    const racing: QsClient = {
      ...client,
      send: async (input) => {
        if (!raced && input.operation === 'CopyObject') {
          raced = true;
          await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/plain' }, custom: { a: '1', theirs: 'yes' } } });
        }
        return client.send(input);
      },
    };
    const result = await saveMetadataEdits(racing, { ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: 'yes' }] }, visibility: ALL });
    expect(result.kind === 'conflict' && result.detectedBy).toBe('precondition');
    expect((await headObject(client, ref)).metadata.custom).toEqual({ a: '1', theirs: 'yes' });
  });

  it('a write right after our copy is caught by the read-back and reported, never as "saved"', async () => {
    const key = freshKey('verify');
    const ref = { zone: 'pek3a', bucket, key };
    await putObject(client, { ...ref, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } });
    const base = await headObject(client, ref);
    let copies = 0;
    const racing: QsClient = {
      ...client,
      send: async (input) => {
        if (input.operation === 'HeadObject' && copies === 1) {
          copies += 1;
          await copyObject(client, { ...ref, source: ref, directive: 'REPLACE', metadata: { standard: { 'content-type': 'text/plain' }, custom: { theirs: 'after' } } });
        }
        if (input.operation === 'CopyObject') copies += 1;
        return client.send(input);
      },
    };
    const result = await saveMetadataEdits(racing, { ref, base, edits: { custom: [{ op: 'set', key: 'mine', value: 'yes' }] }, visibility: ALL });
    expect(result.kind === 'conflict' && result.detectedBy).toBe('verify');
    expect(result.kind === 'conflict' && result.theirs.metadata.custom).toEqual({ theirs: 'after' });
  });

  it('two saves of one object at the same moment, 100 objects at once: never both "saved" with an edit missing', async () => {
    const keys = Array.from({ length: 100 }, (_, i) => freshKey(`pair-${i}`));
    await Promise.all(keys.map((key) => putObject(client, { zone: 'pek3a', bucket, key, body: 'x', metadata: { standard: { 'content-type': 'text/plain' }, custom: {} } })));
    const outcomes = await Promise.all(keys.map(async (key) => {
      const ref = { zone: 'pek3a', bucket, key };
      // Both tabs opened the editor on the same version.
      const [baseA, baseB] = await Promise.all([headObject(client, ref), headObject(client, ref)]);
      if (!baseA || !baseB) throw new Error('no base');
      const [a, b] = await Promise.all([
        saveMetadataEdits(client, { ref, base: baseA, edits: { custom: [{ op: 'set', key: 'tab-a', value: '1' }] }, visibility: ALL }),
        saveMetadataEdits(client, { ref, base: baseB, edits: { custom: [{ op: 'set', key: 'tab-b', value: '1' }] }, visibility: ALL }),
      ]);
      const final = (await headObject(client, ref)).metadata.custom;
      return { a, b, final };
    }));
    const lost = outcomes.filter(({ a, b, final }) => a.kind === 'saved' && b.kind === 'saved' && !(Object.hasOwn(final, 'tab-a') && Object.hasOwn(final, 'tab-b')));
    expect(lost).toEqual([]);
    // And every "saved" is true: the final object holds that tab's edit.
    const saved = (r: SaveResult) => r.kind === 'saved';
    const untrue = outcomes.filter(({ a, b, final }) => (saved(a) && final['tab-a'] !== '1') || (saved(b) && final['tab-b'] !== '1'));
    expect(untrue).toEqual([]);
    expect(outcomes.filter(({ a, b }) => !saved(a) && !saved(b))).toEqual([]);
  });
});
