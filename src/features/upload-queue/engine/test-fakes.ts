/**
 * Test doubles for the engine's ports: a manual clock and an in-memory multipart/PostObject server with
 * hooks for failures and for holding requests in flight. Test-only (imported by *.test.ts files).
 */
import { createHash } from 'node:crypto';
import { ApiError, NetworkError } from '../../../api/errors.ts';
import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import type { Clock, RemotePart, UploadPorts } from './ports.ts';

export function md5Hex(data: Uint8Array | string): string {
  return createHash('md5').update(data).digest('hex');
}

/** Deterministic pseudo-random bytes, so part contents differ from each other. */
export function bytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export function fileOf(data: Uint8Array<ArrayBuffer>, name = 'data.bin', lastModified = 1_700_000_000_000): File {
  return new File([data], name, { lastModified, type: 'application/octet-stream' });
}

export class ManualClock implements Clock {
  #now = 0;
  #timers: Array<{ at: number; callback: () => void; id: number }> = [];
  #nextId = 1;

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const id = this.#nextId++;
    this.#timers.push({ at: this.#now + ms, callback, id });
    return () => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    };
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t.id !== due.id);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#now = target;
  }
}

/** Lets pending promise callbacks run (several turns, for chains of awaits). */
export async function flush(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

export function apiError(status: number, code: string, operation = 'UploadMultipart'): ApiError {
  return new ApiError({ status, code, message: code, requestId: 'req-test', url: '', fromBody: true, operation, method: 'PUT', requestUrl: 'https://qingstor.com/b/k' });
}

export function networkError(operation = 'UploadMultipart'): NetworkError {
  return new NetworkError({ operation, method: 'PUT', requestUrl: 'https://qingstor.com/b/k', cause: new TypeError('reset') });
}

interface FakeUpload {
  key: string;
  metadata: ObjectMetadata | undefined;
  parts: Map<number, { data: Uint8Array; etag: string }>;
}

export type FakeOp = 'postObject' | 'initiate' | 'uploadPart' | 'listParts' | 'complete' | 'abort' | 'head' | 'move' | 'delete';

export interface FakeCall {
  op: FakeOp;
  key: string;
  partNumber?: number;
  attempt: number;
}

/**
 * In-memory server. `fail(call)` may return an error to throw for a call; `hold(call)` may return a
 * promise the request waits on before it starts (abortable through the signal), to keep it in flight.
 */
export class FakeServer implements UploadPorts {
  uploads = new Map<string, FakeUpload>();
  objects = new Map<string, { data: Uint8Array; etag: string | undefined; metadata: ObjectMetadata | undefined }>();
  calls: FakeCall[] = [];
  fail: (call: FakeCall) => Error | undefined = () => undefined;
  hold: (call: FakeCall) => Promise<void> | undefined = () => undefined;
  /** Progress steps reported per body. */
  progressSteps = 4;
  /** For a form upload: flip one byte of what "arrives" (the stored ETag is the MD5 of what arrived). */
  corrupt: (call: FakeCall) => boolean = () => false;
  /** For a form upload: answer without an ETag, as a CORS rule that does not expose it reads. */
  hideEtag = false;
  #nextUpload = 1;
  #attempts = new Map<string, number>();
  inFlight = 0;
  maxInFlight = 0;

  async #enter(op: FakeOp, key: string, signal: AbortSignal, partNumber?: number): Promise<FakeCall> {
    // Attempts count per operation, object and part, so a retry is "attempt 2" of the same request.
    const id = `${op}:${key}:${partNumber ?? ''}`;
    const attempt = (this.#attempts.get(id) ?? 0) + 1;
    this.#attempts.set(id, attempt);
    const call: FakeCall = { op, key, attempt, ...(partNumber === undefined ? {} : { partNumber }) };
    this.calls.push(call);
    const held = this.hold(call);
    if (held) {
      await new Promise<void>((resolve, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        held.then(resolve, reject);
      });
    }
    if (signal.aborted) throw signal.reason;
    const error = this.fail(call);
    if (error) throw error;
    return call;
  }

  async #track<T>(run: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await run();
    } finally {
      this.inFlight -= 1;
    }
  }

  postObject: UploadPorts['postObject'] = (input, signal) =>
    this.#track(async () => {
      const call = await this.#enter('postObject', input.key, signal);
      const data = new Uint8Array(await input.file.arrayBuffer());
      if (this.corrupt(call) && data.length > 0) data[data.length >> 1] = (data[data.length >> 1] ?? 0) ^ 0x01;
      const total = data.length + 200;
      for (let i = 1; i <= this.progressSteps; i += 1) input.onProgress?.({ loaded: Math.round((total * i) / this.progressSteps), total });
      const etag = md5Hex(data);
      this.objects.set(input.key, { data, etag, metadata: input.metadata });
      return { etag: this.hideEtag ? '' : `"${etag}"`, requestId: 'req' };
    });

  initiateMultipartUpload: UploadPorts['initiateMultipartUpload'] = async (input, signal) => {
    await this.#enter('initiate', input.key, signal);
    const uploadId = `upload-${this.#nextUpload++}`;
    this.uploads.set(uploadId, { key: input.key, metadata: input.metadata, parts: new Map() });
    return { uploadId };
  };

  #upload(uploadId: string, operation: string): FakeUpload {
    const upload = this.uploads.get(uploadId);
    if (!upload) throw apiError(404, 'upload_not_exists', operation);
    return upload;
  }

  uploadPart: UploadPorts['uploadPart'] = (input, signal) =>
    this.#track(async () => {
      await this.#enter('uploadPart', input.key, signal, input.partNumber);
      const upload = this.#upload(input.uploadId, 'UploadMultipart');
      const data = new Uint8Array(await input.body.arrayBuffer());
      const etag = md5Hex(data);
      if (input.contentMd5 !== undefined && input.contentMd5 !== Buffer.from(etag, 'hex').toString('base64')) throw apiError(400, 'bad_digest');
      for (let i = 1; i <= this.progressSteps; i += 1) input.onProgress?.({ loaded: Math.round((data.length * i) / this.progressSteps), total: data.length });
      upload.parts.set(input.partNumber, { data, etag });
      return { etag: `"${etag}"` };
    });

  listParts: UploadPorts['listParts'] = async (input, signal) => {
    await this.#enter('listParts', input.key, signal);
    const upload = this.#upload(input.uploadId, 'ListMultipart');
    const parts: RemotePart[] = [...upload.parts.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([n]) => input.partNumberMarker === undefined || n > input.partNumberMarker)
      .slice(0, input.limit)
      .map(([partNumber, p]) => ({ partNumber, size: p.data.length, etag: p.etag }));
    return { parts };
  };

  completeMultipartUpload: UploadPorts['completeMultipartUpload'] = async (input, signal) => {
    await this.#enter('complete', input.key, signal);
    const upload = this.#upload(input.uploadId, 'CompleteMultipartUpload');
    const chunks: Uint8Array[] = [];
    let previous = -1;
    for (const part of input.parts) {
      const stored = upload.parts.get(part.partNumber);
      const same = stored !== undefined && stored.etag.replace(/"/g, '').toLowerCase() === part.etag.replace(/"/g, '').toLowerCase();
      if (part.partNumber <= previous || !same) throw apiError(400, 'invalid_argument', 'CompleteMultipartUpload');
      previous = part.partNumber;
      chunks.push(stored.data);
    }
    this.objects.set(upload.key, { data: Buffer.concat(chunks), etag: input.etag, metadata: upload.metadata });
    this.uploads.delete(input.uploadId);
  };

  headObject: UploadPorts['headObject'] = async (input, signal) => {
    await this.#enter('head', input.key, signal);
    const object = this.objects.get(input.key);
    if (!object) return null;
    return { size: object.data.length, ...(object.etag === undefined ? {} : { etag: `"${object.etag.replace(/"/g, '')}"` }) };
  };

  abortMultipartUpload: UploadPorts['abortMultipartUpload'] = async (input, signal) => {
    await this.#enter('abort', input.key, signal);
    this.uploads.delete(input.uploadId);
  };

  moveObject: UploadPorts['moveObject'] = async (input, signal) => {
    await this.#enter('move', input.key, signal);
    const source = this.objects.get(input.sourceKey);
    if (!source) return 'sourceMissing';
    if (`"${(source.etag ?? '').replace(/"/g, '')}"` !== input.ifMatch) return 'preconditionFailed';
    this.objects.delete(input.sourceKey);
    this.objects.set(input.key, source);
    return 'moved';
  };

  deleteObject: UploadPorts['deleteObject'] = async (input, signal) => {
    await this.#enter('delete', input.key, signal);
    this.objects.delete(input.key);
  };

  count(op: FakeOp, partNumber?: number): number {
    return this.calls.filter((c) => c.op === op && (partNumber === undefined || c.partNumber === partNumber)).length;
  }

  /** Puts a part directly (as if uploaded earlier, e.g. from another machine). */
  seedPart(uploadId: string, partNumber: number, data: Uint8Array): void {
    this.#upload(uploadId, 'seed').parts.set(partNumber, { data, etag: md5Hex(data) });
  }

  seedUpload(key: string, metadata?: ObjectMetadata): string {
    const uploadId = `upload-${this.#nextUpload++}`;
    this.uploads.set(uploadId, { key, metadata, parts: new Map() });
    return uploadId;
  }
}
