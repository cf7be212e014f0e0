import type { Bucket } from '../../api/service/schemas.ts';

export type BucketEntry = Bucket;

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
