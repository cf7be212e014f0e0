import { en } from './en.ts';
import type { MessageKey } from './message-key.ts';
import { adminEn } from './parts/admin.ts';
import { metadataEn } from './parts/metadata.ts';
import { multipartEn } from './parts/multipart.ts';
import { uploadsEn } from './parts/uploads.ts';
import { connectEn } from './parts/connect.ts';
import { pickerEn } from './parts/picker.ts';
import { transferEn } from './parts/transfer.ts';
import { uiEn } from './parts/ui.ts';
import { bucketsEn } from './parts/buckets.ts';
import { previewEn } from './parts/preview.ts';
import { jobsEn } from './parts/jobs.ts';

/** Every English message in one record, for checks over the whole catalog (tests); the app never imports it. */
export const allEnglish: Readonly<Record<MessageKey, string>> = { ...en, ...metadataEn, ...multipartEn, ...uploadsEn, ...adminEn, ...connectEn, ...pickerEn, ...transferEn, ...uiEn, ...bucketsEn, ...previewEn, ...jobsEn };
