import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createClient, type QsClient } from '../../../api/client.ts';
import { DEMO_CREDENTIALS, connectionId, type Connection } from '../../../api/connection.ts';
import { createMainThreadHasher } from '../engine/hasher.ts';
import { createUploadQueue } from '../engine/queue.ts';
import { FakeServer } from '../engine/test-fakes.ts';
import { createPendingBatchStore } from './pending-batch.ts';
import { loadSettings } from './settings.ts';
import { createUploadHost, type UploadSession } from './upload-host.ts';

// The real session loads the engine (hasher worker, IndexedDB); the host only needs something that has a queue.
const hasher = createMainThreadHasher();
const created: Array<{ scope: string; disposed: boolean; listeners: Set<() => void> }> = [];
function fakeSession(client: QsClient): UploadSession {
  const record = { scope: connectionId(client.connection), disposed: false, listeners: new Set<() => void>() };
  created.push(record);
  const queue = createUploadQueue({ ports: new FakeServer(), hasher });
  return {
    scope: record.scope,
    hasher,
    queue: {
      ...queue,
      subscribe: (listener: () => void) => {
        record.listeners.add(listener);
        return () => record.listeners.delete(listener);
      },
      dispose: () => {
        record.disposed = true;
      },
    },
    applySettings: () => undefined,
    settings: () => loadSettings(),
    pendingBatch: createPendingBatchStore(),
  };
}

const base: Connection = { endpoint: 'https://qingstor.com', zoneInHost: true, style: 'path', defaultZone: 'pek3a', credentials: DEMO_CREDENTIALS };
const clientA = createClient(base);
const clientB = createClient({ ...base, endpoint: 'https://other.example.com' });

describe('the upload host', () => {
  it('creates one session per connection, however many consumers ask, and tells subscribers', () => {
    created.length = 0;
    const host = createUploadHost(new QueryClient());
    const heard = vi.fn<() => void>();
    host.subscribe(heard);
    const scope = connectionId(base);
    expect(host.peek(scope)).toBeUndefined();
    const first = host.open(clientA, fakeSession);
    const second = host.open(createClient(base), fakeSession);
    expect(first).toBe(second);
    expect(host.open(clientA, fakeSession)).toBe(first);
    expect(created).toHaveLength(1);
    expect(host.peek(scope)).toBe(first);
    expect(host.peek(connectionId(clientB.connection))).toBeUndefined();
    expect(heard).toHaveBeenCalledTimes(1);
    // The queue's changes reach the host's subscribers.
    for (const listener of created[0]?.listeners ?? []) listener();
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('a session for another connection replaces the previous one, whose transfers stop', () => {
    created.length = 0;
    const host = createUploadHost(new QueryClient());
    const heard = vi.fn<() => void>();
    host.subscribe(heard);
    const a = host.open(clientA, fakeSession);
    const b = host.open(clientB, fakeSession);
    expect(b).not.toBe(a);
    expect(created.map((c) => c.disposed)).toEqual([true, false]);
    expect(host.peek(connectionId(base))).toBeUndefined();
    expect(host.peek(connectionId(clientB.connection))).toBe(b);
    // The stopped queue no longer notifies.
    heard.mockClear();
    for (const listener of created[0]?.listeners ?? []) listener();
    expect(heard).not.toHaveBeenCalled();
  });

  it('keeps the drawer closed without a target and notifies only real changes', () => {
    const host = createUploadHost(new QueryClient());
    const heard = vi.fn<() => void>();
    host.subscribeDrawer(heard);
    host.setDrawer({ open: true });
    expect(host.drawer()).toEqual({ open: false, target: undefined });
    expect(heard).not.toHaveBeenCalled();
    const target = { zone: 'pek3a', bucket: 'b', prefix: 'p/' };
    host.setDrawer({ open: true, target });
    expect(host.drawer()).toEqual({ open: true, target });
    host.setDrawer({ target: { ...target } });
    expect(heard).toHaveBeenCalledTimes(1);
    host.setDrawer({ open: false });
    expect(host.drawer()).toEqual({ open: false, target });
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
