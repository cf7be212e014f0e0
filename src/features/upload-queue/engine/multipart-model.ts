import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import { unquoteEtag } from '../../../api/protocol/etag.ts';
import { MAX_LIST_PARTS_LIMIT } from '../../../api/protocol/limits.ts';
import type { Md5Hasher } from './hasher.ts';
import type { PartPlanOptions } from './part-plan.ts';
import type { Clock, Destination, RemotePart, UploadPorts } from './ports.ts';
import type { ResumeStore } from './resume-store.ts';
import type { RetryPolicy } from './retry.ts';

/**
 * The words of one multipart upload (multipart.ts), with no I/O: its phases and status as the queue shows
 * them, what it needs (deps) and is asked to do (spec), how it reports, the error for a local file that
 * does not fit a remote upload, and the bounds it works within.
 */

/** Bytes of parts hashed ahead of the senders, at most (one part ahead at least, one per sender at most). */
export const HASH_AHEAD_BYTES = 64 * 1024 * 1024;

/** ListMultipart page size: the largest the API allows (ref §8.4). */
export const LIST_PARTS_LIMIT = MAX_LIST_PARTS_LIMIT;

export type MultipartPhase = 'preparing' | 'listing' | 'initiating' | 'uploading' | 'completing';

/** The local file cannot continue this remote upload (its parts do not fit the file). */
export class ResumeMismatchError extends Error {
  readonly code = 'file_mismatch';
  constructor(message: string) {
    super(message);
    this.name = 'ResumeMismatchError';
  }
}

/** An explicitly chosen upload whose listed parts do not fit the size of the file given to continue it. */
export function sizeMismatch(file: File, uploadId: string, parts: readonly RemotePart[]): ResumeMismatchError {
  const listedBytes = parts.reduce((sum, p) => sum + (p.size ?? 0), 0);
  return new ResumeMismatchError(
    `"${file.name}" (${file.size} bytes) does not match upload ${uploadId}: its ${parts.length} uploaded part(s) ` +
      `(${listedBytes} bytes) do not fit a file of this size. Choose the file this upload was started with.`,
  );
}

/** A file of a fitting size of which not one of the upload's `partsWithEtag` parts has the same content. */
export function contentMismatch(file: File, uploadId: string, partsWithEtag: number): ResumeMismatchError {
  return new ResumeMismatchError(
    `"${file.name}" does not match upload ${uploadId}: none of its ${partsWithEtag} uploaded part(s) has the same content. ` +
      'Choose the file this upload was started with.',
  );
}

export interface MultipartDeps {
  ports: UploadPorts;
  hasher: Md5Hasher;
  resumeStore: ResumeStore;
  /** Connection the records belong to (see ResumeRecord.scope). */
  scope: string;
  clock: Clock;
  random: () => number;
  retry: RetryPolicy;
  partConcurrency: number;
  partPlan: PartPlanOptions;
  /** Send Content-MD5 with each part (needs `content-md5` allowed by the bucket's CORS rule). */
  sendContentMd5: boolean;
}

export interface MultipartSpec extends Destination {
  file: File;
  metadata?: ObjectMetadata;
  /** Continue this upload (inspector: "resume from a local file"); else a fresh one or a remembered match. */
  uploadId?: string;
  /** Look for a remembered upload of the same file to the same key (default true). */
  autoResume?: boolean;
}

export interface MultipartStatus {
  phase: MultipartPhase;
  uploadId: string | undefined;
  partCount: number;
  partSize: number;
  /** Parts on the server that this file will use (uploaded now or earlier). */
  partsDone: number;
  /** Parts found on the server with a matching MD5 and not sent again. */
  partsReused: number;
  /** Bytes of done parts plus progress of parts in flight. */
  bytesSent: number;
}

export interface MultipartListener {
  /** Something in `status` changed. */
  onChange(): void;
  /** Bytes that actually went over the network (speed); includes attempts that later failed. */
  onNetworkBytes(delta: number): void;
}

export function normalEtag(etag: string): string {
  return unquoteEtag(etag).toLowerCase();
}
