/**
 * Free space in the data directory (see disk.ts, "A full disk"): a write that adds data is refused while the
 * disk is nearly full, a delete gets the reserve back first, and the reserve is made again once there is
 * room. While the disk is (nearly) full, bodies nothing points at are removed at once.
 */
import fs from 'node:fs';
import { outOfSpaceError, type SpaceReserve } from './disk-sync.ts';

/** Space given back on a full disk so that deletes can be written. */
export const RESERVE_BYTES = 4 * 1024 * 1024;
/** A write that would leave less than this free (plus twice its inline bytes) is refused before it starts. */
export const LOW_SPACE = 1024 * 1024;
/** With less than this free, bodies nothing points at are removed at once instead of after releaseDelayMs. */
const LOW_SPACE_RELEASE = 4 * LOW_SPACE + RESERVE_BYTES;
/**
 * With at least this much free, a reading of the free space is reused for FREE_READING_MS (every small PUT
 * asked statfs twice). Nothing this process can write in that time comes near it; a disk that another
 * program fills meanwhile is still caught by the writes themselves (ENOSPC, disk.ts).
 */
const PLENTY = 256 * 1024 * 1024;
const FREE_READING_MS = 100;

export class DiskSpace {
  /** Set while the disk is (nearly) full: bodies are released at once. */
  private full = false;

  private readonly dir: string;
  readonly reserve: SpaceReserve;

  constructor(dir: string, reserve: SpaceReserve) {
    this.dir = dir;
    this.reserve = reserve;
  }

  onFull(): void {
    this.full = true;
  }

  private reading = { free: 0, at: -Infinity };

  freeBytes(): number {
    const now = performance.now();
    if (this.reading.free >= PLENTY && now - this.reading.at < FREE_READING_MS) return this.reading.free;
    const stats = fs.statfsSync(this.dir);
    this.reading = { free: stats.bavail * stats.bsize, at: now };
    return this.reading.free;
  }

  /** Whether a body may still be written (a body file of a request under way); says so when not. */
  hasRoom(): boolean {
    if (this.freeBytes() >= LOW_SPACE) return true;
    this.onFull();
    return false;
  }

  /** Whether bodies nothing points at go at once rather than after the release delay. */
  releaseAtOnce(): boolean {
    return this.full || this.freeBytes() < LOW_SPACE_RELEASE;
  }

  /**
   * Before a transaction starts: a change that adds data is refused while the disk is nearly full; one that
   * frees data gets the reserve back first if it needs it.
   */
  check(kind: 'adds' | 'frees', bytes: number): void {
    const free = this.freeBytes();
    if (free >= LOW_SPACE + 2 * bytes) {
      if (this.full) this.recover(free);
      return;
    }
    this.onFull();
    if (kind === 'frees') {
      this.reserve.release();
      return;
    }
    throw outOfSpaceError(new Error('less than 1 MiB left on the disk'));
  }

  /** After bodies were removed on a full disk: takes the reserve again once there is room for it and more. */
  recover(free = this.freeBytes()): void {
    if (!this.full || free < 2 * LOW_SPACE + RESERVE_BYTES) return;
    if (this.reserve.take()) this.full = false;
  }
}
