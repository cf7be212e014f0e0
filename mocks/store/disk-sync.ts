/**
 * Helpers of the on-disk persistence (disk.ts) that deal with the disk itself: shared flushes (one fsync for
 * every change made while the previous one ran), a full disk told apart from other failures, and the space
 * kept in reserve so that deleting stays possible on a full disk. Node only.
 */
import fs from 'node:fs';
import { QsError } from '../errors.ts';

/**
 * An fsync shared by everyone who asks while it has not started yet. `after(seq)` resolves once a flush that
 * started after change number `seq` was made has completed. A flush under way when the change was made may
 * not cover it: then a new one starts at once if fewer than `parallel` are running (default 1), else the
 * change waits for the next one to start, which covers everything made until then. (Measured on a shared
 * disk: three flushes at a time made each slower and the whole slower than one at a time, which lets
 * the groups grow.)
 */
export class SharedFlush {
  private readonly run: () => Promise<void>;
  private readonly current: () => number;
  private readonly parallel: number;
  private readonly running = new Set<{ seq: number; done: Promise<void> }>();
  private next: Promise<void> | undefined;
  /** Every change up to this number is on the disk. */
  flushed = 0;
  private readonly onFlushed: (seq: number) => void;

  constructor(run: () => Promise<void>, current: () => number, options: { parallel?: number; onFlushed?: (seq: number) => void } = {}) {
    this.run = run;
    this.current = current;
    this.parallel = options.parallel ?? 1;
    this.onFlushed = options.onFlushed ?? (() => undefined);
  }

  after(seq: number): Promise<void> {
    if (seq <= this.flushed) return Promise.resolve();
    for (const flush of this.running) if (flush.seq >= seq) return flush.done;
    if (this.running.size < this.parallel) return this.start();
    // Every slot is busy: one flush starts when the first of them ends, for everyone waiting by then.
    this.next ??= Promise.race([...this.running].map((f) => f.done.catch(() => undefined))).then(() => {
      this.next = undefined;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<void> {
    const seq = this.current();
    const done = this.run().then(() => {
      if (seq > this.flushed) {
        this.flushed = seq;
        this.onFlushed(seq);
      }
    });
    const flush = { seq, done };
    this.running.add(flush);
    const clear = (): void => {
      this.running.delete(flush);
    };
    done.then(clear, clear);
    return done;
  }
}

/** ENOSPC or EDQUOT from node:fs, or SQLITE_FULL from node:sqlite: the disk (or quota) is full. */
export function isOutOfSpace(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  const errcode = 'errcode' in error ? error.errcode : undefined;
  // SQLITE_FULL is 13; an extended code keeps it in its low byte.
  return (typeof errcode === 'number' && (errcode & 0xff) === 13) || /database or disk is full/i.test(error.message);
}

/** The answer to a write the full disk refused: a QingStor error, not an internal one. */
export function outOfSpaceError(cause: unknown): QsError {
  const error = new QsError(
    'service_unavailable',
    "The emulator's data directory is full: no space is left on its disk. Delete objects or free space on that disk, then retry.",
  );
  error.cause = cause;
  return error;
}

/** Rethrows a full disk as `outOfSpaceError`, anything else as it is. */
export function rethrowFull(error: unknown, onFull: () => void): never {
  if (isOutOfSpace(error)) {
    onFull();
    throw outOfSpaceError(error);
  }
  throw error;
}

/**
 * A file of `size` bytes written (not sparse) when the directory opens. When the disk is full, deleting an
 * object must still write a little (the WAL): the reserve is given back first, and made again once the disk
 * has room for it.
 */
export class SpaceReserve {
  private readonly file: string;
  private readonly size: number;
  private held = false;

  constructor(file: string, size: number) {
    this.file = file;
    this.size = size;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Writes the reserve if it is not there; false when the disk has no room for it. */
  take(): boolean {
    if (this.held || this.size === 0) return this.held;
    try {
      const fd = fs.openSync(this.file, 'w');
      try {
        const block = new Uint8Array(Math.min(this.size, 1024 * 1024));
        for (let at = 0; at < this.size; at += block.byteLength) fs.writeSync(fd, block, 0, Math.min(block.byteLength, this.size - at));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      this.held = true;
    } catch (error) {
      fs.rmSync(this.file, { force: true });
      if (!isOutOfSpace(error)) throw error;
    }
    return this.held;
  }

  /** Gives the space back; true when there was something to give. */
  release(): boolean {
    if (!this.held) return false;
    fs.rmSync(this.file, { force: true });
    this.held = false;
    return true;
  }
}
