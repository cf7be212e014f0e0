import type { CallOptions, QsClient } from '../client.ts';
import { listBucketsSchema, locationsSchema, type ListBucketsResult, type LocationsResult } from './schemas.ts';

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
