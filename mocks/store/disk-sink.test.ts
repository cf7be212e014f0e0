/**
 * The body sink of `--data-dir` (disk-sink.ts) and the free-space readings it and the journal ask for
 * (disk-space.ts): what one request body costs besides its bytes.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isFileSegment } from './body.ts';
import { newDiskSink } from './disk-sink.ts';
import { DiskSpace } from './disk-space.ts';
import { SpaceReserve } from './disk-sync.ts';

const KIB = 1024;
const dirs: string[] = [];

function place(inlineMax = 64 * KIB) {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'qs-sink-'));
  dirs.push(dir);
  const tmpDir = path.join(dir, 'tmp');
  const bodiesDir = path.join(dir, 'bodies');
  fs.mkdirSync(tmpDir);
  fs.mkdirSync(bodiesDir);
  let n = 0;
  return {
    tmpDir,
    bodiesDir,
    newName: () => (n++).toString(16).padStart(32, '0'),
    inlineMax,
    inlineRoom: (size: number) => size <= inlineMax,
    hasRoom: () => true,
    syncBodies: () => Promise.resolve(),
    releaseLater: () => undefined,
    onFull: () => undefined,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a request body written to a body file', () => {
  it('asks its reader to wait once per 1 MiB batch, not once per socket chunk, and keeps every byte in order', async () => {
    const where = place();
    const sink = newDiskSink(where);
    const chunks = Array.from({ length: 64 }, (_, i) => new Uint8Array(64 * KIB).fill(i));
    let waits = 0;
    for (const chunk of chunks) {
      const writing = sink.write(chunk);
      if (writing) {
        waits += 1;
        await writing;
      }
    }
    const [segment] = await sink.finish();
    // 4 MiB in 64 KiB chunks: four full batches.
    expect(waits).toBe(4);
    if (!segment || !isFileSegment(segment)) throw new Error('expected a body file');
    const written = fs.readFileSync(segment.file);
    expect(written.byteLength).toBe(4 * 1024 * KIB);
    expect(chunks.every((chunk, i) => written[i * 64 * KIB] === i && written[(i + 1) * 64 * KIB - 1] === i)).toBe(true);
    expect(fs.readdirSync(where.tmpDir)).toEqual([]);
  });

  it('a body that fails half-way leaves nothing in tmp/ or bodies/', async () => {
    const where = place();
    const sink = newDiskSink(where);
    for (let i = 0; i < 20; i++) await sink.write(new Uint8Array(64 * KIB));
    await sink.abort();
    expect(fs.readdirSync(where.tmpDir)).toEqual([]);
    expect(fs.readdirSync(where.bodiesDir)).toEqual([]);
  });
});

describe('free space readings', () => {
  it('with plenty of room, a burst of checks reads the disk once instead of once per check', () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'qs-space-'));
    dirs.push(dir);
    const plenty = { bavail: 1024 * 1024, bsize: 4096 } as fs.StatsFs;
    const statfs = vi.spyOn(fs, 'statfsSync').mockReturnValue(plenty);
    const space = new DiskSpace(dir, new SpaceReserve(path.join(dir, 'reserve'), 0));
    for (let i = 0; i < 100; i++) {
      space.check('adds', KIB);
      expect(space.releaseAtOnce()).toBe(false);
    }
    expect(statfs).toHaveBeenCalledTimes(1);
  });

  it('with little room, every check reads the disk again, so a disk that fills is refused at once', () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'qs-space-'));
    dirs.push(dir);
    const reading = { bavail: 2048, bsize: 4096 } as fs.StatsFs;
    const statfs = vi.spyOn(fs, 'statfsSync').mockImplementation(() => ({ ...reading }));
    const space = new DiskSpace(dir, new SpaceReserve(path.join(dir, 'reserve'), 0));
    space.check('adds', KIB);
    reading.bavail = 16;
    expect(() => space.check('adds', KIB)).toThrow(/data directory is full/);
    expect(statfs).toHaveBeenCalledTimes(2);
  });
});
