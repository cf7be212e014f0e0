import { describe, expect, it } from 'vitest';
import { MAX_KEY_BYTES } from '../../../api/protocol/limits.ts';
import { ConflictCheckError, findConflicts, markFreeKeys, RenameTooLongError, renamedKey, resolveConflicts, type KeyExists } from './conflicts.ts';
import { planBatch } from './plan-batch.ts';
import { bytes, fileOf } from './test-fakes.ts';

function batch(...paths: string[]) {
  return planBatch({ files: paths.map((p, i) => ({ file: fileOf(bytes(4, i + 1), p.split('/').pop() ?? p), relativePath: p })), bucket: 'b', prefix: 'up/' }).uploads;
}

describe('key conflicts of an upload batch', () => {
  it('renames as "name (n).ext" in the same folder', () => {
    expect(renamedKey('up/photo.jpg', 1)).toBe('up/photo (1).jpg');
    expect(renamedKey('up/a.tar.gz', 2)).toBe('up/a.tar (2).gz');
    expect(renamedKey('README', 1)).toBe('README (1)');
    expect(renamedKey('dir.v2/.env', 3)).toBe('dir.v2/.env (3)');
  });

  it('finds the files whose keys exist, and applies overwrite, skip or rename to them only', async () => {
    const stored = new Set(['up/a.txt', 'up/b.txt', 'up/a (1).txt']);
    const asked: string[] = [];
    const exists: KeyExists = async (_upload, key) => {
      asked.push(key);
      return stored.has(key);
    };
    const uploads = batch('a.txt', 'b.txt', 'c.txt', 'b (1).txt');
    const conflicts = await findConflicts(uploads, exists, 2);
    expect(conflicts.map((u) => u.key)).toEqual(['up/a.txt', 'up/b.txt']);

    expect((await resolveConflicts(uploads, conflicts, 'overwrite', exists)).map((u) => u.key)).toEqual(['up/a.txt', 'up/b.txt', 'up/c.txt', 'up/b (1).txt']);
    expect((await resolveConflicts(uploads, conflicts, 'skip', exists)).map((u) => u.key)).toEqual(['up/c.txt', 'up/b (1).txt']);
    asked.length = 0;
    const renamed = await resolveConflicts(uploads, conflicts, 'rename', exists);
    // "a (1)" exists on the server and "b (1)" is a file of this batch: both move on to "(2)".
    expect(renamed.map((u) => u.key)).toEqual(['up/a (2).txt', 'up/b (2).txt', 'up/c.txt', 'up/b (1).txt']);
    expect(asked).toEqual(['up/a (1).txt', 'up/a (2).txt', 'up/b (2).txt']);
    expect(renamed[0]?.file).toBe(uploads[0]?.file);
  });

  it('marks the keys the check found free, so form uploads post to them directly; an overwritten key is not free', async () => {
    const stored = new Set(['up/a.txt']);
    const exists: KeyExists = async (_upload, key) => stored.has(key);
    const uploads = batch('a.txt', 'b.txt');
    expect(uploads.map((u) => u.keyFree)).toEqual([undefined, undefined]);
    const conflicts = await findConflicts(uploads, exists);
    expect(markFreeKeys(uploads, []).map((u) => u.keyFree)).toEqual([true, true]);
    expect((await resolveConflicts(uploads, conflicts, 'overwrite', exists)).map((u) => [u.key, u.keyFree])).toEqual([['up/a.txt', undefined], ['up/b.txt', true]]);
    expect((await resolveConflicts(uploads, conflicts, 'skip', exists)).map((u) => [u.key, u.keyFree])).toEqual([['up/b.txt', true]]);
    expect((await resolveConflicts(uploads, conflicts, 'rename', exists)).map((u) => [u.key, u.keyFree])).toEqual([['up/a (1).txt', true], ['up/b.txt', true]]);
  });

  it('fails the check when a HEAD fails with anything but "not found": the key never counts as free', async () => {
    const denied = new Error('403 permission denied');
    const exists: KeyExists = async (_upload, key) => {
      if (key === 'up/b.txt') throw denied;
      return false;
    };
    const error = await findConflicts(batch('a.txt', 'b.txt'), exists).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictCheckError);
    expect(error instanceof ConflictCheckError ? [error.key, error.reason] : []).toEqual(['up/b.txt', denied]);
    // The same during "keep both": a failed check of a candidate name is an error, not a free name.
    const uploads = batch('a.txt');
    const renaming = await resolveConflicts(uploads, uploads, 'rename', async (_u, key) => {
      if (key === 'up/a (1).txt') throw denied;
      return true;
    }).catch((e: unknown) => e);
    expect(renaming instanceof ConflictCheckError ? renaming.key : renaming).toBe('up/a (1).txt');
  });

  it('refuses "keep both" when "name (n).ext" would pass the 1,023-byte key limit, before asking anything', async () => {
    // 1,023 bytes exactly: "up/", then "x"s, then ".txt"; " (1)" would add four bytes.
    const name = 'x'.repeat(MAX_KEY_BYTES - 'up/'.length - '.txt'.length) + '.txt';
    const uploads = batch(name, 'short.txt');
    expect(new TextEncoder().encode(uploads[0]?.key ?? '').byteLength).toBe(MAX_KEY_BYTES);
    const asked: string[] = [];
    const exists: KeyExists = async (_u, key) => {
      asked.push(key);
      return false;
    };
    const error = await resolveConflicts(uploads, uploads, 'rename', exists).catch((e: unknown) => e);
    expect(error instanceof RenameTooLongError ? error.keys : error).toEqual([uploads[0]?.key]);
    expect(asked).toEqual([]);
    // A key 4 bytes shorter fits as "(1)" … "(9)"; when those are all taken, "(10)" is one byte too long.
    const shorter = batch('y'.repeat(MAX_KEY_BYTES - 'up/'.length - '.txt'.length - 4) + '.txt');
    const taken: KeyExists = async (_u, key) => !key.includes('(10)');
    const late = await resolveConflicts(shorter, shorter, 'rename', taken).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(RenameTooLongError);
    // Overwrite and skip do not rename: the limit does not concern them.
    expect(await resolveConflicts(uploads, uploads, 'skip', exists)).toEqual([]);
  });
});
