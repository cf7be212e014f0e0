/**
 * The object area's query keys and the listing's query: what the object browser's first rows need, apart from
 * the reading and writing calls and their mutations (queries.ts re-exports all of it).
 */
import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { unlessRepeated } from '../protocol/paging.ts';
import { listObjects, nextObjectsMarker, type ListObjectsInput } from './operations.ts';

/** ['qs', cid, 'bucket', bucket, 'objects'] — every listing of the bucket (invalidate after writes). */
export function objectListsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'objects'] as const;
}

/** ['qs', cid, 'bucket', bucket, 'object', key] — one object's details. */
/** ['qs', cid, 'bucket', bucket, 'object'] — every object's details in a bucket. */
export function objectsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'object'] as const;
}

export function objectKey(client: QsClient, bucket: string, key: string) {
  return [...objectsKey(client, bucket), key] as const;
}

export type ObjectListParams = Omit<ListObjectsInput, 'marker'>;

/**
 * Whether a listing of the bucket has already succeeded on this connection: proof that the browser may read
 * the bucket (its CORS lets this page in), so further GETs such as the ACL will not be blocked.
 */
export function hasListedBucket(queryClient: QueryClient, client: QsClient, bucket: string): boolean {
  return queryClient.getQueriesData({ queryKey: objectListsKey(client, bucket) }).some(([, data]) => data !== undefined);
}

/** Marker-paged listing for infinite scroll: each page starts after the previous `next_marker`. */
export function listObjectsInfiniteQuery(client: QsClient, params: ObjectListParams) {
  const keyParams = { prefix: params.prefix ?? '', delimiter: params.delimiter ?? '', limit: params.limit ?? null };
  return infiniteQueryOptions({
    queryKey: [...objectListsKey(client, params.bucket), keyParams] as const,
    queryFn: ({ pageParam, signal }) => listObjects(client, { ...params, marker: pageParam }, { signal }),
    initialPageParam: '',
    getNextPageParam: (lastPage, _pages, _param, requested) => unlessRepeated(nextObjectsMarker(lastPage), requested),
  });
}
