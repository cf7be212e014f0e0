import { queryOptions } from '@tanstack/react-query';
import type { QsClient } from '../../api/client.ts';
import { listBucketsSchema, type Bucket } from '../../api/service/schemas.ts';

/**
 * ListBuckets (ref §9.1) for the bucket view. Adapter in this feature until the api layer ships
 * buckets/queries.ts; it only describes the request, the client signs, sends and maps errors.
 */
export type BucketEntry = Bucket;

const PAGE = 200;

/** All buckets of the account, following `offset` paging until `count` is reached (ref §9.1). */
export async function listAllBuckets(client: QsClient, signal?: AbortSignal): Promise<BucketEntry[]> {
  const all: BucketEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await client.json(listBucketsSchema, {
      operation: 'ListBuckets',
      method: 'GET',
      zone: null,
      query: { offset: offset === 0 ? undefined : offset, limit: PAGE },
      signal,
    });
    all.push(...page.buckets);
    const total = page.count;
    if (page.buckets.length === 0 || all.length >= total || page.buckets.length < PAGE) return all;
  }
}

export function bucketsQuery(client: QsClient, connectionKey: string) {
  return queryOptions({
    queryKey: ['qs', connectionKey, 'buckets'] as const,
    queryFn: ({ signal }) => listAllBuckets(client, signal),
  });
}

/** Buckets grouped per zone, zones in the order given then alphabetical, buckets by name. */
export function groupByZone(buckets: readonly BucketEntry[], knownZones: readonly string[]): Array<[string, BucketEntry[]]> {
  const groups = new Map<string, BucketEntry[]>();
  for (const zone of knownZones) groups.set(zone, []);
  for (const bucket of buckets) {
    const list = groups.get(bucket.location);
    if (list) list.push(bucket);
    else groups.set(bucket.location, [bucket]);
  }
  const known = new Set(knownZones);
  const extra = [...groups.keys()].filter((z) => !known.has(z)).sort();
  return [...knownZones, ...extra].map((zone) => {
    const list = (groups.get(zone) ?? []).slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [zone, list];
  });
}
