import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, ObjectRef, QsClient } from '../client.ts';
import { bucketStatisticsKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { headObjectReadable, type ObjectHead } from './read.ts';
import { copyObject, createFolder, deleteMultipleObjects, deleteObject, moveObject, putObject, type CopyObjectInput, type MoveObjectInput, type PutObjectInput } from './write.ts';
import { objectKey, objectListsKey, objectsKey } from './list-queries.ts';
import { scanPrefix, type PrefixScan } from './prefix.ts';
import { MAX_DELETE_OBJECTS, type DeleteError, type DeleteMultipleObjectsResult } from './schemas.ts';

export * from './list-queries.ts';

export function headObjectQuery(client: QsClient, ref: ObjectRef) {
  return queryOptions({
    queryKey: [...objectKey(client, ref.bucket, ref.key), 'head'] as const,
    queryFn: ({ signal }) => headObjectReadable(client, ref, { signal }),
    // Structural sharing rebuilds objects by assignment, which would drop a `__proto__` metadata key.
    structuralSharing: false,
  });
}

// ---------------------------------------------------------------------------------------------------
// Mutations: each invalidates exactly the listings and details it can have changed.

/**
 * What a write to objects of `bucket` can have changed: its listings, the written object's details (or
 * every object's, without a key) and the bucket's statistics (size and count).
 */
export function invalidateObjectWrites(queryClient: QueryClient, client: QsClient, bucket: string, key?: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: objectListsKey(client, bucket) }),
    queryClient.invalidateQueries({ queryKey: key === undefined ? objectsKey(client, bucket) : objectKey(client, bucket, key) }),
    queryClient.invalidateQueries({ queryKey: bucketStatisticsKey(client, bucket) }),
  ]);
}

/**
 * After a metadata save (or a conflict it found): `head` is the object as the save just read it back, so the
 * details show it without reading it once more; the listings (type, date) are read again. Other queries of
 * the object (a preview, keyed by ETag) are marked stale; the bucket's size and count did not change.
 */
export function objectMetadataSaved(queryClient: QueryClient, client: QsClient, ref: ObjectRef, head: ObjectHead) {
  const headKey = headObjectQuery(client, ref).queryKey;
  queryClient.setQueryData(headKey, head);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: objectListsKey(client, ref.bucket) }),
    queryClient.invalidateQueries({ queryKey: objectKey(client, ref.bucket, ref.key), predicate: (query) => query.queryKey[headKey.length - 1] !== 'head' }),
  ]);
}

function invalidateObject(queryClient: QueryClient, client: QsClient, bucket: string, key: string) {
  return invalidateObjectWrites(queryClient, client, bucket, key);
}

export function putObjectMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'putObject'],
    mutationFn: (input: PutObjectInput) => putObject(client, input),
    onSuccess: (_data, input) => invalidateObject(queryClient, client, input.bucket, input.key),
  });
}

export function createFolderMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'createFolder'],
    mutationFn: (input: BucketRef & { prefix: string }) => createFolder(client, input),
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: objectListsKey(client, input.bucket) }),
  });
}

export function copyObjectMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'copyObject'],
    mutationFn: (input: CopyObjectInput) => copyObject(client, input),
    onSuccess: (_data, input) => invalidateObject(queryClient, client, input.bucket, input.key),
  });
}

export function moveObjectMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'moveObject'],
    mutationFn: (input: MoveObjectInput) => moveObject(client, input),
    onSuccess: (_data, input) =>
      Promise.all([
        invalidateObject(queryClient, client, input.bucket, input.key),
        invalidateObject(queryClient, client, input.source.bucket, input.source.key),
      ]),
  });
}

export function deleteObjectMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteObject'],
    mutationFn: (input: ObjectRef) => deleteObject(client, input),
    onSuccess: (_data, input) => invalidateObject(queryClient, client, input.bucket, input.key),
  });
}

/** What a batched delete did: keys deleted, per-key errors, and whether the user stopped it between batches. */
export interface DeleteObjectsOutcome {
  deleted: string[];
  errors: DeleteError[];
  cancelled: boolean;
}

export interface DeleteObjectsInput extends BucketRef {
  keys: readonly string[];
  /** Stops before the next batch (a batch already sent completes). */
  signal?: AbortSignal;
  /** After each batch: keys handled so far (deleted or failed) and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Deletes any number of keys with DeleteMultipleObjects (ref §5.9), at most MAX_DELETE_OBJECTS per
 * request, one request after another; resolves with every deleted key and every per-key error. The
 * listings are refreshed whatever happened: a failure or a cancel can follow batches that deleted keys.
 */
export function deleteObjectsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteObjects'],
    mutationFn: async (input: DeleteObjectsInput): Promise<DeleteObjectsOutcome> => {
      const outcome: DeleteObjectsOutcome = { deleted: [], errors: [], cancelled: false };
      for (let i = 0; i < input.keys.length; i += MAX_DELETE_OBJECTS) {
        if (input.signal?.aborted) {
          outcome.cancelled = true;
          break;
        }
        const result: DeleteMultipleObjectsResult = await deleteMultipleObjects(client, { zone: input.zone, bucket: input.bucket, keys: input.keys.slice(i, i + MAX_DELETE_OBJECTS) });
        outcome.deleted.push(...result.deleted.map((d) => d.key));
        outcome.errors.push(...result.errors);
        input.onProgress?.(Math.min(i + MAX_DELETE_OBJECTS, input.keys.length), input.keys.length);
      }
      return outcome;
    },
    onSettled: (_data, _error, input) => invalidateObjectWrites(queryClient, client, input.bucket),
  });
}

/**
 * Every key under a folder's prefix, counted before a recursive delete. Not cached (each delete counts
 * afresh) and never retried; `onPage` reports the running count.
 */
export function prefixScanQuery(client: QsClient, input: BucketRef & { prefix: string }, onPage?: (scanned: PrefixScan) => void) {
  return queryOptions({
    queryKey: [...objectListsKey(client, input.bucket), 'scan', input.prefix] as const,
    queryFn: ({ signal }) => scanPrefix(client, input, { signal, onPage }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/**
 * The version the metadata editor edits: read fresh every time the editor opens, never shared with the
 * details panel's cached head (a stale base would turn every save into a conflict).
 */
export function objectEditBaseQuery(client: QsClient, ref: ObjectRef) {
  return queryOptions({
    // Outside the bucket's subtree on purpose: invalidating after the editor's own save must not swap the
    // base under the open editor (it shows the saved result and offers undo against that base).
    queryKey: [...qsRootKey(client), 'edit-base', ref.bucket, ref.key] as const,
    queryFn: ({ signal }) => headObjectReadable(client, ref, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnMount: 'always',
    // Structural sharing rebuilds objects by assignment, which would drop a `__proto__` metadata key.
    structuralSharing: false,
  });
}
