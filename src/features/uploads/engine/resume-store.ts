import { z } from 'zod';
import { fileFingerprintSchema, type FileFingerprint } from './fingerprint.ts';

/**
 * What the console remembers about an unfinished multipart upload so it can continue after a reload
 * (resumable uploads). Uploaded parts are NOT remembered: the server's ListMultipart is the truth, and it is
 * what another machine sees too. Records live in IndexedDB in the browser, in memory in unit tests.
 */
export const resumeRecordSchema = z.object({
  uploadId: z.string().min(1),
  /** Which connection (endpoint + access key id, chosen by the caller) the upload belongs to. */
  scope: z.string(),
  bucket: z.string().min(1),
  zone: z.string().optional(),
  key: z.string().min(1),
  fingerprint: fileFingerprintSchema,
  partSize: z.int().positive(),
  metadata: z
    .object({
      standard: z.record(z.string(), z.string()),
      custom: z.record(z.string(), z.string()),
    })
    .optional(),
  /** Unix ms when the upload was initiated. */
  createdAt: z.number(),
});
export type ResumeRecord = z.infer<typeof resumeRecordSchema>;

export interface ResumeStore {
  save(record: ResumeRecord): Promise<void>;
  remove(uploadId: string): Promise<void>;
  /** Records of one scope, oldest first. */
  list(scope: string): Promise<ResumeRecord[]>;
}

export function createMemoryResumeStore(initial: readonly ResumeRecord[] = []): ResumeStore & { readonly records: ReadonlyMap<string, ResumeRecord> } {
  const records = new Map<string, ResumeRecord>(initial.map((r) => [r.uploadId, structuredClone(r)]));
  return {
    records,
    save: async (record) => {
      records.set(record.uploadId, structuredClone(record));
    },
    remove: async (uploadId) => {
      records.delete(uploadId);
    },
    list: async (scope) => [...records.values()].filter((r) => r.scope === scope).sort((a, b) => a.createdAt - b.createdAt).map((r) => structuredClone(r)),
  };
}

/** Records whose file looks like `fingerprint` (see compareFingerprints) and, when given, go to the same place. */
export function recordsFor(records: readonly ResumeRecord[], match: (fp: FileFingerprint) => boolean, destination?: { bucket: string; zone?: string; key: string }): ResumeRecord[] {
  return records.filter(
    (r) => match(r.fingerprint) && (!destination || (r.bucket === destination.bucket && r.key === destination.key && (r.zone ?? '') === (destination.zone ?? ''))),
  );
}

const DB_VERSION = 1;
const STORE = 'multipart-uploads';

function promisify<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.addEventListener('success', () => resolve(request.result));
    request.addEventListener('error', () => reject(request.error ?? new Error('IndexedDB request failed')));
  });
}

/**
 * IndexedDB-backed store: one object store keyed by upload id, with a `scope` index. Records read back
 * are validated (stored data is a boundary: an older console version may have written it); invalid ones
 * are skipped rather than breaking the upload list.
 */
export function createIndexedDbResumeStore(factory: IDBFactory = indexedDB, name = 'qingstor-console-uploads'): ResumeStore {
  let db: Promise<IDBDatabase> | undefined;
  function open(): Promise<IDBDatabase> {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(name, DB_VERSION);
      request.addEventListener('upgradeneeded', () => {
        const store = request.result.createObjectStore(STORE, { keyPath: 'uploadId' });
        store.createIndex('scope', 'scope');
      });
      request.addEventListener('success', () => resolve(request.result));
      request.addEventListener('error', () => reject(request.error ?? new Error('Cannot open IndexedDB')));
    });
    return db;
  }
  async function transact<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const database = await open();
    return promisify(run(database.transaction(STORE, mode).objectStore(STORE)));
  }
  return {
    save: async (record) => {
      await transact('readwrite', (store) => store.put(resumeRecordSchema.parse(record)));
    },
    remove: async (uploadId) => {
      await transact('readwrite', (store) => store.delete(uploadId));
    },
    list: async (scope) => {
      const rows: unknown[] = await transact('readonly', (store) => store.index('scope').getAll(scope));
      return rows
        .map((row) => resumeRecordSchema.safeParse(row))
        .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
        .sort((a, b) => a.createdAt - b.createdAt);
    },
  };
}
