import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupEmulatorServer } from '../../../mocks/node.ts';
import { DEMO_CREDENTIALS, type Connection } from '../connection.ts';
import { NetworkError } from '../errors.ts';
import { checkConnection, diagnoseNetworkError, type CheckTarget } from './check.ts';

// The emulator answers https://qingstor.com and its zone hosts in-process (msw setupServer).
const { server } = await setupEmulatorServer({ seed: 'demo' });
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

const base: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const keys = (connection: Partial<Connection>, bucket?: string): CheckTarget => ({
  mode: 'endpoint',
  connection: { ...base, ...connection },
  ...(bucket ? { bucket: { zone: 'pek3a', name: bucket } } : {}),
});

describe('checkConnection', () => {
  it('is ok with good credentials and reports how many buckets are visible', async () => {
    expect(await checkConnection(keys({}))).toEqual({ kind: 'ok', buckets: 5 });
  });

  it('also checks a named bucket, in path and virtual-host style', async () => {
    expect(await checkConnection(keys({}, 'demo-photos'))).toEqual({ kind: 'ok', buckets: 5 });
    expect(await checkConnection(keys({ style: 'virtual-host' }, 'demo-photos'))).toEqual({ kind: 'ok', buckets: 5 });
    const missing = await checkConnection(keys({}, 'no-such-bucket'));
    expect(missing.kind).toBe('other');
    expect(missing.kind === 'other' && missing.error).toMatchObject({ status: 404 });
  });

  it('names the QingStor code when the credentials are refused', async () => {
    const badSecret = await checkConnection(keys({ credentials: { accessKeyId: DEMO_CREDENTIALS.accessKeyId, secretAccessKey: 'wrong' } }));
    expect(badSecret.kind).toBe('credentials');
    expect(badSecret.kind === 'credentials' && badSecret.error.code).toBe('signature_not_matched');
    const badKey = await checkConnection(keys({ credentials: { accessKeyId: 'NOPE', secretAccessKey: 'wrong' } }));
    expect(badKey.kind === 'credentials' && badKey.error.code).toBe('invalid_access_key_id');
    expect(badKey.kind === 'credentials' && badKey.error.requestId).toMatch(/^[0-9a-f]{16,32}$/);
  });

  it('accepts a public bucket anonymously even though anonymous listing is refused', async () => {
    const session: CheckTarget = { mode: 'anonymous', connection: { ...base, credentials: undefined }, bucket: { zone: 'pek3a', name: 'demo-public' } };
    expect(await checkConnection(session)).toEqual({ kind: 'ok-anonymous', bucket: 'demo-public' });
    const missing = await checkConnection({ ...session, bucket: { zone: 'pek3a', name: 'no-such-bucket' } });
    expect(missing.kind === 'other' && missing.error).toMatchObject({ code: 'bucket_not_exists' });
  });

  it('reports an unreachable endpoint as a network failure', async () => {
    const verdict = await checkConnection(keys({ endpoint: 'http://127.0.0.1:9', zoneInHost: false }));
    expect(verdict.kind).toBe('network');
  });
});

describe('diagnoseNetworkError', () => {
  const cross = (requestUrl: string) => new NetworkError({ operation: 'ListBuckets', method: 'GET', requestUrl, pageOrigin: 'http://127.0.0.1:4317', cause: new TypeError('Failed to fetch') });
  it('says CORS only when something answers a no-cors probe at the endpoint', async () => {
    const probed: string[] = [];
    const answers = async (url: string) => {
      probed.push(url);
      return true;
    };
    expect(await diagnoseNetworkError(cross('http://127.0.0.1:9000/?limit=1'), undefined, answers, 'http:')).toBe('cors');
    expect(probed).toEqual(['http://127.0.0.1:9000/']);
    expect(await diagnoseNetworkError(cross('http://127.0.0.1:9000/?limit=1'), undefined, async () => false, 'http:')).toBe('unreachable');
  });
  it('same-origin (the serve proxy) is never CORS; an https page to a plain-http host is mixed content', async () => {
    const same = new NetworkError({ operation: 'ListBuckets', method: 'GET', requestUrl: 'http://127.0.0.1:4317/_qs/x', pageOrigin: 'http://127.0.0.1:4317', cause: new TypeError('x') });
    expect(await diagnoseNetworkError(same, undefined, async () => true, 'http:')).toBe('unreachable');
    expect(await diagnoseNetworkError(cross('http://qingstor.example/'), undefined, async () => true, 'https:')).toBe('mixed-content');
    expect(await diagnoseNetworkError(cross('http://127.0.0.1:9000/'), undefined, async () => true, 'https:')).toBe('cors');
  });
});
