import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { putBucket } from '../buckets/operations.ts';
import { createClient } from '../client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../connection.ts';
import { getObject } from './read.ts';
import { putObject } from './write.ts';
import { transferDestKey, transferObjectsMutation, type TransferObjectsInput, type TransferObjectsOutcome } from './transfer-queries.ts';

const { server } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const zone = 'pek3a';
const bucket = 'transfer-test';

function run(input: Omit<TransferObjectsInput, 'zone' | 'bucket'>): Promise<TransferObjectsOutcome> {
  const options = transferObjectsMutation(client, new QueryClient());
  if (!options.mutationFn) throw new Error('no mutationFn');
  return options.mutationFn({ zone, bucket, ...input }, { client: new QueryClient(), meta: undefined });
}

async function text(key: string): Promise<string | null> {
  try {
    return await (await getObject(client, { zone, bucket, key })).body.text();
  } catch {
    return null;
  }
}

describe('copy or move many objects into a folder', () => {
  it('copies each key to the folder, skips a destination that exists, reports a missing source and goes on', async () => {
    await putBucket(client, { zone, bucket });
    for (const name of ['a', 'b', 'c']) await putObject(client, { zone, bucket, key: `src/${name}.txt`, body: `body ${name}` });
    await putObject(client, { zone, bucket, key: 'dst/b.txt', body: 'already here' });
    const progress: number[] = [];
    const outcome = await run({
      mode: 'copy',
      keys: ['src/a.txt', 'src/b.txt', 'src/missing.txt', 'src/c.txt'],
      destBucket: bucket,
      destPrefix: 'dst/',
      skipExisting: true,
      onProgress: (done) => progress.push(done),
    });
    expect(outcome.written.map((w) => w.destKey)).toEqual(['dst/a.txt', 'dst/c.txt']);
    expect(outcome.written.every((w) => w.requestId !== '')).toBe(true);
    expect(outcome.skipped).toEqual([{ key: 'src/b.txt', destKey: 'dst/b.txt' }]);
    expect(outcome.errors.map((e) => [e.key, e.code])).toEqual([['src/missing.txt', 'object_not_exists']]);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(await text('dst/b.txt')).toBe('already here');
    expect(await text('dst/a.txt')).toBe('body a');
    expect(await text('src/a.txt')).toBe('body a');
  });

  it('moves (the sources go), overwrites when not told to skip, and a stop lands between keys', async () => {
    const stop = new AbortController();
    const first = await run({ mode: 'move', keys: ['src/a.txt', 'src/b.txt'], destBucket: bucket, destPrefix: 'dst/', skipExisting: false, signal: stop.signal, onProgress: () => stop.abort() });
    expect(first).toMatchObject({ cancelled: true, errors: [], skipped: [] });
    expect(first.written.map((w) => w.key)).toEqual(['src/a.txt']);
    expect(await text('src/a.txt')).toBeNull();
    const rest = await run({ mode: 'move', keys: ['src/b.txt'], destBucket: bucket, destPrefix: 'dst/', skipExisting: false });
    expect(rest.written.map((w) => w.destKey)).toEqual(['dst/b.txt']);
    expect(await text('dst/b.txt')).toBe('body b');
    expect(await text('src/b.txt')).toBeNull();
    expect(transferDestKey('deep/er/x.bin', '')).toBe('x.bin');
  });
});
