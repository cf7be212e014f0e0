import type { DBSchema, IDBPDatabase } from 'idb';
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

interface ResumeDb extends DBSchema {
  // Values are checked when read (resumeRecordSchema), not trusted: an older console may have written them.
  [STORE]: { key: string; value: unknown; indexes: { scope: string } };
}

/**
 * IndexedDB-backed store (through the idb library, loaded on first use): one object store keyed by upload
 * id, with a `scope` index. save() and remove() resolve when their transaction has committed, so a record
 * whose save resolved is there after a reload. Records read back are validated; invalid ones are skipped
 * rather than breaking the upload list. The database is the one earlier versions wrote (same name,
 * version, store and index).
 */
export function createIndexedDbResumeStore(name = 'qingstor-console-uploads'): ResumeStore {
  let db: Promise<IDBPDatabase<ResumeDb>> | undefined;
  function open(): Promise<IDBPDatabase<ResumeDb>> {
    if (db) return db;
    const opening = import('idb').then(({ openDB }) =>
      openDB<ResumeDb>(name, DB_VERSION, {
        upgrade(database) {
          database.createObjectStore(STORE, { keyPath: 'uploadId' }).createIndex('scope', 'scope');
        },
      }),
    );
    db = opening;
    // A failed open is tried again on the next call instead of failing every later call.
    opening.catch(() => {
      if (db === opening) db = undefined;
    });
    return opening;
  }
  return {
    save: async (record) => {
      const value = resumeRecordSchema.parse(record);
      const tx = (await open()).transaction(STORE, 'readwrite');
      await Promise.all([tx.store.put(value), tx.done]);
    },
    remove: async (uploadId) => {
      const tx = (await open()).transaction(STORE, 'readwrite');
      await Promise.all([tx.store.delete(uploadId), tx.done]);
    },
    list: async (scope) => {
      const rows = await (await open()).getAllFromIndex(STORE, 'scope', scope);
      return rows
        .map((row) => resumeRecordSchema.safeParse(row))
        .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
        .sort((a, b) => a.createdAt - b.createdAt);
    },
  };
}
