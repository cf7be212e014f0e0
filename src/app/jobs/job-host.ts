import { JobHost } from '../../features/bulk-jobs/engine/host.ts';
import type { PoolSettings } from '../../features/bulk-jobs/engine/pool.ts';
import { metadataWritePort } from './metadata-port.ts';

/**
 * The app's one job host, made on first use by the views that start or show jobs (this module loads with
 * them, never with the first screen). A job belongs to the tab, not to a view: it keeps running while the
 * user browses, and the jobs page, the dialogs and the header's indicator all read the same host.
 */
let host: JobHost | undefined;

/**
 * The adaptive pool's bounds can be pinned for a measurement (bench/bulk-edit.ts compares them) through
 * localStorage `qsc.jobs.pool` = `{"initial":n,"min":n,"max":n}`; anything else is ignored.
 */
function poolOverride(): PoolSettings | undefined {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem('qsc.jobs.pool');
    if (raw === null) return undefined;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { initial, min, max } = value as Record<string, unknown>;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 64;
    return ok(initial) && ok(min) && ok(max) && min <= initial && initial <= max ? { initial, min, max } : undefined;
  } catch {
    return undefined;
  }
}

export function jobHost(): JobHost {
  const pool = poolOverride();
  host ??= new JobHost({ metadata: metadataWritePort, ...(pool ? { pool } : {}) });
  return host;
}
