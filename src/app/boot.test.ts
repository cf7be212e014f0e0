import { describe, expect, it } from 'vitest';
import { DEMO_CONNECTION } from '../api/connection.ts';
import { decideBootMode, MODE_KEY, readServeMeta, saveSession, SERVE_META_NAME, serveConfigSchema, SESSION_KEY, setEndpointMode } from './boot.ts';
import { MemoryStorage } from '../test-support/memory-storage.ts';


const endpointSession = {
  mode: 'endpoint' as const,
  connection: { endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style: 'path' as const, defaultZone: 'pek3a', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } },
  zones: ['pek3a'],
};

/** A page whose head holds these meta tags (name, content), as the browser's document answers querySelector. */
function page(metas: Array<[string, string]>): Pick<Document, 'querySelector'> {
  return {
    querySelector: ((selector: string) => {
      const found = metas.find(([name]) => selector === `meta[name="${name}"]`);
      return found ? { getAttribute: (attribute: string) => (attribute === 'content' ? found[1] : null) } : null;
    }) as Document['querySelector'],
  };
}

describe('readServeMeta', () => {
  it("reads the serve proxy's config from the page, so boot decides without a request", () => {
    const serve = { proxyBase: '/_qs', endpoint: 'http://127.0.0.1:9000' };
    expect(readServeMeta(page([[SERVE_META_NAME, JSON.stringify(serve)]]))).toEqual(serve);
    // Any other server: no tag, the demo by default.
    expect(readServeMeta(page([]))).toBeUndefined();
    expect(decideBootMode('/', new MemoryStorage(), readServeMeta(page([]))).kind).toBe('demo');
  });

  it('ignores a tag that is not JSON or names a proxy base off this origin', () => {
    expect(readServeMeta(page([[SERVE_META_NAME, 'not json']]))).toBeUndefined();
    expect(readServeMeta(page([[SERVE_META_NAME, '{"proxyBase":"//evil.example/x","endpoint":"http://127.0.0.1:9000"}']]))).toBeUndefined();
  });
});

describe('decideBootMode', () => {
  it('starts the demo by default', () => {
    const mode = decideBootMode('/', new MemoryStorage());
    expect(mode.kind).toBe('demo');
    expect(mode.session?.connection).toEqual(DEMO_CONNECTION);
  });

  it('opens the Connect screen without the demo for /connect or a tab that left demo mode', () => {
    expect(decideBootMode('/connect', new MemoryStorage())).toEqual({ kind: 'endpoint', session: null });
    const storage = new MemoryStorage();
    storage.setItem(MODE_KEY, 'endpoint');
    expect(decideBootMode('/', storage)).toEqual({ kind: 'endpoint', session: null });
  });

  it('behind the serve proxy goes to the Connect screen, unless the tab chose the demo', () => {
    const serve = { proxyBase: '/_qs', endpoint: 'http://127.0.0.1:9000' };
    const storage = new MemoryStorage();
    expect(decideBootMode('/', storage, serve)).toEqual({ kind: 'endpoint', session: null, serve });
    setEndpointMode(storage, false);
    expect(decideBootMode('/', storage, serve).kind).toBe('demo');
    setEndpointMode(storage, true);
    expect(decideBootMode('/', storage, serve)).toEqual({ kind: 'endpoint', session: null, serve });
    expect(serveConfigSchema.safeParse({ proxyBase: '//evil.example/x', endpoint: 'http://127.0.0.1:9000' }).success).toBe(false);
  });

  it('restores a remembered session and ignores a corrupt one', () => {
    const storage = new MemoryStorage();
    saveSession(storage, endpointSession);
    expect(decideBootMode('/buckets/pek3a/x', storage)).toEqual({ kind: 'endpoint', session: endpointSession });
    storage.setItem(SESSION_KEY, '{"mode":"endpoint","connection":{"endpoint":"javascript:alert(1)"}}');
    expect(decideBootMode('/', storage).kind).toBe('demo');
  });

  it('never stores the demo session, and removes a session when told to forget', () => {
    const storage = new MemoryStorage();
    saveSession(storage, { mode: 'demo', connection: DEMO_CONNECTION, zones: ['pek3a'] });
    expect(storage.getItem(SESSION_KEY)).toBeNull();
    saveSession(storage, endpointSession);
    saveSession(storage, null);
    expect(storage.getItem(SESSION_KEY)).toBeNull();
  });
});
