import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, ObjectRef, QsClient } from '../client.ts';
import { ApiError } from '../errors.ts';
import { qsRootKey } from '../service/queries.ts';
import { headObject } from './read.ts';
import { copyObject, moveObject } from './write.ts';
import { invalidateObjectWrites } from './queries.ts';

// Copying or moving many objects at once: its own module, so the object browser's first screen (which needs
// objects/queries.ts for its listing) does not carry it.

export interface TransferObjectsInput extends BucketRef {
  mode: 'copy' | 'move';
  /** Source keys in `bucket`; each goes to `destPrefix` + its last path segment. */
  keys: readonly string[];
  destBucket: string;
  destPrefix: string;
  /** Leave a key whose destination already exists untouched (a HEAD before each write). */
  skipExisting: boolean;
  /** Stops before the next key (a write already sent completes). */
  signal?: AbortSignal;
  /** After each key: keys handled so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface TransferObjectsOutcome {
  written: Array<{ key: string; destKey: string; requestId: string }>;
  skipped: Array<{ key: string; destKey: string }>;
  errors: Array<{ key: string; code: string; message: string }>;
  cancelled: boolean;
}

/** Where a key of a copy or move of many lands: the destination folder plus the key's last path segment. */
export function transferDestKey(key: string, destPrefix: string): string {
  return destPrefix + key.slice(key.lastIndexOf('/') + 1);
}

/**
 * Copies or moves many objects into one folder (PUT with x-qs-copy-source / x-qs-move-source, ref §5.2), one
 * after another, each keeping its metadata; the service overwrites silently, so with `skipExisting` each
 * destination is asked for first (HEAD) and one that exists is left alone. A key that fails is reported
 * with its code and the rest go on; the listings of both buckets are refreshed whatever happened.
 */
export function transferObjectsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'transferObjects'],
    mutationFn: async (input: TransferObjectsInput): Promise<TransferObjectsOutcome> => {
      const outcome: TransferObjectsOutcome = { written: [], skipped: [], errors: [], cancelled: false };
      for (const [index, key] of input.keys.entries()) {
        if (input.signal?.aborted) {
          outcome.cancelled = true;
          break;
        }
        const destKey = transferDestKey(key, input.destPrefix);
        const target = { zone: input.zone, bucket: input.destBucket, key: destKey };
        try {
          if (input.skipExisting && (await exists(client, target))) outcome.skipped.push({ key, destKey });
          else {
            const source = { bucket: input.bucket, key };
            const result = input.mode === 'copy' ? await copyObject(client, { ...target, source, directive: 'COPY' }) : await moveObject(client, { ...target, source });
            outcome.written.push({ key, destKey, requestId: result.requestId });
          }
        } catch (error) {
          outcome.errors.push({ key, code: error instanceof ApiError ? error.code : 'network', message: error instanceof Error ? error.message : String(error) });
        }
        input.onProgress?.(index + 1, input.keys.length);
      }
      return outcome;
    },
    onSettled: (_data, _error, input) =>
      Promise.all([invalidateObjectWrites(queryClient, client, input.destBucket), invalidateObjectWrites(queryClient, client, input.bucket)]),
  });
}

async function exists(client: QsClient, ref: ObjectRef): Promise<boolean> {
  try {
    await headObject(client, ref);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}
