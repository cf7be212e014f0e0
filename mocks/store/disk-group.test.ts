/**
 * The group commit of `--data-dir` (disk-group.ts), attacked where it breaks: changes made while a flush runs
 * share one transaction, two writers of one key in the same group, one change of a group that fails, and a
 * group whose COMMIT fails. What the disk holds is read back by a new journal on the same directory.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QsError } from '../errors.ts';
import { bodyToBytes } from './body.ts';
import { DiskPersistence } from './disk.ts';
import type { GroupCommit } from './disk-group.ts';
import { Store } from './store.ts';
import { BUCKET, OWNER, text } from './test-helpers.ts';

const dirs: string[] = [];
const open: DiskPersistence[] = [];

afterEach(() => {
  for (const disk of open.splice(0)) disk.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function journaled(dir?: string): Promise<{ dir: string; disk: DiskPersistence; store: Store }> {
  const at = dir ?? fs.mkdtempSync(path.join(tmpdir(), 'qs-group-'));
  if (!dir) dirs.push(at);
  const disk = DiskPersistence.open(at, { releaseDelayMs: 0 });
  open.push(disk);
  const store = await Store.create({ journal: disk, bodySink: () => disk.newSink() });
  if (!disk.isEmpty()) disk.restoreInto(store);
  return { dir: at, disk, store };
}

/** Closes the journal and reads the directory back in a new one: what a restart would find. */
async function restart(dir: string, disk: DiskPersistence): Promise<Store> {
  disk.close();
  open.splice(open.indexOf(disk), 1);
  return (await journaled(dir)).store;
}

const textOf = (store: Store, key: string): string => new TextDecoder().decode(bodyToBytes(store.getObject(BUCKET, key).body));
const keysOf = (store: Store): string[] => store.listObjects(BUCKET, { limit: 1000 }).keys.map((o) => o.key);
const groupOf = (disk: DiskPersistence): GroupCommit => (disk as unknown as { group: GroupCommit }).group;

describe('--data-dir group commit', () => {
  it('commits the changes made while a flush runs in one transaction, and a restart finds every acknowledged one', async () => {
    const { dir, disk, store } = await journaled();
    store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
    await disk.durable();
    let commits = 0;
    const group = groupOf(disk);
    const commit = group.commitStatement;
    group.commitStatement = () => {
      commits += 1;
      commit();
    };
    // The first change starts a flush at once; the 31 made while it runs wait for the next one, together.
    for (let i = 0; i < 32; i += 1) store.putObject(BUCKET, `k${i}`, { body: text(`body ${i}`) });
    await disk.durable();
    expect(commits).toBe(2);
    const back = await restart(dir, disk);
    expect(keysOf(back)).toHaveLength(32);
    expect(textOf(back, 'k31')).toBe('body 31');
  });

  it('two writers of one key in the same group: the last one wins, on disk as in memory', async () => {
    const { dir, disk, store } = await journaled();
    store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
    await disk.durable();
    store.putObject(BUCKET, 'hold', { body: text('starts the flush') });
    store.putObject(BUCKET, 'same', { body: text('first writer') });
    store.putObject(BUCKET, 'same', { body: text('second writer') });
    store.deleteObject(BUCKET, 'hold');
    await disk.durable();
    expect(textOf(store, 'same')).toBe('second writer');
    const back = await restart(dir, disk);
    expect(keysOf(back)).toEqual(['same']);
    expect(textOf(back, 'same')).toBe('second writer');
  });

  it('one change of a group that fails is rolled back alone; the others of its group are kept', async () => {
    const { dir, disk, store } = await journaled();
    store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
    await disk.durable();
    // The first write's flush starts at once; the others are made while it runs: one group.
    store.putObject(BUCKET, 'first', { body: text('its own group') });
    store.putObject(BUCKET, 'before', { body: text('kept') });
    expect(() =>
      disk.atomically(() => {
        disk.putObject(BUCKET, { ...store.getObject(BUCKET, 'before'), key: 'torn' });
        throw new Error('the change fails after its first statement');
      }),
    ).toThrow('the change fails');
    store.putObject(BUCKET, 'after', { body: text('kept too') });
    await disk.durable();
    const back = await restart(dir, disk);
    expect(keysOf(back)).toEqual(['after', 'before', 'first']);
  });

  it('a group whose COMMIT fails: every request of it and every later one gets a QingStor error, and the disk keeps none of it', async () => {
    const { dir, disk, store } = await journaled();
    store.createBucket({ name: BUCKET, zone: 'pek3a', ownerId: OWNER });
    await disk.durable();
    // Its flush starts at once (its COMMIT succeeds); the two writes below are made while it runs: one group.
    store.putObject(BUCKET, 'acknowledged', { body: text('on disk') });
    const acknowledged = disk.durable();
    groupOf(disk).commitStatement = () => {
      throw new Error('injected I/O error');
    };
    store.putObject(BUCKET, 'lost-1', { body: text('one') });
    const first = disk.durable();
    store.putObject(BUCKET, 'lost-2', { body: text('two') });
    const second = disk.durable();
    await acknowledged;
    for (const waiting of [first, second, disk.durable()]) {
      const error = await waiting.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(QsError);
      expect(error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('Restart the emulator') });
    }
    expect(() => store.putObject(BUCKET, 'later', { body: text('refused') })).toThrow(QsError);
    const back = await restart(dir, disk);
    expect(keysOf(back)).toEqual(['acknowledged']);
    expect(textOf(back, 'acknowledged')).toBe('on disk');
  });
});
