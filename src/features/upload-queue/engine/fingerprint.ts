import { z } from 'zod';
import type { Md5Hasher } from './hasher.ts';

/**
 * Recognising "the same file" when it is chosen again, after a reload or on another machine.
 *
 * name + size + lastModified identify a file cheaply on one machine, but a copy to another machine
 * often gets a new mtime and sometimes a new name, and two different files can share all three. So the
 * fingerprint adds the MD5 of the first and of the last MiB: the head tells apart different files of
 * equal size (formats put distinguishing headers first), the tail catches files rewritten or appended
 * at the end (logs, archives, video indexes); reading 2 MiB costs the same for a 50 GB file as for a
 * 20 MB one, unlike a full hash. The fingerprint only finds the candidate upload: before any part is
 * reused its MD5 is compared with the part's ETag on the server, so a false match can cost time but
 * can never corrupt the object.
 */

export const FINGERPRINT_SAMPLE = 1024 * 1024;

export const fileFingerprintSchema = z.object({
  name: z.string(),
  size: z.int().nonnegative(),
  lastModified: z.number(),
  headMd5: z.string().regex(/^[0-9a-f]{32}$/),
  tailMd5: z.string().regex(/^[0-9a-f]{32}$/),
});
export type FileFingerprint = z.infer<typeof fileFingerprintSchema>;

export async function fingerprintFile(file: File, hasher: Md5Hasher): Promise<FileFingerprint> {
  const [headMd5, tailMd5] = await Promise.all([
    hasher.md5(file.slice(0, FINGERPRINT_SAMPLE)),
    hasher.md5(file.slice(Math.max(0, file.size - FINGERPRINT_SAMPLE))),
  ]);
  return { name: file.name, size: file.size, lastModified: file.lastModified, headMd5, tailMd5 };
}

/**
 * - `same`: every field equal (the same file on the same machine);
 * - `same-content`: size and both samples equal, name or mtime differ (renamed, or copied elsewhere);
 * - `different`.
 * Both non-different results are safe to resume (see the module comment).
 */
export type FingerprintMatch = 'same' | 'same-content' | 'different';

export function compareFingerprints(local: FileFingerprint, stored: FileFingerprint): FingerprintMatch {
  if (local.size !== stored.size || local.headMd5 !== stored.headMd5 || local.tailMd5 !== stored.tailMd5) return 'different';
  return local.name === stored.name && local.lastModified === stored.lastModified ? 'same' : 'same-content';
}
