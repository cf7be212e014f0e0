/**
 * Public surface of the upload engine (framework-free; React reads it via useSyncExternalStore): what the
 * drawer's UI (../ui/) uses, and all it may import from this folder (.ci/boundaries.ts). The engine's own
 * modules and its tests import each other directly.
 */
export { createApiPorts } from './api-ports.ts';
export { ConflictCheckError, findConflicts, markFreeKeys, RenameTooLongError, resolveConflicts, type ConflictChoice, type KeyExists } from './conflicts.ts';
export { entriesFromDataTransfer, filesFromInput, walkEntries, type DataTransferItemLike } from './dropped-entries.ts';
export { compareFingerprints, fingerprintFile } from './fingerprint.ts';
export { createMd5Hasher, type Md5Hasher } from './hasher.ts';
export { IntegrityError } from './integrity.ts';
export { ResumeMismatchError } from './multipart-model.ts';
export { DEFAULT_PART_SIZE, MAX_PART_SIZE, MIN_PART_SIZE, type PartPlanOptions } from './part-plan.ts';
export { DEFAULT_MULTIPART_THRESHOLD, planBatch, type BatchProblem, type PlannedUpload, type SourceFile } from './plan-batch.ts';
export { createUploadQueue } from './queue.ts';
export type { UploadItem, UploadQueue, UploadTotals, UploadsSnapshot } from './queue-model.ts';
export { createIndexedDbResumeStore, createMemoryResumeStore, type ResumeRecord } from './resume-store.ts';
