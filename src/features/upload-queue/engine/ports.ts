import type { ObjectMetadata } from '../../../api/metadata/types.ts';

/**
 * What the upload engine needs from the outside world, as small interfaces ("ports"), so the engine is
 * testable with fakes and wired to the real api layer by `createApiPorts` (api-ports.ts).
 */

export interface TransferProgressEvent {
  /** Request body bytes sent so far (a form body includes field overhead). */
  loaded: number;
  total: number;
}

export interface Destination {
  bucket: string;
  /** Zone of the bucket; undefined = the connection's default zone. */
  zone?: string;
  key: string;
}

export interface RemoteUpload extends Destination {
  uploadId: string;
}

export interface RemotePart {
  partNumber: number;
  size?: number;
  /** As listed by ListMultipart (unquoted in DOCS, ref §8.4); compared unquoted, case-insensitive. */
  etag?: string;
}

export interface UploadPorts {
  /** PostObject (ref §7) with upload progress. Resolves with the quoted ETag. */
  postObject(
    input: Destination & { file: Blob; filename: string; metadata?: ObjectMetadata; onProgress?: (p: TransferProgressEvent) => void },
    signal: AbortSignal,
  ): Promise<{ etag: string; requestId: string }>;
  /** InitiateMultipartUpload (ref §8.1). */
  initiateMultipartUpload(input: Destination & { metadata?: ObjectMetadata }, signal: AbortSignal): Promise<{ uploadId: string }>;
  /** UploadMultipart (ref §8.2): `body` is a Blob.slice of the file. */
  uploadPart(
    input: RemoteUpload & { partNumber: number; body: Blob; contentMd5?: string; onProgress?: (p: TransferProgressEvent) => void },
    signal: AbortSignal,
  ): Promise<{ etag: string }>;
  /** One ListMultipart page (ref §8.4); `partNumberMarker` = parts after this number. */
  listParts(input: RemoteUpload & { partNumberMarker?: number; limit: number }, signal: AbortSignal): Promise<{ parts: RemotePart[] }>;
  /** CompleteMultipartUpload (ref §8.5) with ascending parts; `etag` is stored as the object's ETag. */
  completeMultipartUpload(
    input: RemoteUpload & { parts: ReadonlyArray<{ partNumber: number; etag: string }>; etag?: string },
    signal: AbortSignal,
  ): Promise<void>;
  /** HeadObject (ref §3): size and quoted ETag of the object now at the destination, or null if there is none. */
  headObject(input: Destination, signal: AbortSignal): Promise<{ size: number; etag?: string } | null>;
  /** AbortMultipartUpload (ref §8.6), idempotent. */
  abortMultipartUpload(input: RemoteUpload, signal: AbortSignal): Promise<void>;
  /**
   * Move (ref §5.3) of `sourceKey` (same bucket) onto the destination, only while the source's ETag is
   * `ifMatch` (quoted); 'preconditionFailed' when it is not (412), 'sourceMissing' when there is none (404).
   */
  moveObject(input: Destination & { sourceKey: string; ifMatch: string }, signal: AbortSignal): Promise<'moved' | 'preconditionFailed' | 'sourceMissing'>;
  /** DeleteObject (ref §5.6), idempotent. */
  deleteObject(input: Destination, signal: AbortSignal): Promise<void>;
}

/** Time source and timers, injectable so throttling and backoff are tested without real waiting. */
export interface Clock {
  now(): number;
  /** Runs `callback` after `ms`; returns a function that cancels it. */
  setTimeout(callback: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = globalThis.setTimeout(callback, ms);
    return () => globalThis.clearTimeout(handle);
  },
};

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal.reason);
    };
    const cancel = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
