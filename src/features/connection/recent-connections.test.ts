import { describe, expect, it } from 'vitest';
import type { Session } from '../../hooks/session.ts';
import { formFromRecent } from './connect-form-schema.ts';
import { forgetSession, loadRecent, RECENT_KEY, RECENT_LIMIT, RECENT_SECRETS_KEY, recentSecret, rememberRecent } from './recent-connections.ts';
import { MemoryStorage } from '../../test-support/memory-storage.ts';


const SECRET = 'secretAccessKey-that-must-not-persist';
const session = (accessKeyId: string, endpoint = 'http://127.0.0.1:9000'): Session => ({
  mode: 'endpoint',
  connection: { endpoint, zoneInHost: false, style: 'path', defaultZone: 'pek3a', credentials: { accessKeyId, secretAccessKey: SECRET } },
  zones: ['pek3a', 'sh1a'],
});

describe('recent connections', () => {
  it('keeps endpoint, addressing and access key id, never the secret, in localStorage', () => {
    const local = new MemoryStorage();
    const tab = new MemoryStorage();
    rememberRecent(session('AKID1'), { remember: false, now: 1, storage: local, tabStorage: tab });
    expect(local.getItem(RECENT_KEY)).not.toContain(SECRET);
    expect(tab.getItem(RECENT_SECRETS_KEY) ?? '').not.toContain(SECRET);
    const [entry] = loadRecent(local);
    expect(entry).toMatchObject({ kind: 'keys', endpoint: 'http://127.0.0.1:9000', zones: ['pek3a', 'sh1a'], zoneInHost: false, style: 'path', accessKeyId: 'AKID1' });
    expect(formFromRecent(entry!, recentSecret(entry!.id, tab))).toMatchObject({ endpoint: 'http://127.0.0.1:9000', zones: 'pek3a, sh1a', zoneInHost: false, accessKeyId: 'AKID1', secretAccessKey: '', remember: false });
  });

  it('keeps the secret in the tab only with the opt-in, and Disconnect forgets entry and secret', () => {
    const local = new MemoryStorage();
    const tab = new MemoryStorage();
    rememberRecent(session('AKID1'), { remember: true, now: 1, storage: local, tabStorage: tab });
    expect(local.getItem(RECENT_KEY)).not.toContain(SECRET);
    const [entry] = loadRecent(local);
    expect(recentSecret(entry!.id, tab)).toBe(SECRET);
    expect(formFromRecent(entry!, recentSecret(entry!.id, tab))).toMatchObject({ secretAccessKey: SECRET, remember: true });

    const g = globalThis as { localStorage?: Storage; sessionStorage?: Storage };
    const saved = { local: g.localStorage, tab: g.sessionStorage };
    g.localStorage = local;
    g.sessionStorage = tab;
    try {
      forgetSession(session('AKID1'));
    } finally {
      g.localStorage = saved.local;
      g.sessionStorage = saved.tab;
    }
    expect(loadRecent(local)).toEqual([]);
    expect(recentSecret(entry!.id, tab)).toBe('');
  });

  it('puts the latest first, keeps one entry per connection and at most the limit', () => {
    const local = new MemoryStorage();
    const tab = new MemoryStorage();
    for (let i = 0; i < RECENT_LIMIT + 2; i++) rememberRecent(session(`AKID${i}`), { remember: false, now: i, storage: local, tabStorage: tab });
    rememberRecent(session('AKID3'), { remember: false, now: 100, storage: local, tabStorage: tab });
    const ids = loadRecent(local).map((e) => e.accessKeyId);
    expect(ids).toHaveLength(RECENT_LIMIT);
    expect(ids[0]).toBe('AKID3');
    expect(ids.filter((id) => id === 'AKID3')).toHaveLength(1);
  });

  it('drops entries that do not parse', () => {
    const local = new MemoryStorage();
    local.setItem(RECENT_KEY, JSON.stringify([{ id: 'x', endpoint: 5 }, 'junk']));
    expect(loadRecent(local)).toEqual([]);
    local.setItem(RECENT_KEY, '{not json');
    expect(loadRecent(local)).toEqual([]);
  });
});
