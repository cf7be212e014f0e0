import { describe, expect, it } from 'vitest';
import { DEMO_CONNECTION } from '../api/connection.ts';
import { bootModeWithoutServe, decideBootMode, MODE_KEY, saveSession, serveConfigSchema, SESSION_KEY, setEndpointMode } from './boot.ts';
import { MemoryStorage } from '../test-support/memory-storage.ts';


const endpointSession = {
  mode: 'endpoint' as const,
  connection: { endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style: 'path' as const, defaultZone: 'pek3a', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } },
  zones: ['pek3a'],
};

describe('bootModeWithoutServe', () => {
  it('answers only where the serve config cannot change the decision, and then answers the same', () => {
    const serve = { proxyBase: '/_qs', endpoint: 'http://127.0.0.1:9000' };
    const storages: Array<[string, MemoryStorage]> = [];
    for (const choice of [null, 'demo', 'endpoint', 'other']) {
      for (const session of [null, JSON.stringify(endpointSession), '{"mode":"endpoint"}', 'not json']) {
        const storage = new MemoryStorage();
        if (choice !== null) storage.setItem(MODE_KEY, choice);
        if (session !== null) storage.setItem(SESSION_KEY, session);
        storages.push([`${String(choice)} / ${String(session)}`, storage]);
      }
    }
    let answered = 0;
    for (const [label, storage] of storages) {
      for (const path of ['/', '/connect', '/connect/x', '/buckets/pek3a/b']) {
        const early = bootModeWithoutServe(path, storage);
        if (early === undefined) continue;
        answered++;
        expect(early, `${label} ${path}`).toEqual(decideBootMode(path, storage, serve));
        expect(early, `${label} ${path}`).toEqual(decideBootMode(path, storage));
      }
    }
    // A remembered session (4 choices × 4 paths) and a demo tab off /connect (2 paths × 3 sessions that are not valid).
    expect(answered).toBe(16 + 6);
    // A fresh tab, or one that left the demo, still asks for the config (it decides the proxy).
    expect(bootModeWithoutServe('/', new MemoryStorage())).toBeUndefined();
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
