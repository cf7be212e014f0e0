import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { QsClient } from '../../api/client.ts';
import { listMultipartUploads, listParts, type UploadRef } from '../../api/multipart/operations.ts';
import { nextUploadsPageParam, uploadInfoKey, uploadPartsPageKey, uploadScanKey, type UploadsPageParam } from '../../api/multipart/queries.ts';
import { pages } from '../../api/protocol/paging.ts';
import { scanAllParts, type ScanProgress } from './part-scan.ts';

/** One page of parts as the user pages them: `marker` = part_number_marker (ref §8.4), absent on page 1. */
export function partsPageQuery(client: QsClient, ref: UploadRef, limit: number, marker: number | null) {
  return queryOptions({
    queryKey: uploadPartsPageKey(client, ref, limit, marker),
    queryFn: ({ signal }) => listParts(client, { ...ref, limit, ...(marker === null ? {} : { partNumberMarker: marker }) }, { signal }),
  });
}

/** A page fetched by the scan is reused by the page view (and the reverse) for this long. */
const SHARED_PAGE_MS = 30_000;

/** A value holder the scan writes to and the view's counting line reads (useSyncExternalStore). */
export interface ScanProgressStore {
  get: () => ScanProgress | null;
  set: (progress: ScanProgress) => void;
  subscribe: (listener: () => void) => () => void;
}

function createProgressStore(): ScanProgressStore {
  let value: ScanProgress | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (progress) => {
      value = progress;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The progress of one upload's scan, one per query client and scan key: the scan may start at boot
 * (app/first-listing.ts), before the view that shows its progress exists, and the view finds it here.
 */
const progressStores = new WeakMap<QueryClient, Map<string, ScanProgressStore>>();

export function scanProgressStore(client: QsClient, queryClient: QueryClient, ref: UploadRef): ScanProgressStore {
  let stores = progressStores.get(queryClient);
  if (!stores) {
    stores = new Map();
    progressStores.set(queryClient, stores);
  }
  const id = JSON.stringify(uploadScanKey(client, ref));
  let store = stores.get(id);
  if (!store) {
    store = createProgressStore();
    stores.set(id, store);
  }
  return store;
}

/**
 * All parts of the upload (totals, gaps, the Complete body); progress goes to its scanProgressStore. Its
 * pages go through the page queries: page 1 at the scan's limit is one request whether the table or the
 * scan asks first, and paging at that limit afterwards is served from what the scan fetched.
 */
export function partScanQuery(client: QsClient, queryClient: QueryClient, ref: UploadRef) {
  const progress = scanProgressStore(client, queryClient, ref);
  return queryOptions({
    queryKey: uploadScanKey(client, ref),
    queryFn: ({ signal }) =>
      scanAllParts(client, ref, {
        signal,
        onProgress: progress.set,
        fetchPage: (marker, limit) => queryClient.fetchQuery({ ...partsPageQuery(client, ref, limit, marker ?? null), staleTime: SHARED_PAGE_MS }),
      }),
    staleTime: Infinity,
  });
}

export interface UploadInfo {
  /** Whether ListMultipartUploads still lists the upload. */
  listed: boolean;
  created?: string | undefined;
}

/**
 * The upload's initiation time: ListMultipart (parts) does not return it, ListMultipartUploads does
 * (ref §8.7). Pages through the uploads of exactly this key (prefix = key) until the id is found.
 */
export function uploadInfoQuery(client: QsClient, ref: UploadRef) {
  return queryOptions({
    queryKey: uploadInfoKey(client, ref),
    queryFn: async ({ signal }): Promise<UploadInfo> => {
      const listing = pages({
        fetchPage: (marker: UploadsPageParam | undefined) =>
          listMultipartUploads(client, { zone: ref.zone, bucket: ref.bucket, prefix: ref.key, limit: 1000, ...marker }, { signal }),
        nextMarker: nextUploadsPageParam,
        signal,
      });
      for await (const page of listing) {
        const entry = page.uploads.find((u) => u.key === ref.key && u.upload_id === ref.uploadId);
        if (entry) return { listed: true, created: entry.created };
        // Sorted by key: once past our key there is nothing more to find.
        if (page.uploads.some((u) => u.key > ref.key)) break;
      }
      return { listed: false };
    },
  });
}
