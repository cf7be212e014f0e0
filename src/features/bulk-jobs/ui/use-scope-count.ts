import { useEffect, useState } from 'react';
import { useClient } from '../../../hooks/use-client.ts';
import { listingSource } from '../engine/sources.ts';
import type { JobScope } from '../engine/types.ts';

export type ScopeCount =
  | { state: 'counting'; all: number; objects: number }
  /** `all`: every key; `objects`: without folder markers (keys ending in "/"), which metadata edits leave out. */
  | { state: 'counted'; all: number; objects: number }
  | { state: 'failed'; error: unknown };

function countKeys(keys: readonly string[]): { all: number; objects: number } {
  return { all: keys.length, objects: keys.filter((key) => !key.endsWith('/')).length };
}

/** How many objects a scope holds: a selection at once, a folder or a bucket by listing it page by page (keys not kept). */
export function useScopeCount(zone: string, bucket: string, scope: JobScope): ScopeCount {
  const client = useClient();
  const prefix = scope.kind === 'prefix' ? scope.prefix : scope.kind === 'bucket' ? '' : null;
  const [count, setCount] = useState<ScopeCount>(() => (scope.kind === 'keys' ? { state: 'counted', ...countKeys(scope.keys) } : { state: 'counting', all: 0, objects: 0 }));
  useEffect(() => {
    if (prefix === null) return;
    const controller = new AbortController();
    const run = async () => {
      const source = listingSource(client, { zone, bucket }, prefix, null, controller.signal);
      const total = { all: 0, objects: 0 };
      for (let page = await source.next(); page; page = await source.next()) {
        const keys = countKeys(page.entries.map((e) => e.key));
        total.all += keys.all;
        total.objects += keys.objects;
        if (!controller.signal.aborted) setCount({ state: 'counting', ...total });
      }
      if (!controller.signal.aborted) setCount({ state: 'counted', ...total });
    };
    run().catch((error: unknown) => {
      if (!controller.signal.aborted) setCount({ state: 'failed', error });
    });
    return () => controller.abort();
  }, [client, zone, bucket, prefix]);
  return count;
}
