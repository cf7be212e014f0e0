/**
 * Applies a bucket's lifecycle rules (ref §9.10) on the store's injected clock, so tests move time forward
 * instead of waiting: `abort_incomplete_multipart_upload` aborts uploads older than its days, `expiration`
 * deletes objects last modified longer ago than its days. A rule acts only from 24 hours after the rules
 * were last written. `transition` is stored and returned but changes nothing here (the emulator keeps one
 * storage class's behaviour for all objects).
 *
 * The work runs when a request addresses the bucket (handlers call `applyLifecycle`), at most once per
 * minute of the store's clock per bucket: no timers, and a clock a test advances by days takes effect on
 * the next request.
 */
import type { Store } from './store.ts';
import type { LifecycleRule } from './types.ts';

const DAY_MS = 86_400_000;
/** New or changed rules act after this long (ref §9.10). */
export const LIFECYCLE_DELAY_MS = DAY_MS;
const SWEEP_EVERY_MS = 60_000;

const lastSweep = new WeakMap<Store, Map<string, number>>();

export interface LifecycleSweep {
  abortedUploads: number;
  expiredObjects: number;
}

/** Runs the bucket's due rules; returns what it removed. A missing bucket or no rules does nothing. */
export function applyLifecycle(store: Store, bucket: string, options: { force?: boolean } = {}): LifecycleSweep {
  const done: LifecycleSweep = { abortedUploads: 0, expiredObjects: 0 };
  const info = store.findBucket(bucket);
  const lifecycle = info?.lifecycle;
  if (!lifecycle) return done;
  const now = store.now().getTime();
  if (now < lifecycle.updated + LIFECYCLE_DELAY_MS) return done;
  let sweeps = lastSweep.get(store);
  if (!sweeps) lastSweep.set(store, (sweeps = new Map()));
  const previous = sweeps.get(bucket);
  if (!options.force && previous !== undefined && now >= previous && now - previous < SWEEP_EVERY_MS) return done;
  sweeps.set(bucket, now);
  for (const rule of lifecycle.rule) {
    if (rule.status !== 'enabled') continue;
    const abort = rule.abort_incomplete_multipart_upload;
    if (abort) done.abortedUploads += abortOldUploads(store, bucket, prefixOf(rule), now - abort.days_after_initiation * DAY_MS);
    const expiration = rule.expiration;
    if (expiration) done.expiredObjects += expireObjects(store, bucket, prefixOf(rule), now - expiration.days * DAY_MS);
  }
  return done;
}

function prefixOf(rule: LifecycleRule): string {
  return rule.filter.prefix ?? '';
}

function abortOldUploads(store: Store, bucket: string, prefix: string, startedBefore: number): number {
  const due: { key: string; uploadId: string }[] = [];
  let keyMarker = '';
  let uploadIdMarker = '';
  for (;;) {
    const page = store.listMultipartUploads(bucket, { prefix, keyMarker, uploadIdMarker, limit: 1000 });
    for (const upload of page.uploads) if (upload.created.getTime() <= startedBefore) due.push({ key: upload.key, uploadId: upload.uploadId });
    if (!page.hasMore) break;
    keyMarker = page.nextKeyMarker;
    uploadIdMarker = page.nextUploadIdMarker;
  }
  for (const upload of due) store.abortMultipartUpload(bucket, upload.key, upload.uploadId);
  return due.length;
}

function expireObjects(store: Store, bucket: string, prefix: string, modifiedBefore: number): number {
  const due: string[] = [];
  let marker = '';
  for (;;) {
    const page = store.listObjects(bucket, { prefix, marker, limit: 1000 });
    for (const object of page.keys) if (object.lastModified.getTime() <= modifiedBefore) due.push(object.key);
    if (!page.hasMore) break;
    marker = page.nextMarker;
  }
  for (const key of due) store.deleteObject(bucket, key);
  return due.length;
}
