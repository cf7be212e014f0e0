import type { PlannedUpload } from './plan-batch.ts';
import { MAX_KEY_BYTES } from '../../../api/protocol/limits.ts';
import { mapConcurrently } from '../../../lib/concurrency.ts';

/**
 * Files of a batch whose keys already exist in the bucket. The user answers once for the whole batch:
 * overwrite them, skip them, or keep both by uploading under "name (1).ext" (the first free number).
 */
export type ConflictChoice = 'overwrite' | 'skip' | 'rename';

/**
 * Whether an object exists under `key` in the upload's bucket (a HEAD request in the console). It throws
 * when it cannot tell (no permission to read, a network failure): an unknown key never counts as free.
 */
export type KeyExists = (upload: PlannedUpload, key: string) => Promise<boolean>;

/** The existence check of `key` failed: the batch must not start, or it could overwrite without asking. */
export class ConflictCheckError extends Error {
  readonly key: string;
  readonly reason: unknown;
  constructor(key: string, reason: unknown) {
    super(`Could not check whether ${key} exists`);
    this.name = 'ConflictCheckError';
    this.key = key;
    this.reason = reason;
  }
}

/** "Keep both" cannot name these files: every "name (n).ext" left would be longer than the key limit. */
export class RenameTooLongError extends Error {
  readonly keys: readonly string[];
  constructor(keys: readonly string[]) {
    super(`No "keep both" name within ${MAX_KEY_BYTES} bytes for ${keys.join(', ')}`);
    this.name = 'RenameTooLongError';
    this.keys = keys;
  }
}

const keyBytes = (key: string): number => new TextEncoder().encode(key).byteLength;

/** "dir/photo.jpg" → "dir/photo (1).jpg"; a name without an extension (or a dot file) gets the number at the end. */
export function renamedKey(key: string, n: number): string {
  const slash = key.lastIndexOf('/');
  const dir = key.slice(0, slash + 1);
  const name = key.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${dir}${name} (${n})`;
  return `${dir}${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** The uploads whose target key exists already, asking at most `concurrency` at once. */
export async function findConflicts(uploads: readonly PlannedUpload[], exists: KeyExists, concurrency = 6): Promise<PlannedUpload[]> {
  const found = await mapConcurrently(uploads, concurrency, (upload) => checked(exists, upload, upload.key));
  return uploads.filter((_, i) => found[i]);
}

async function checked(exists: KeyExists, upload: PlannedUpload, key: string): Promise<boolean> {
  try {
    return await exists(upload, key);
  } catch (error) {
    throw new ConflictCheckError(key, error);
  }
}

/**
 * The batch to upload when the check found none of `conflicts` (or after the answer): every other file's key
 * was free when checked, which lets a form upload post to it directly (form-upload.ts).
 */
export function markFreeKeys(uploads: readonly PlannedUpload[], conflicts: readonly PlannedUpload[]): PlannedUpload[] {
  const conflicting = new Set(conflicts);
  return uploads.map((upload) => (conflicting.has(upload) ? upload : { ...upload, keyFree: true }));
}

/** The batch after the user's answer: conflicting files overwritten, left out, or given a free "(n)" name. */
export async function resolveConflicts(
  uploads: readonly PlannedUpload[],
  conflicts: readonly PlannedUpload[],
  choice: ConflictChoice,
  exists: KeyExists,
  maxTries = 1000,
): Promise<PlannedUpload[]> {
  const conflicting = new Set(conflicts);
  if (choice === 'overwrite') return markFreeKeys(uploads, conflicts);
  if (choice === 'skip') return markFreeKeys(uploads.filter((u) => !conflicting.has(u)), []);
  // Said before any request: a key near the limit has no "(1)" name, and a longer number only grows it.
  const tooLong = conflicts.filter((u) => keyBytes(renamedKey(u.key, 1)) > MAX_KEY_BYTES).map((u) => u.key);
  if (tooLong.length > 0) throw new RenameTooLongError(tooLong);
  // Names this batch will use, so two renamed files (or a renamed and a new one) never meet.
  const taken = new Set(uploads.map((u) => `${u.bucket}\u0000${u.key}`));
  const result: PlannedUpload[] = [];
  for (const upload of uploads) {
    if (!conflicting.has(upload)) {
      result.push({ ...upload, keyFree: true });
      continue;
    }
    let key: string | undefined;
    for (let n = 1; n <= maxTries && key === undefined; n += 1) {
      const candidate = renamedKey(upload.key, n);
      if (keyBytes(candidate) > MAX_KEY_BYTES) throw new RenameTooLongError([upload.key]);
      if (taken.has(`${upload.bucket}\u0000${candidate}`)) continue;
      if (!(await checked(exists, upload, candidate))) key = candidate;
    }
    if (key === undefined) throw new Error(`No free name for ${upload.key} after ${maxTries} tries`);
    taken.add(`${upload.bucket}\u0000${key}`);
    result.push({ ...upload, key, keyFree: true });
  }
  return result;
}
