import { pages } from '../../../api/protocol/paging.ts';
import { compareFingerprints, type FileFingerprint } from './fingerprint.ts';
import { LIST_PARTS_LIMIT, type MultipartSpec } from './multipart-model.ts';
import type { RemotePart, RemoteUpload, UploadPorts } from './ports.ts';
import { recordsFor, type ResumeStore } from './resume-store.ts';

/**
 * What a multipart upload (multipart.ts) reads beside its own requests, and how its waits give way to a
 * pause: the remote upload it may continue (from the resume store), every part of a remote upload, and
 * any promise raced against an abort signal.
 */

/** The upload chosen in the inspector; else the latest remembered upload of this file to this key. */
export interface ResumeCandidate {
  uploadId: string;
  partSize: number | undefined;
  /** Chosen by the user (resumeRemote): a mismatch is an error, not a reason to start afresh. */
  explicit: boolean;
}

/** Which remote upload `spec` continues, if any (autoResume: false looks for none but an explicit one). */
export async function resumeCandidate(store: ResumeStore, scope: string, spec: MultipartSpec, fingerprint: FileFingerprint): Promise<ResumeCandidate | undefined> {
  if (spec.uploadId !== undefined) {
    const remembered = (await store.list(scope)).find((r) => r.uploadId === spec.uploadId);
    return { uploadId: spec.uploadId, partSize: remembered?.partSize, explicit: true };
  }
  if (spec.autoResume === false) return undefined;
  const latest = recordsFor(await store.list(scope), (fp) => compareFingerprints(fingerprint, fp) !== 'different', spec).at(-1);
  return latest ? { uploadId: latest.uploadId, partSize: latest.partSize, explicit: false } : undefined;
}

/** Every part of an upload, paging with part_number_marker until a short page (ref §8.4). */
export async function listAllParts(ports: UploadPorts, upload: RemoteUpload, signal: AbortSignal, limit = LIST_PARTS_LIMIT): Promise<RemotePart[]> {
  const all: RemotePart[] = [];
  const listing = pages({
    fetchPage: (marker: number | undefined) => ports.listParts({ ...upload, ...(marker === undefined ? {} : { partNumberMarker: marker }), limit }, signal),
    // A short page is the last one (ListMultipart has no has_more).
    nextMarker: ({ parts }) => (parts.length < limit ? undefined : parts.at(-1)?.partNumber),
    signal,
  });
  for await (const { parts } of listing) all.push(...parts);
  return all;
}

/** `promise`, or the signal's reason as soon as it aborts (the promise itself runs on). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
