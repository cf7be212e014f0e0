/**
 * Where a request body goes with `--data-dir` (disk.ts): a small body stays in memory and is written into
 * the database with its record (one commit, no file and no fsync of its own); a larger one streams into
 * DIR/tmp/<name>, is fsynced, renamed into DIR/bodies/ and the directory fsynced (shared with every other
 * body finished meanwhile) before the sink returns it. Whatever fails, nothing is left in tmp/; a full disk is
 * a QingStor error (disk-sync.ts). Node only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { outOfSpaceError, rethrowFull } from './disk-sync.ts';
import type { BodySink, FileSegment } from './types.ts';

/** Writes are batched into pieces of about this size before they go to the file. */
const WRITE_BATCH = 1024 * 1024;

export interface SinkPlace {
  tmpDir: string;
  bodiesDir: string;
  newName(): string;
  /** Largest body kept in the database; larger ones become files. */
  inlineMax: number;
  /** Whether a body of `size` bytes may still be kept in the database (memory budget). */
  inlineRoom(size: number): boolean;
  /** Whether the disk has room for a new body file (else the body is refused as a full disk). */
  hasRoom(): boolean;
  /** fsync of the bodies directory, shared by the bodies renamed into it meanwhile. */
  syncBodies(): Promise<void>;
  /** A finished body file no record may end up pointing at (a refused write) is removed later. */
  releaseLater(name: string): void;
  /** Told when the disk turned out to be full. */
  onFull(): void;
}

export function newDiskSink(place: SinkPlace): BodySink {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let size = 0;
  let file: { name: string; temp: string; handle: Promise<fs.promises.FileHandle> } | undefined;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // One batch is written while the next one fills: the disk write overlaps reading and hashing.
  let inFlight: Promise<void> = Promise.resolve();
  let done = false;
  let renamed: string | undefined;

  const cleanUp = async (): Promise<void> => {
    if (!file) return;
    const { temp, handle } = file;
    try {
      await inFlight.catch(() => undefined);
      await (await handle).close();
    } catch {
      // never opened, or already closed
    }
    await fs.promises.rm(temp, { force: true });
  };
  const fail = async (error: unknown): Promise<never> => {
    done = true;
    await cleanUp();
    if (renamed !== undefined) place.releaseLater(renamed);
    return rethrowFull(error, place.onFull);
  };

  const openFile = (): void => {
    if (!place.hasRoom()) throw outOfSpaceError(new Error('less than 1 MiB left on the disk'));
    const name = place.newName();
    const temp = path.join(place.tmpDir, name);
    const handle = fs.promises.open(temp, 'wx');
    // An unobserved rejection must not crash the process; every use awaits `handle` again.
    handle.catch(() => undefined);
    file = { name, temp, handle };
    pending = held;
    pendingBytes = heldBytes;
    held = [];
    heldBytes = 0;
  };

  const flush = async (): Promise<void> => {
    await inFlight;
    if (pendingBytes === 0 || !file) return;
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    const handle = await file.handle;
    inFlight = handle.writev(batch).then(() => undefined);
    // Seen by the next flush or by finish; never left unobserved.
    inFlight.catch(() => undefined);
  };

  /** The body as one exact-size array (a view would keep the socket's larger buffer alive). */
  const heldBody = (): Uint8Array => {
    if (held.length === 1 && held[0] !== undefined && held[0].byteOffset === 0 && held[0].byteLength === held[0].buffer.byteLength) return held[0];
    const out = new Uint8Array(heldBytes);
    let at = 0;
    for (const chunk of held) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  };

  return {
    // Synchronous until a batch is full: a promise per socket chunk (16,384 per GiB) was a visible cost.
    write: (chunk) => {
      size += chunk.byteLength;
      if (!file && heldBytes + chunk.byteLength <= place.inlineMax) {
        held.push(chunk);
        heldBytes += chunk.byteLength;
        return undefined;
      }
      try {
        if (!file) openFile();
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        return pendingBytes >= WRITE_BATCH ? flush().catch(fail) : undefined;
      } catch (error) {
        return fail(error);
      }
    },
    finish: async () => {
      done = true;
      if (size === 0) return [];
      if (!file && place.inlineRoom(size)) return [heldBody()];
      try {
        if (!file) openFile();
        const current = file;
        if (!current) throw new Error('no body file');
        await flush();
        await inFlight;
        const handle = await current.handle;
        await handle.sync();
        await handle.close();
        // The whole body is written: refuse it now if the disk has (nearly) filled up meanwhile, so that no
        // body file is left for a record that could not be written.
        if (!place.hasRoom()) throw outOfSpaceError(new Error('less than 1 MiB left on the disk'));
        const final = path.join(place.bodiesDir, current.name);
        await fs.promises.rename(current.temp, final);
        renamed = current.name;
        await place.syncBodies();
        const segment: FileSegment = { file: final, offset: 0, byteLength: size };
        // Refused after all (bad digest, bucket gone): no record will count it, so it goes after the delay.
        place.releaseLater(current.name);
        return [segment];
      } catch (error) {
        return fail(error);
      }
    },
    abort: async () => {
      if (done) return;
      done = true;
      pending = [];
      held = [];
      await cleanUp();
    },
  };
}
