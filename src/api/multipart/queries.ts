import { infiniteQueryOptions, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { bucketKey } from '../buckets/queries.ts';
import { objectKey, objectListsKey } from '../objects/queries.ts';
import { MAX_LIST_PARTS_LIMIT, MAX_LIST_UPLOADS_LIMIT } from '../protocol/limits.ts';
import { unlessRepeated } from '../protocol/paging.ts';
import { qsRootKey } from '../service/queries.ts';
import { mapConcurrently } from '../../lib/concurrency.ts';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadsHaveMore,
  type CompleteMultipartUploadInput,
  type ListMultipartUploadsInput,
  type UploadRef,
} from './operations.ts';
import type { ListMultipartResult, ListMultipartUploadsResult } from './schemas.ts';

/** ['qs', cid, 'bucket', bucket, 'uploads'] — every in-progress-uploads listing of the bucket. */
export function uploadListsKey(client: QsClient, bucket: string) {
  return [...bucketKey(client, bucket), 'uploads'] as const;
}

/** ['qs', cid, 'bucket', bucket, 'upload', key, uploadId] — one upload (its parts live below). */
export function uploadKey(client: QsClient, bucket: string, key: string, uploadId: string) {
  return [...bucketKey(client, bucket), 'upload', key, uploadId] as const;
}

/** One page of an upload's parts as a list view asks for it (`marker` null on page 1). */
export function uploadPartsPageKey(client: QsClient, ref: UploadRef, limit: number, marker: number | null) {
  return [...uploadKey(client, ref.bucket, ref.key, ref.uploadId), 'parts-page', { limit, marker }] as const;
}

/** The scan of all of an upload's parts (totals, gaps, the Complete body). */
export function uploadScanKey(client: QsClient, ref: UploadRef) {
  return [...uploadKey(client, ref.bucket, ref.key, ref.uploadId), 'scan'] as const;
}

/** What ListMultipartUploads says of one upload (listed, initiation time). */
export function uploadInfoKey(client: QsClient, ref: UploadRef) {
  return [...uploadKey(client, ref.bucket, ref.key, ref.uploadId), 'info'] as const;
}

/**
 * The multipart uploads this browser remembers for a bucket: the upload drawer's resume offer, kept in
 * IndexedDB and checked against the server each time it is asked. Outside the ['qs', …] tree, as what it
 * lists is kept by the browser; `scope` is the connection id (connectionId).
 */
export function rememberedUploadsKey(scope: string, bucket: string) {
  return ['uploads-ui', 'remembered', scope, bucket] as const;
}

export interface UploadsPageParam {
  keyMarker: string;
  uploadIdMarker: string;
}

export function nextUploadsPageParam(page: ListMultipartUploadsResult): UploadsPageParam | undefined {
  if (!uploadsHaveMore(page)) return undefined;
  return { keyMarker: page.next_key_marker, uploadIdMarker: page.next_upload_id_marker };
}

export type UploadListParams = Omit<ListMultipartUploadsInput, 'keyMarker' | 'uploadIdMarker'>;

/** ListMultipartUploads paged with key_marker + upload_id_marker (ref §8.7). */
export function listMultipartUploadsInfiniteQuery(client: QsClient, params: UploadListParams) {
  const keyParams = { prefix: params.prefix ?? '', delimiter: params.delimiter ?? '', limit: params.limit ?? null };
  return infiniteQueryOptions({
    queryKey: [...uploadListsKey(client, params.bucket), keyParams] as const,
    queryFn: ({ pageParam, signal }) =>
      listMultipartUploads(client, { ...params, keyMarker: pageParam?.keyMarker, uploadIdMarker: pageParam?.uploadIdMarker }, { signal }),
    initialPageParam: null as UploadsPageParam | null,
    getNextPageParam: (lastPage, _pages, _param, requested) => unlessRepeated(nextUploadsPageParam(lastPage), requested),
  });
}

/** A bucket's first page of in-progress uploads in the view across buckets, or why it could not be read. */
export type BucketUploads =
  | { zone: string; bucket: string; page: ListMultipartUploadsResult }
  | { zone: string; bucket: string; error: Error };

/** Buckets listed at once by the view across buckets. */
const BUCKETS_AT_ONCE = 4;

/** ['qs', cid, 'uploads-all', …] — the in-progress uploads of every bucket (refreshed after any abort there). */
export function allUploadsKey(client: QsClient) {
  return [...qsRootKey(client), 'uploads-all'] as const;
}

/**
 * The first page (up to 1,000) of each bucket's in-progress uploads, a few buckets at a time, for the view
 * across buckets. A bucket that fails (no permission, another owner) is kept with its error: the view names
 * it rather than leaving it out. `prefix` (may be empty) is asked of every bucket. `onProgress` hears how
 * many buckets are done.
 */
export function uploadsOfBucketsQuery(client: QsClient, buckets: ReadonlyArray<{ zone: string; bucket: string }>, prefix: string, onProgress: (done: number) => void) {
  return queryOptions({
    queryKey: [...allUploadsKey(client), buckets.map((b) => `${b.zone}/${b.bucket}`), { prefix }] as const,
    queryFn: async ({ signal }): Promise<BucketUploads[]> => {
      let done = 0;
      onProgress(0);
      return mapConcurrently(buckets, BUCKETS_AT_ONCE, async ({ zone, bucket }): Promise<BucketUploads> => {
        try {
          const page = await listMultipartUploads(client, { zone, bucket, limit: MAX_LIST_UPLOADS_LIMIT, ...(prefix ? { prefix } : {}) }, { signal });
          return { zone, bucket, page };
        } catch (error) {
          if (signal.aborted) throw error;
          return { zone, bucket, error: error instanceof Error ? error : new Error(String(error)) };
        } finally {
          onProgress(++done);
        }
      });
    },
  });
}

/**
 * Next `part_number_marker`: the last part number of a full page (ref §8.4 has no has_more; a page
 * shorter than `limit` is the last). Part numbers start at 0, so the first page has no marker at all.
 */
export function nextPartNumberMarker(page: ListMultipartResult, limit: number): number | undefined {
  const last = page.object_parts.at(-1);
  return page.object_parts.length >= limit && last !== undefined ? last.part_number : undefined;
}

/** Server default page size when no limit is sent is unspecified; the inspector always sends the largest. */
export const DEFAULT_PARTS_PAGE = MAX_LIST_PARTS_LIMIT;

export function listPartsInfiniteQuery(client: QsClient, ref: UploadRef, limit: number = DEFAULT_PARTS_PAGE) {
  return infiniteQueryOptions({
    queryKey: [...uploadKey(client, ref.bucket, ref.key, ref.uploadId), 'parts', { limit }] as const,
    queryFn: ({ pageParam, signal }) => listParts(client, { ...ref, partNumberMarker: pageParam ?? undefined, limit }, { signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (lastPage, _pages, _param, requested) => unlessRepeated(nextPartNumberMarker(lastPage, limit), requested),
  });
}

/**
 * After Complete or Abort the upload no longer exists: its cached queries (parts pages, scan, info) are
 * dropped rather than refetched into upload_not_exists, and the listings that showed it are refreshed.
 */
function leaveUpload(queryClient: QueryClient, client: QsClient, ref: UploadRef) {
  queryClient.removeQueries({ queryKey: uploadKey(client, ref.bucket, ref.key, ref.uploadId) });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: uploadListsKey(client, ref.bucket) }),
    queryClient.invalidateQueries({ queryKey: allUploadsKey(client) }),
  ]);
}

export function completeMultipartUploadMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'completeMultipartUpload'],
    mutationFn: (input: CompleteMultipartUploadInput) => completeMultipartUpload(client, input),
    onSuccess: (_data, input) =>
      Promise.all([
        leaveUpload(queryClient, client, input),
        queryClient.invalidateQueries({ queryKey: objectListsKey(client, input.bucket) }),
        queryClient.invalidateQueries({ queryKey: objectKey(client, input.bucket, input.key) }),
      ]),
  });
}

export function abortMultipartUploadMutation(client: QsClient, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'abortMultipartUpload'],
    mutationFn: (input: UploadRef) => abortMultipartUpload(client, input),
    onSuccess: (_data, input) => leaveUpload(queryClient, client, input),
  });
}
