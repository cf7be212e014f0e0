/**
 * The demo's first answers do not wait for the seed's IndexedDB transaction; the first change and every
 * answer after it do, and a change survives a reload together with the seed.
 */
// oxlint-disable-next-line import/no-unassigned-import -- installs indexedDB and IDBKeyRange as globals, like a browser
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createEmulator } from './emulator.ts';
import { send, TEST_USERS } from './handlers/test-utils.ts';
import { DEMO_BUCKETS, lazySourceById } from './seed.ts';
import { answerBeforeSeedCommits, writeSeedAfterFirstPaint } from './seed-durability.ts';
import { IdbPersistence } from './store/idb.ts';
import type { EmulatorPersistence } from './store/persistence.ts';

/** The real journal, whose `durable` the test holds until it releases it. */
function held(inner: IdbPersistence): { persistence: EmulatorPersistence; waits: () => number; release: () => void } {
  let waits = 0;
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const persistence: EmulatorPersistence = {
    journal: inner.journal,
    restore: (store) => inner.restore(store),
    durable: async () => {
      waits += 1;
      await gate;
      await inner.durable();
    },
  };
  return { persistence, waits: () => waits, release: () => release() };
}

async function start(name: string, hold: boolean) {
  const idb = await IdbPersistence.open({ name, lazySource: lazySourceById });
  const gated = held(idb);
  const durability = answerBeforeSeedCommits(hold ? gated.persistence : idb);
  const emulator = await createEmulator({ seed: 'demo', users: TEST_USERS, domains: ['qingstor.com'], minPartSize: 16, persistence: durability.persistence });
  durability.started();
  return { emulator, idb, gated };
}

describe('the demo seed and the first answers', () => {
  it('answers reads at once while the seed is being written, and a change only once it is written', async () => {
    const { emulator, idb, gated } = await start('seed-durability-1', true);
    // The seed's transaction cannot commit yet (held): a listing is answered anyway, without waiting.
    const list = await send(emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=5`);
    expect(list.status).toBe(200);
    expect(gated.waits()).toBe(0);
    // A change waits for the journal (the seed's transaction first): its answer is not there before.
    let answered = false;
    const put = send(emulator, 'PUT', `/${DEMO_BUCKETS.photos}/notes/kept.txt`, { body: new TextEncoder().encode('kept') }).then((r) => {
      answered = true;
      return r;
    });
    await expect.poll(() => gated.waits()).toBe(1);
    expect(answered).toBe(false);
    gated.release();
    expect((await put).status).toBe(201);
    // From the first change on, reads wait as well.
    expect((await send(emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=5`)).status).toBe(200);
    expect(gated.waits()).toBe(2);
    idb.close();
  });

  it('keeps an acknowledged change and the seed across a reload', async () => {
    const first = await start('seed-durability-2', false);
    const put = await send(first.emulator, 'PUT', `/${DEMO_BUCKETS.photos}/notes/kept.txt`, { body: new TextEncoder().encode('kept') });
    expect(put.status).toBe(201);
    first.idb.close();
    const second = await start('seed-durability-2', false);
    expect(await (await send(second.emulator, 'GET', `/${DEMO_BUCKETS.photos}/notes/kept.txt`)).text()).toBe('kept');
    const seeded = await send(second.emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=1000`);
    expect(((await seeded.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(1);
    second.idb.close();
  });
});

describe('the demo seed is written after the first paint', () => {
  /** Counts the read-write transactions opened on any IndexedDB database from now on. */
  function countWrites(): { writes: () => number; restore: () => void } {
    const original = IDBDatabase.prototype.transaction;
    let writes = 0;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      if (args[1] === 'readwrite') writes += 1;
      return original.apply(this, args);
    };
    return { writes: () => writes, restore: () => void (IDBDatabase.prototype.transaction = original) };
  }

  async function startHeld(name: string) {
    const idb = await IdbPersistence.open({ name, lazySource: lazySourceById, holdWrites: true });
    const durability = answerBeforeSeedCommits(idb);
    const emulator = await createEmulator({ seed: 'demo', users: TEST_USERS, domains: ['qingstor.com'], minPartSize: 16, persistence: durability.persistence });
    durability.started();
    let paint = (): void => undefined;
    const painted = new Promise<void>((resolve) => (paint = resolve));
    const written = writeSeedAfterFirstPaint(durability, idb, { paint: () => painted, wait: 60_000 });
    return { idb, emulator, paint, written };
  }

  async function seededKeys(name: string): Promise<number> {
    const again = await startHeld(name);
    const listed = await send(again.emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=1000`);
    again.idb.close();
    return ((await listed.json()) as { keys: unknown[] }).keys.length;
  }

  it('writes nothing before the first answer and its paint, then the whole seed in one transaction', async () => {
    const counter = countWrites();
    try {
      const { idb, emulator, paint, written } = await startHeld('seed-after-paint-1');
      const list = await send(emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=5`);
      expect(list.status).toBe(200);
      expect(counter.writes()).toBe(0);
      paint();
      await written;
      expect(counter.writes()).toBe(1);
      await idb.durable();
      idb.close();
      // The reload restores the seed from the database: nothing more to write than the start's clean-up.
      expect(await seededKeys('seed-after-paint-1')).toBeGreaterThan(1);
    } finally {
      counter.restore();
    }
  });

  it('writes the seed with the first change when it comes before the paint, and both survive a reload', async () => {
    const { idb, emulator } = await startHeld('seed-after-paint-2');
    const put = await send(emulator, 'PUT', `/${DEMO_BUCKETS.photos}/notes/kept.txt`, { body: new TextEncoder().encode('kept') });
    expect(put.status).toBe(201);
    idb.close();
    const second = await startHeld('seed-after-paint-2');
    expect(await (await send(second.emulator, 'GET', `/${DEMO_BUCKETS.photos}/notes/kept.txt`)).text()).toBe('kept');
    second.idb.close();
    expect(await seededKeys('seed-after-paint-2')).toBeGreaterThan(1);
  });

  it('seeds again, complete, after a tab closed before the seed was written', async () => {
    const { idb, emulator } = await startHeld('seed-after-paint-3');
    expect((await send(emulator, 'GET', `/${DEMO_BUCKETS.photos}?limit=5`)).status).toBe(200);
    idb.close();
    const complete = await seededKeys('seed-after-paint-fresh');
    expect(await seededKeys('seed-after-paint-3')).toBe(complete);
  });
});
