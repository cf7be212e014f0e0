import type { CallOptions, QsClient } from '../client.ts';
import { listBucketsSchema, locationsSchema, type ListBucketsResult, type LocationsResult } from './schemas.ts';
import { pages } from '../protocol/paging.ts';

export interface ListBucketsInput {
  /**
   * Host to ask: a zone id ⇒ `<zone>.<endpoint>` (buckets of that zone); `null` (default) ⇒ the
   * global host, all zones (ref §9.1). Ignored by endpoints without zone labels.
   */
  zone?: string | null;
  /** `Location` header: only buckets of this zone (ref §9.1). */
  location?: string;
  offset?: number;
  limit?: number;
}

/** ListBuckets — GET / (ref §9.1). Authenticated only. */
export function listBuckets(client: QsClient, input: ListBucketsInput = {}, options: CallOptions = {}): Promise<ListBucketsResult> {
  return client.json(listBucketsSchema, {
    operation: 'ListBuckets',
    method: 'GET',
    zone: input.zone === undefined ? null : input.zone,
    query: { offset: input.offset, limit: input.limit },
    headers: { location: input.location },
    signal: options.signal,
  });
}

/** GET /?location on the global host (ref §1.1); anonymous allowed. `lang`: en-us (default) or zh-cn. */
export function getLocations(client: QsClient, input: { lang?: 'en-us' | 'zh-cn' } = {}, options: CallOptions = {}): Promise<LocationsResult> {
  return client.json(locationsSchema, {
    operation: 'GetLocations',
    method: 'GET',
    zone: null,
    query: { location: null, lang: input.lang },
    signal: options.signal,
  });
}

const BUCKET_PAGE = 200;

/** Every bucket of the account: ListBuckets followed page by page (`offset`) until `count` is reached. */
export async function listAllBuckets(client: QsClient, options: CallOptions = {}): Promise<ListBucketsResult['buckets']> {
  const all: ListBucketsResult['buckets'] = [];
  const listing = pages({
    fetchPage: (offset: number | undefined) => listBuckets(client, { offset, limit: BUCKET_PAGE }, options),
    nextMarker: (page, offset) => {
      const next = (offset ?? 0) + page.buckets.length;
      return page.buckets.length === 0 || next >= page.count || page.buckets.length < BUCKET_PAGE ? undefined : next;
    },
    signal: options.signal,
  });
  for await (const page of listing) all.push(...page.buckets);
  return all;
}
