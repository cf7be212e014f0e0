import type { en } from './en.ts';
import type { adminEn } from './parts/admin.ts';
import type { bucketsEn } from './parts/buckets.ts';
import type { connectEn } from './parts/connect.ts';
import type { jobsEn } from './parts/jobs.ts';
import type { metadataEn } from './parts/metadata.ts';
import type { multipartEn } from './parts/multipart.ts';
import type { pickerEn } from './parts/picker.ts';
import type { previewEn } from './parts/preview.ts';
import type { transferEn } from './parts/transfer.ts';
import type { uiEn } from './parts/ui.ts';
import type { uploadsEn } from './parts/uploads.ts';

/**
 * Every message key: the entry chunk's (en.ts) and those of the parts that load with their features.
 * Declared here rather than in en.ts: each part imports the registry, which imports en.ts, so en.ts naming
 * the parts would close an import cycle (.ci/cycles.ts).
 */
export type MessageKey =
  | keyof typeof en
  | keyof typeof metadataEn
  | keyof typeof multipartEn
  | keyof typeof uploadsEn
  | keyof typeof adminEn
  | keyof typeof connectEn
  | keyof typeof pickerEn
  | keyof typeof transferEn
  | keyof typeof uiEn
  | keyof typeof bucketsEn
  | keyof typeof previewEn
  | keyof typeof jobsEn;
