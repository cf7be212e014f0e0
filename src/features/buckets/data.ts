import { queryOptions } from '@tanstack/react-query';
import type { QsClient } from '../../api/client.ts';
import { listBuckets } from '../../api/service/operations.ts';
import { bucketsKey } from '../../api/service/queries.ts';
import type { Bucket } from '../../api/service/schemas.ts';

export type BucketEntry = Bucket;

const PAGE = 200;

/** All buckets of the account, following `offset` paging until `count` is reached (ref §9.1). */
export async function listAllBuckets(client: QsClient, signal?: AbortSignal): Promise<BucketEntry[]> {
  const all: BucketEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await listBuckets(client, { offset: offset === 0 ? undefined : offset, limit: PAGE }, { signal });
    all.push(...page.buckets);
    if (page.buckets.length === 0 || all.length >= page.count || page.buckets.length < PAGE) return all;
  }
}

/** Every page of ListBuckets, under the api layer's key hierarchy (['qs', cid, 'buckets', ...]). */
export function allBucketsQuery(client: QsClient) {
  return queryOptions({
    queryKey: [...bucketsKey(client), 'all'] as const,
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
  const extra = [...groups.keys()].filter((zone) => !known.has(zone)).sort();
  return [...new Set(knownZones), ...extra].map((zone) => {
    const list = (groups.get(zone) ?? []).slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [zone, list];
  });
}
