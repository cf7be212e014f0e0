/** Public surface of the upload engine (framework-free; React reads it via useSyncExternalStore). */
export { createApiPorts } from './api-ports.ts';
export { ConflictCheckError, findConflicts, RenameTooLongError, renamedKey, resolveConflicts, type ConflictChoice, type KeyExists } from './conflicts.ts';
export { entriesFromDataTransfer, filesFromInput, walkEntries, type DataTransferItemLike, type DroppedRoot } from './dropped-entries.ts';
export { compareFingerprints, fingerprintFile, type FileFingerprint, type FingerprintMatch } from './fingerprint.ts';
export { createMainThreadHasher, createMd5Hasher, createWorkerHasher, type Md5Hasher } from './hasher.ts';
export { IntegrityError } from './integrity.ts';
export { ResumeMismatchError, listAllParts, type MultipartPhase } from './multipart.ts';
export { DEFAULT_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, planParts, type PartPlan, type PartPlanOptions } from './part-plan.ts';
export { DEFAULT_MULTIPART_THRESHOLD, planBatch, type BatchInput, type BatchPlan, type BatchProblem, type PlannedUpload, type SourceFile, type UploadKind } from './plan-batch.ts';
export type { Clock, Destination, RemotePart, RemoteUpload, UploadPorts } from './ports.ts';
export { QUEUED, transition, type Lifecycle, type LifecycleEvent, type LifecycleState } from './lifecycle.ts';
export { createUploadQueue, type UploadItem, type UploadQueue, type UploadQueueOptions, type UploadState, type UploadTotals, type UploadsSnapshot } from './queue.ts';
export { createIndexedDbResumeStore, createMemoryResumeStore, type ResumeRecord, type ResumeStore } from './resume-store.ts';
export { DEFAULT_RETRY_POLICY, isRetryable, type RetryPolicy } from './retry.ts';
