import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ObjectRef, QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { headObject, listObjects, type ListObjectsInput } from './operations.ts';
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
    queryFn: ({ signal }) => headObject(client, ref, { signal }),
  });
}
