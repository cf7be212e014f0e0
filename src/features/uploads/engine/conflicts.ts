import type { PlannedUpload } from './plan-batch.ts';
import { mapConcurrently } from '../../../lib/concurrency.ts';

/**
 * Files of a batch whose keys already exist in the bucket. The user answers once for the whole batch:
 * overwrite them, skip them, or keep both by uploading under "name (1).ext" (the first free number).
 */
export type ConflictChoice = 'overwrite' | 'skip' | 'rename';

/** Whether an object exists under `key` in the upload's bucket (a HEAD request in the console). */
export type KeyExists = (upload: PlannedUpload, key: string) => Promise<boolean>;

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
  const found = await mapConcurrently(uploads, concurrency, (upload) => exists(upload, upload.key));
  return uploads.filter((_, i) => found[i]);
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
  if (choice === 'overwrite') return [...uploads];
  if (choice === 'skip') return uploads.filter((u) => !conflicting.has(u));
  // Names this batch will use, so two renamed files (or a renamed and a new one) never meet.
  const taken = new Set(uploads.map((u) => `${u.bucket}\u0000${u.key}`));
  const result: PlannedUpload[] = [];
  for (const upload of uploads) {
    if (!conflicting.has(upload)) {
      result.push(upload);
      continue;
    }
    let key: string | undefined;
    for (let n = 1; n <= maxTries && key === undefined; n += 1) {
      const candidate = renamedKey(upload.key, n);
      if (taken.has(`${upload.bucket}\u0000${candidate}`)) continue;
      if (!(await exists(upload, candidate))) key = candidate;
    }
    if (key === undefined) throw new Error(`No free name for ${upload.key} after ${maxTries} tries`);
    taken.add(`${upload.bucket}\u0000${key}`);
    result.push({ ...upload, key });
  }
  return result;
}
