import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { putBucket } from '../buckets/operations.ts';
import { createClient } from '../client.ts';
import { DEMO_CREDENTIALS, type Connection } from '../connection.ts';
import { ApiError } from '../errors.ts';
import { objectExists } from './operations.ts';

const { server, emulator } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const connection: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const client = createClient(connection);
const ref = { zone: 'pek3a', bucket: 'object-exists-test' };

describe('objectExists (the upload conflict check, asked as a listing)', () => {
  it('is true only for the exact key, whatever longer keys share its name', async () => {
    await putBucket(client, ref);
    for (const key of ['photo.jpg (1)', 'photo.jpg/inside', 'photo.jpgx', 'dir/a.txt', 'é.txt', 'e.txt'])
      emulator.store.putObject(ref.bucket, key, { body: new TextEncoder().encode('x') });
    expect(await objectExists(client, { ...ref, key: 'photo.jpg' })).toBe(false);
    expect(await objectExists(client, { ...ref, key: 'photo.jpgx' })).toBe(true);
    expect(await objectExists(client, { ...ref, key: 'dir/a.txt' })).toBe(true);
    expect(await objectExists(client, { ...ref, key: 'dir/' })).toBe(false);
    expect(await objectExists(client, { ...ref, key: 'é.txt' })).toBe(true);
    expect(await objectExists(client, { ...ref, key: 'z' })).toBe(false);
    emulator.store.putObject(ref.bucket, 'photo.jpg', { body: new TextEncoder().encode('x') });
    expect(await objectExists(client, { ...ref, key: 'photo.jpg' })).toBe(true);
  });

  it('throws when it cannot tell (a bucket it may not read), never answering "free"', async () => {
    const stranger = createClient({ ...connection, credentials: { accessKeyId: 'QSNOSUCHKEY000000001', secretAccessKey: 'wrong-secret-wrong-secret-wrong-secret00' } });
    await expect(objectExists(stranger, { ...ref, key: 'photo.jpg' })).rejects.toBeInstanceOf(ApiError);
    await expect(objectExists(client, { zone: 'pek3a', bucket: 'no-such-bucket-here', key: 'a' })).rejects.toBeInstanceOf(ApiError);
  });
});
