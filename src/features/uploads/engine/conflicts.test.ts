import { describe, expect, it } from 'vitest';
import { findConflicts, renamedKey, resolveConflicts, type KeyExists } from './conflicts.ts';
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
});
