import { normalizeCustomMetadata } from '../../../api/metadata/header-mapping.ts';
import { utf8ByteLength } from '../../../api/metadata/rules.ts';
import { metadataRuleOfIssue, objectMetadataSchema } from '../../../api/metadata/schemas.ts';
import type { MetadataRule, ObjectMetadata } from '../../../api/metadata/types.ts';
import { FILENAME_PLACEHOLDER } from '../../../api/post-object/operations.ts';
import { MAX_KEY_BYTES } from '../../../api/protocol/limits.ts';
import { STAGING_OVERHEAD_BYTES } from './form-upload.ts';

/**
 * Turns dropped or picked files into upload items: key = prefix + relative path, one metadata set for
 * the whole batch (checked by the shared metadata schema, ref §6), and the transport by size.
 */

/**
 * PostObject is meant for small files (ref §7: "not for > 20 MB"); 20,000,000 bytes keeps below that
 * whether the DOCS mean decimal or binary megabytes. Files of this size or more go multipart.
 */
export const DEFAULT_MULTIPART_THRESHOLD = 20_000_000;

export interface SourceFile {
  file: File;
  /** Path below the drop root with '/' separators, ending in the file name (e.g. "photos/2024/a.jpg"). */
  relativePath: string;
}

export type UploadKind = 'form' | 'multipart';

export interface PlannedUpload {
  kind: UploadKind;
  bucket: string;
  zone?: string;
  key: string;
  file: File;
  relativePath: string;
  /** Batch metadata; Content-Type defaults to the file's own type when the batch sets none. */
  metadata: ObjectMetadata;
  /** The batch's conflict check found no object under the key (conflicts.ts); unknown otherwise. */
  keyFree?: boolean;
}

export type BatchProblem =
  | { kind: 'metadata'; rule: MetadataRule | undefined; key: string | undefined; message: string }
  | { kind: 'key'; reason: 'empty' | 'too_long' | 'leading_slash' | 'duplicate'; key: string; relativePath: string };

export interface BatchInput {
  files: ReadonlyArray<File | SourceFile>;
  bucket: string;
  zone?: string;
  /** Prepended verbatim: "docs/" puts files into that folder, "" into the bucket root. */
  prefix?: string;
  metadata?: ObjectMetadata;
  /** Bytes from which multipart is used (default DEFAULT_MULTIPART_THRESHOLD). */
  multipartThreshold?: number;
}

export interface BatchPlan {
  uploads: PlannedUpload[];
  /** Metadata problems refuse the whole batch; key problems skip only the affected file. */
  problems: BatchProblem[];
}

/** webkitRelativePath for <input webkitdirectory> picks, else the bare name. */
export function sourceOf(file: File | SourceFile): SourceFile {
  if (!(file instanceof File)) return file;
  return { file, relativePath: file.webkitRelativePath || file.name };
}

function cleanRelativePath(path: string): string {
  // DataTransfer entries carry a leading '/' (FileSystemEntry.fullPath); Windows pickers may give '\'.
  return path.replace(/\\/g, '/').replace(/^\/+/, '');
}

export function planBatch(input: BatchInput): BatchPlan {
  const metadata: ObjectMetadata = input.metadata ?? { standard: {}, custom: {} };
  const parsed = objectMetadataSchema.safeParse(metadata);
  if (!parsed.success) {
    return {
      uploads: [],
      problems: parsed.error.issues.map((issue) => ({
        kind: 'metadata',
        rule: metadataRuleOfIssue(issue),
        key: issue.path.length > 1 && typeof issue.path[1] === 'string' ? issue.path[1] : undefined,
        message: issue.message,
      })),
    };
  }

  const threshold = input.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD;
  const prefix = input.prefix ?? '';
  const uploads: PlannedUpload[] = [];
  const problems: BatchProblem[] = [];
  const seen = new Set<string>();
  for (const source of input.files.map(sourceOf)) {
    const relativePath = cleanRelativePath(source.relativePath);
    const key = prefix + relativePath;
    const reason = relativePath === '' ? 'empty' : key.startsWith('/') ? 'leading_slash' : utf8ByteLength(key) > MAX_KEY_BYTES ? 'too_long' : seen.has(key) ? 'duplicate' : null;
    if (reason) {
      problems.push({ kind: 'key', reason, key, relativePath });
      continue;
    }
    seen.add(key);
    const contentType = metadata.standard['content-type'] ?? (source.file.type || undefined);
    // PostObject expands `${filename}` inside `key` (ref §7); such keys go multipart, which stores the key verbatim.
    // So does a key too long for a staging name beside it (form-upload.ts): multipart parts carry Content-MD5.
    const kind: UploadKind =
      source.file.size >= threshold || key.includes(FILENAME_PLACEHOLDER) || utf8ByteLength(key) > MAX_KEY_BYTES - STAGING_OVERHEAD_BYTES ? 'multipart' : 'form';
    uploads.push({
      kind,
      bucket: input.bucket,
      ...(input.zone === undefined ? {} : { zone: input.zone }),
      key,
      file: source.file,
      relativePath,
      metadata: {
        standard: { ...metadata.standard, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
        custom: normalizeCustomMetadata(metadata.custom),
      },
    });
  }
  return { uploads, problems };
}
