import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import type { Md5Hasher } from './hasher.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { MultipartPhase } from './multipart-model.ts';
import type { MultipartUpload } from './multipart.ts';
import type { PartPlanOptions } from './part-plan.ts';
import type { PlannedUpload, UploadKind } from './plan-batch.ts';
import type { Clock, RemoteUpload, UploadPorts } from './ports.ts';
import type { ResumeRecord, ResumeStore } from './resume-store.ts';
import type { RetryPolicy } from './retry.ts';
import { etaSeconds, type SpeedMeter } from './speed.ts';

/**
 * The upload queue's model, with no I/O, timers or notifications: what an item is (Spec), what its runs leave behind (Run),
 * what the UI reads of it (UploadItem, UploadsSnapshot) and how one is derived from the other. The queue
 * (queue.ts) owns the effects: starting and stopping transfers, notifying, the concurrency limit.
 */

/** What the UI shows of an item's lifecycle (lifecycle.ts): a removed item is no longer listed. */
export type UploadState = Exclude<Lifecycle['state'], 'removed'>;

export interface UploadItem {
  readonly id: string;
  readonly kind: UploadKind;
  readonly bucket: string;
  readonly zone: string | undefined;
  readonly key: string;
  readonly fileName: string;
  readonly relativePath: string;
  readonly state: UploadState;
  /** Multipart detail while running (hashing/listing/initiating/uploading/completing). */
  readonly phase: MultipartPhase | undefined;
  readonly bytesSent: number;
  readonly bytesTotal: number;
  /** Bytes per second (moving average); 0 when not running. */
  readonly speed: number;
  /** Seconds left at the current speed; null when unknown. */
  readonly eta: number | null;
  /** Quoted ETag of the stored object once done. */
  readonly etag: string | undefined;
  /** The original failure: ApiError (code, requestId), NetworkError (likelyCors, hint), ResumeMismatchError, ... */
  readonly error: Error | undefined;
  readonly multipart:
    | { uploadId: string | undefined; partCount: number; partSize: number; partsDone: number; partsReused: number }
    | undefined;
}

export interface UploadTotals {
  /** Items per state. */
  readonly counts: Readonly<Record<UploadState, number>>;
  /** Over items that are not cancelled. */
  readonly bytesSent: number;
  readonly bytesTotal: number;
  readonly speed: number;
  readonly eta: number | null;
}

export interface UploadsSnapshot {
  readonly items: readonly UploadItem[];
  readonly totals: UploadTotals;
  readonly concurrency: number;
}

export interface UploadQueueOptions {
  ports: UploadPorts;
  /** Connection identity for remembered uploads (e.g. endpoint + access key id); default ''. */
  scope?: string;
  hasher?: Md5Hasher;
  resumeStore?: ResumeStore;
  /** Items transferring at once (default 3). */
  concurrency?: number;
  /** Parallel parts per multipart item (default 4). */
  partConcurrency?: number;
  partPlan?: PartPlanOptions;
  retry?: RetryPolicy;
  sendContentMd5?: boolean;
  clock?: Clock;
  random?: () => number;
  /** Minimum time between progress notifications (default 200 ms). */
  notifyIntervalMs?: number;
  /** Called once for each item that finishes (state `done`), with its final snapshot. */
  onDone?: (item: UploadItem) => void;
}

export interface UploadQueue {
  subscribe(listener: () => void): () => void;
  getSnapshot(): UploadsSnapshot;
  /** Adds planned uploads (planBatch); multipart items continue a remembered upload of the same file and key. */
  add(uploads: readonly PlannedUpload[]): string[];
  /** Continues an in-progress upload (inspector) with a local file; refuses a file that does not fit. */
  resumeRemote(upload: RemoteUpload, file: File): string;
  pause(id: string): void;
  resume(id: string): void;
  /** Stops the item; a multipart upload is aborted on the server (its parts deleted). */
  cancel(id: string): Promise<void>;
  retry(id: string): void;
  retryFailed(): void;
  /**
   * Drops an item that is not transferring (queued, done, failed or cancelled) from the list; it never
   * starts. The server is not touched: a multipart upload that had begun stays remembered for resume.
   */
  remove(id: string): void;
  clearFinished(): void;
  setConcurrency(n: number): void;
  /** Parallel parts for multipart transfers created from now on (a running transfer keeps its width). */
  setPartConcurrency(n: number): void;
  /** Uploads remembered for this scope (to offer "choose the file again"). */
  listResumable(): Promise<ResumeRecord[]>;
  /** Forgets a remembered upload; with `abortRemote` also deletes it on the server. */
  forgetResumable(record: ResumeRecord, options?: { abortRemote?: boolean }): Promise<void>;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  dispose(): void;
}

/** What an item is: fixed when it is added. */
export interface Spec {
  readonly id: string;
  readonly kind: UploadKind;
  readonly bucket: string;
  readonly zone: string | undefined;
  readonly key: string;
  readonly file: File;
  readonly relativePath: string;
  readonly metadata: ObjectMetadata | undefined;
  /** The upload picked in the inspector (resumeRemote); otherwise the engine finds or starts one. */
  readonly explicitUploadId: string | undefined;
  /** No object had the key when the batch was checked (a form upload then posts to it directly). */
  readonly keyFree: boolean;
}

/** The work of the current or last run; `life` alone says what state the item is in. */
export interface Run {
  controller: AbortController | undefined;
  /** Settles when the current run has stopped (done, failed, paused or cancelled). */
  settled: Promise<void> | undefined;
  /** The multipart transfer (kept across pause and retry so uploaded parts are reused). */
  task: MultipartUpload | undefined;
  formSent: number;
  /** MD5 of the file for a form upload, started with its first attempt (the file never changes). */
  formMd5: Promise<string> | undefined;
  readonly meter: SpeedMeter;
}

export interface Entry {
  readonly spec: Spec;
  life: Lifecycle;
  readonly run: Run;
  /** The item as last shown; dropped whenever the entry changes. */
  cached: UploadItem | undefined;
}

/** What the UI shows of an entry at `now`, memoised in `entry.cached` (the queue drops it whenever the entry changes). */
export function itemOf(entry: Entry, now: number): UploadItem {
  if (entry.cached) return entry.cached;
  const { spec, run, life } = entry;
  // A removed entry is off the list before anyone reads it; shown as cancelled should it ever be read.
  const state: UploadState = life.state === 'removed' ? 'cancelled' : life.state;
  const status = run.task?.status;
  const bytesTotal = spec.file.size;
  const bytesSent = state === 'done' ? bytesTotal : spec.kind === 'form' ? run.formSent : (status?.bytesSent ?? 0);
  const speed = state === 'running' ? run.meter.speed(now) : 0;
  const item: UploadItem = {
    id: spec.id,
    kind: spec.kind,
    bucket: spec.bucket,
    zone: spec.zone,
    key: spec.key,
    fileName: spec.file.name,
    relativePath: spec.relativePath,
    state,
    phase: state === 'running' ? status?.phase : undefined,
    bytesSent,
    bytesTotal,
    speed,
    eta: state === 'running' ? etaSeconds(bytesTotal - bytesSent, speed) : state === 'done' ? 0 : null,
    etag: life.state === 'done' ? life.etag : undefined,
    error: life.state === 'failed' || life.state === 'cancelled' ? life.error : undefined,
    multipart: status
      ? { uploadId: status.uploadId, partCount: status.partCount, partSize: status.partSize, partsDone: status.partsDone, partsReused: status.partsReused }
      : spec.kind === 'multipart'
        ? { uploadId: spec.explicitUploadId, partCount: 0, partSize: 0, partsDone: 0, partsReused: 0 }
        : undefined,
  };
  entry.cached = item;
  return item;
}

/** The snapshot of every entry, with totals over those not cancelled. */
export function snapshotOf(entries: readonly Entry[], concurrency: number, now: number): UploadsSnapshot {
  const items = entries.map((e) => itemOf(e, now));
  const counts: Record<UploadState, number> = { queued: 0, running: 0, paused: 0, done: 0, failed: 0, cancelled: 0 };
  let bytesSent = 0;
  let bytesTotal = 0;
  let speed = 0;
  for (const item of items) {
    counts[item.state] += 1;
    if (item.state === 'cancelled') continue;
    bytesSent += item.bytesSent;
    bytesTotal += item.bytesTotal;
    speed += item.speed;
  }
  return { items, totals: { counts, bytesSent, bytesTotal, speed, eta: etaSeconds(bytesTotal - bytesSent, speed) }, concurrency };
}
