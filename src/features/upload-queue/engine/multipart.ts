import { ApiError } from '../../../api/errors.ts';
import { hexToBase64 } from '../../../api/objects/md5.ts';
import { fingerprintFile, type FileFingerprint } from './fingerprint.ts';
import type { Md5Session } from './hasher.ts';
import {
  contentMismatch,
  HASH_AHEAD_BYTES,
  normalEtag,
  sizeMismatch,
  type MultipartDeps,
  type MultipartListener,
  type MultipartPhase,
  type MultipartSpec,
  type MultipartStatus,
} from './multipart-model.ts';
import { listAllParts, raceAbort, resumeCandidate } from './multipart-remote.ts';
import { inferPartPlan, partLength, partRange, planParts, type PartPlan } from './part-plan.ts';
import type { Destination, RemotePart, RemoteUpload } from './ports.ts';
import { withRetry } from './retry.ts';

/**
 * One multipart upload (ref §8): initiate (or find the upload to continue), parts as Blob slices in
 * parallel with per-part retry, complete with the ascending part list. `run` may be called again after
 * it stopped (pause = abort its signal, or a failure): parts already confirmed are kept and only the rest
 * is sent.
 *
 * Each part is read once for hashing by a session (hasher.ts): its MD5 serves as Content-MD5 (the
 * server refuses a damaged part, `bad_digest`) and as the comparison value against ETags of parts already
 * on the server, and the same bytes feed the whole-file MD5 that is given to Complete as the object's
 * ETag (ref §8.5: the service stores the ETag it is given), so a multipart object gets the same ETag as a
 * PutObject of the same bytes. A part is sent as a slice of the file (a File.slice view, never a copy of
 * the bytes that were hashed): the browser's network code reads it from the file itself. A file changed
 * between hashing and sending is still caught: the server refuses a body that does not match its
 * Content-MD5.
 *
 * Hashing runs ahead of sending (a pipeline): while `partConcurrency` parts are on the wire, the next
 * ones are already being hashed, so a sender that finishes finds its next part ready. How far ahead is
 * bounded (HASH_AHEAD_BYTES), and a sender waits before taking a part while too many hashed parts are
 * still waiting for the whole-file MD5, which bounds the memory they hold.
 */

export class MultipartUpload {
  readonly #deps: MultipartDeps;
  readonly #spec: MultipartSpec;
  readonly #listener: MultipartListener;

  #phase: MultipartPhase = 'preparing';
  #uploadId: string | undefined;
  #plan: PartPlan | undefined;
  #fingerprint: FileFingerprint | undefined;
  /** Remote parts listed when continuing an upload: part number → normalised ETag. */
  #remote = new Map<number, string>();
  /** Confirmed parts: part number → ETag to send at Complete. */
  #done = new Map<number, string>();
  #reused = 0;
  #inFlight = new Map<number, number>();
  #session: Md5Session | undefined;
  /** Part number → its MD5, once per session; parts are asked in file order. */
  #hashes = new Map<number, Promise<string>>();
  #nextToHash = 0;
  #hashFailed = false;
  #completed = false;
  /** Complete requests sent so far, retries and runs after a pause included (an answer may have been lost). */
  #completeAttempts = 0;

  constructor(deps: MultipartDeps, spec: MultipartSpec, listener: MultipartListener) {
    this.#deps = deps;
    this.#spec = spec;
    this.#listener = listener;
    this.#uploadId = spec.uploadId;
  }

  get status(): MultipartStatus {
    const plan = this.#plan;
    let bytesSent = 0;
    if (plan) {
      for (const n of this.#done.keys()) bytesSent += partLength(plan, n);
      for (const loaded of this.#inFlight.values()) bytesSent += loaded;
    }
    return {
      phase: this.#phase,
      uploadId: this.#uploadId,
      partCount: plan?.partCount ?? 0,
      partSize: plan?.partSize ?? 0,
      partsDone: this.#done.size,
      partsReused: this.#reused,
      bytesSent,
    };
  }

  get destination(): RemoteUpload | undefined {
    return this.#uploadId === undefined ? undefined : this.#remoteRef(this.#uploadId);
  }

  #remoteRef(uploadId: string): RemoteUpload {
    return { ...this.#destinationOnly(), uploadId };
  }

  #setPhase(phase: MultipartPhase): void {
    this.#phase = phase;
    this.#listener.onChange();
  }

  #retry<T>(signal: AbortSignal, task: (attempt: number) => Promise<T>, onRetry?: () => void): Promise<T> {
    const { retry, clock, random } = this.#deps;
    return withRetry({ policy: retry, clock, random, signal, ...(onRetry ? { onRetry } : {}) }, task);
  }

  /** Uploads what is missing and completes. Resolves with the object's quoted ETag. */
  async run(signal: AbortSignal): Promise<{ etag: string }> {
    if (this.#completed) throw new Error('This upload is already complete');
    if (this.#hashFailed) this.#resetHashing();
    if (!this.#plan) await this.#establish(signal);
    await this.#uploadParts(signal);
    return this.#complete(signal);
  }

  /** Deletes the upload and its parts on the server and forgets it locally (cancel). */
  async abort(): Promise<void> {
    this.#closeSession();
    const uploadId = this.#uploadId;
    if (uploadId === undefined || this.#completed) return;
    await this.#deps.ports.abortMultipartUpload(this.#remoteRef(uploadId), new AbortController().signal);
    await this.#deps.resumeStore.remove(uploadId);
  }

  /** Releases the hashing session (the item is gone); the server upload stays resumable. */
  dispose(): void {
    this.#closeSession();
  }

  /** After `upload_not_exists` on a remembered (not explicitly chosen) upload: start over. */
  forgetRemote(): void {
    this.#uploadId = this.#spec.uploadId;
    this.#plan = undefined;
    this.#remote.clear();
    this.#done.clear();
    this.#reused = 0;
    this.#resetHashing();
  }

  #resetHashing(): void {
    this.#closeSession();
    this.#hashes.clear();
    this.#nextToHash = 0;
    this.#hashFailed = false;
  }

  #closeSession(): void {
    this.#session?.close();
    this.#session = undefined;
  }

  async #establish(signal: AbortSignal): Promise<void> {
    const { ports, resumeStore, scope, hasher, partPlan } = this.#deps;
    const { file } = this.#spec;
    this.#setPhase('preparing');
    this.#fingerprint ??= await raceAbort(fingerprintFile(file, hasher), signal);
    const fingerprint = this.#fingerprint;

    const candidate = await resumeCandidate(resumeStore, scope, this.#spec, fingerprint);

    if (candidate) {
      this.#setPhase('listing');
      const upload = this.#remoteRef(candidate.uploadId);
      let parts: RemotePart[] | undefined;
      try {
        parts = await this.#retry(signal, () => listAllParts(ports, upload, signal));
      } catch (error) {
        // A remembered upload completed or aborted elsewhere: forget it and upload afresh.
        if (candidate.explicit || !(error instanceof ApiError && error.code === 'upload_not_exists')) throw error;
        await resumeStore.remove(candidate.uploadId);
      }
      if (parts) {
        const plan = inferPartPlan(file.size, parts, [candidate.partSize], partPlan);
        if (plan) {
          this.#adopt(candidate.uploadId, plan, parts);
          if (candidate.explicit) await this.#refuseUnrelatedFile(candidate.uploadId, parts, signal);
          await resumeStore.save(this.#record(candidate.uploadId, plan));
          return;
        }
        if (candidate.explicit) {
          throw sizeMismatch(file, candidate.uploadId, parts);
        }
        // A remembered upload whose parts do not fit this file: leave it for the inspector, start a new one.
      }
    }

    const plan = planParts(file.size, partPlan);
    this.#setPhase('initiating');
    const { uploadId } = await this.#retry(signal, () =>
      ports.initiateMultipartUpload({ ...this.#destinationOnly(), ...(this.#spec.metadata ? { metadata: this.#spec.metadata } : {}) }, signal),
    );
    this.#adopt(uploadId, plan, []);
    await resumeStore.save(this.#record(uploadId, plan));
  }

  /**
   * A file of a fitting size of which not one uploaded part matches is not the file this upload was
   * started with: continuing would silently replace the upload's content. Hashing up to the last listed
   * part happens anyway (every part is hashed in order); it only happens before any part is sent.
   */
  async #refuseUnrelatedFile(uploadId: string, parts: readonly RemotePart[], signal: AbortSignal): Promise<void> {
    const withEtag = parts.filter((p) => p.etag);
    const last = withEtag.at(-1);
    if (!last) return;
    await raceAbort(this.#hashPart(last.partNumber), signal);
    for (const p of withEtag) {
      if ((await this.#hashPart(p.partNumber)) === this.#remote.get(p.partNumber)) return;
    }
    throw contentMismatch(this.#spec.file, uploadId, withEtag.length);
  }

  #destinationOnly(): Destination {
    const { bucket, zone, key } = this.#spec;
    return { bucket, ...(zone === undefined ? {} : { zone }), key };
  }

  #record(uploadId: string, plan: PartPlan) {
    if (!this.#fingerprint) throw new Error('fingerprint missing');
    return {
      uploadId,
      scope: this.#deps.scope,
      ...this.#destinationOnly(),
      fingerprint: this.#fingerprint,
      partSize: plan.partSize,
      ...(this.#spec.metadata ? { metadata: this.#spec.metadata } : {}),
      createdAt: this.#deps.clock.now(),
    };
  }

  #adopt(uploadId: string, plan: PartPlan, parts: readonly RemotePart[]): void {
    this.#uploadId = uploadId;
    this.#plan = plan;
    this.#remote = new Map(parts.flatMap((p) => (p.etag ? [[p.partNumber, normalEtag(p.etag)] as const] : [])));
    this.#listener.onChange();
  }

  #sessionNow(): Md5Session {
    this.#session ??= this.#deps.hasher.session();
    return this.#session;
  }

  /**
   * MD5 of part n. Hashing of every part up to n is started (in file order, each exactly once per
   * session; they run concurrently in the hasher's pool), so the whole-file MD5 sees every part.
   */
  #hashPart(n: number): Promise<string> {
    const plan = this.#plan;
    if (!plan) throw new Error('no part plan');
    const session = this.#sessionNow();
    while (this.#nextToHash <= n) {
      const index = this.#nextToHash;
      const { start, end } = partRange(plan, index);
      const piece = session.part(index, this.#spec.file.slice(start, end));
      piece.catch(() => {
        this.#hashFailed = true;
      });
      this.#hashes.set(index, piece);
      this.#nextToHash += 1;
    }
    const hash = this.#hashes.get(n);
    if (!hash) throw new Error(`part ${n} was not hashed`);
    return hash;
  }

  async #uploadParts(outer: AbortSignal): Promise<void> {
    const plan = this.#plan;
    const uploadId = this.#uploadId;
    if (!plan || uploadId === undefined) throw new Error('upload not established');
    this.#setPhase('uploading');
    const pending: number[] = [];
    for (let n = 0; n < plan.partCount; n += 1) if (!this.#done.has(n)) pending.push(n);
    let next = 0;
    const ahead = Math.max(1, Math.min(this.#deps.partConcurrency, Math.floor(HASH_AHEAD_BYTES / plan.partSize)));
    // Starts hashing the parts the next senders will take, beyond those being sent now.
    const hashAhead = (): void => {
      const last = pending[Math.min(pending.length, next + ahead) - 1];
      if (last !== undefined && !signal.aborted) void this.#hashPart(last).catch(() => undefined);
    };

    // The first failure stops the other workers; their abort is not the error to report.
    const stop = new AbortController();
    const signal = AbortSignal.any([outer, stop.signal]);
    let failure: { error: unknown } | undefined;

    const worker = async (): Promise<void> => {
      for (;;) {
        // Bytes waiting for the whole-file MD5 stay bounded even when it falls behind the senders.
        try {
          await raceAbort(this.#sessionNow().room(ahead + this.#deps.partConcurrency + 1), signal);
        } catch {
          return;
        }
        const n = pending[next];
        if (n === undefined || signal.aborted) return;
        next += 1;
        hashAhead();
        try {
          await this.#sendPart(plan, uploadId, n, signal);
        } catch (error) {
          if (!failure && !outer.aborted) {
            failure = { error };
            stop.abort(error);
          }
          return;
        }
      }
    };
    hashAhead();
    const workers = Array.from({ length: Math.max(1, Math.min(this.#deps.partConcurrency, plan.partCount)) }, worker);
    await Promise.all(workers);
    if (outer.aborted) throw outer.reason;
    if (failure) throw failure.error;
  }

  async #sendPart(plan: PartPlan, uploadId: string, n: number, signal: AbortSignal): Promise<void> {
    const md5 = await raceAbort(this.#hashPart(n), signal);
    const length = partLength(plan, n);
    if (this.#remote.get(n) === md5) {
      this.#done.set(n, md5);
      this.#reused += 1;
      this.#listener.onChange();
      return;
    }
    const { start, end } = partRange(plan, n);
    // A view of the file, not the bytes that were hashed: nothing is copied (see the module comment).
    const body = this.#spec.file.slice(start, end);
    const { etag } = await this.#retry(
      signal,
      () => {
        this.#inFlight.set(n, 0);
        return this.#deps.ports.uploadPart(
          {
            ...this.#remoteRef(uploadId),
            partNumber: n,
            body,
            ...(this.#deps.sendContentMd5 ? { contentMd5: hexToBase64(md5) } : {}),
            onProgress: ({ loaded, total }) => {
              const scaled = total > 0 ? Math.min(length, Math.round((loaded / total) * length)) : 0;
              const before = this.#inFlight.get(n) ?? 0;
              if (scaled > before) this.#listener.onNetworkBytes(scaled - before);
              this.#inFlight.set(n, scaled);
              this.#listener.onChange();
            },
          },
          signal,
        );
      },
      () => {
        this.#inFlight.delete(n);
        this.#listener.onChange();
      },
    ).finally(() => this.#inFlight.delete(n));
    // An ETag hidden by CORS (not in Expose-Headers) reads as '': the part's MD5 is its ETag (ref §8.2).
    this.#done.set(n, etag === '' ? md5 : normalEtag(etag));
    this.#listener.onChange();
  }

  async #complete(signal: AbortSignal): Promise<{ etag: string }> {
    const plan = this.#plan;
    const uploadId = this.#uploadId;
    if (!plan || uploadId === undefined) throw new Error('upload not established');
    this.#setPhase('completing');
    // Hashing part by part in order covers the whole file (again, if a session had to be restarted).
    await raceAbort(this.#hashPart(plan.partCount - 1), signal);
    if (!this.#session) throw new Error('no hashing session');
    // Every part's MD5 is settled (a part hashed but never awaited may still be reading).
    for (let n = 0; n < plan.partCount; n += 1) await raceAbort(this.#hashPart(n), signal);
    const wholeMd5 = await raceAbort(this.#session.digest(plan.partCount), signal);
    const parts = [...this.#done.entries()].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
    try {
      await this.#retry(signal, () => {
        this.#completeAttempts += 1;
        return this.#deps.ports.completeMultipartUpload({ ...this.#remoteRef(uploadId), parts, etag: wholeMd5 }, signal);
      });
    } catch (error) {
      // An earlier Complete may have reached the server although its answer did not reach us (paused,
      // offline, a retried timeout): the upload is then gone. The object we asked for carries our whole-file
      // MD5 as its ETag (ref §8.5) and the file's size, so a HEAD tells whether that Complete succeeded.
      if (!(error instanceof ApiError && error.code === 'upload_not_exists' && this.#completeAttempts > 1)) throw error;
      const head = await this.#deps.ports.headObject(this.#destinationOnly(), signal);
      if (!head || head.size !== this.#spec.file.size || normalEtag(head.etag ?? '') !== wholeMd5) throw error;
    }
    this.#completed = true;
    this.#closeSession();
    await this.#deps.resumeStore.remove(uploadId);
    this.#listener.onChange();
    return { etag: `"${wholeMd5}"` };
  }
}
