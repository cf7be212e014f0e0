import { infiniteQueryOptions, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BucketRef, ObjectRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import {
  copyObject,
  createFolder,
  deleteMultipleObjects,
  deleteObject,
  headObjectReadable,
  listObjects,
  moveObject,
  putObject,
  type CopyObjectInput,
  type DeleteMultipleObjectsInput,
  type ListObjectsInput,
  type MoveObjectInput,
  type PutObjectInput,
} from './operations.ts';
import type { ListObjectsResult } from './schemas.ts';

/** ['qs', cid, 'bucket', bucket, 'objects'] — every listing of the bucket (invalidate after writes). */
export function objectListsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'objects'] as const;
}

/** ['qs', cid, 'bucket', bucket, 'object', key] — one object's details. */
export function objectKey(client: QsClient, bucket: string, key: string) {
  return [...bucketKey(client, bucket), 'object', key] as const;
}

export type ObjectListParams = Omit<ListObjectsInput, 'marker'>;

/** Next ListObjects marker, or undefined when the listing is complete (ref §9.5). */
export function nextObjectsMarker(page: ListObjectsResult): string | undefined {
  return page.has_more && page.next_marker !== '' ? page.next_marker : undefined;
}

/** Marker-paged listing for infinite scroll: each page starts after the previous `next_marker`. */
export function listObjectsInfiniteQuery(client: QsClient, params: ObjectListParams) {
  const keyParams = { prefix: params.prefix ?? '', delimiter: params.delimiter ?? '', limit: params.limit ?? null };
  return infiniteQueryOptions({
    queryKey: [...objectListsKey(client, params.bucket), keyParams] as const,
    queryFn: ({ pageParam, signal }) => listObjects(client, { ...params, marker: pageParam }, { signal }),
    initialPageParam: '',
    getNextPageParam: (lastPage) => nextObjectsMarker(lastPage),
  });
}

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

function invalidateObject(queryClient: QueryClient, client: QsClient, bucket: string, key: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: objectListsKey(client, bucket) }),
    queryClient.invalidateQueries({ queryKey: objectKey(client, bucket, key) }),
    queryClient.invalidateQueries({ queryKey: [...bucketKey(client, bucket), 'stats'] }),
  ]);
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

export function deleteMultipleObjectsMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'deleteMultipleObjects'],
    mutationFn: (input: DeleteMultipleObjectsInput) => deleteMultipleObjects(client, input),
    onSuccess: (_data, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: objectListsKey(client, input.bucket) }),
        queryClient.invalidateQueries({ queryKey: [...bucketKey(client, input.bucket), 'object'] }),
        queryClient.invalidateQueries({ queryKey: [...bucketKey(client, input.bucket), 'stats'] }),
      ]),
  });
}
