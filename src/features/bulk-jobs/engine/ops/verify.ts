/**
 * What an edit job wrote, checked many objects at a time from the listing instead of one HEAD per object.
 *
 * A copy that answered 201 wrote exactly the set it sent on the body it was conditional on (the condition
 * is on the version read). What is left to learn is the write's Last-Modified (undo's guard) and whether
 * anyone wrote the object after the job did. So the objects written are gathered (up to BATCH, or for
 * DELAY_MS), and one ListObjects from just before the smallest key reads their ETag, size, Content-Type
 * and Last-Modified second. An object is the job's write when its ETag and size are the version's, its
 * Content-Type the one sent, and its Last-Modified no later than the second the copy was answered in (on
 * the server's clock, when the page can read it). Anything else, and any object the listing did not
 * reach, is read with one HEAD and judged as the single editor's read-back does: still what was sent (the
 * record gains its Last-Modified) or written since by someone else (the record says so, with theirs).
 *
 * What it cannot see: another writer's metadata-only save in the same second as the job's, keeping the
 * Content-Type (the listing shows neither custom keys nor sub-second times). Undo still compares the
 * whole metadata before restoring, so such an object is reported there, never overwritten. A reload
 * before a batch is checked leaves its records with the copy's ETag and no Last-Modified.
 */
import type { QsClient } from '../../../../api/client.ts';
import { diffMetadata } from '../../../../api/metadata/edit.ts';
import type { ObjectMetadata } from '../../../../api/metadata/types.ts';
import { listObjects, nextObjectsMarker } from '../../../../api/objects/operations.ts';
import { headObjectReadable, type ObjectHead } from '../../../../api/objects/read.ts';
import { unquoteEtag } from '../../../../api/protocol/etag.ts';
import { formatHttpDate } from '../../../../api/protocol/http-date.ts';
import type { ItemRecord } from '../types.ts';
import { isNotFound, storedAfter } from './unit.ts';

/** Objects checked by one listing, and the longest an object waits for its check. */
export const VERIFY_BATCH = 100;
export const VERIFY_DELAY_MS = 1000;
/** Listing pages one check reads before it reads what is left one HEAD at a time. */
const MAX_PAGES = 3;

export interface WrittenObject {
  /** The record settled when the copy answered (state changed, `after` its ETag). */
  record: ItemRecord;
  sent: ObjectMetadata;
  size: number;
  etag: string | undefined;
  /** The server second the copy's answer arrived in at the latest (epoch seconds), when the server's clock is known. */
  latestSecond: number | undefined;
}

export interface VerifyTarget {
  client: QsClient;
  zone: string;
  bucket: string;
  /** The job's folder: the listing stays inside it. */
  prefix: string;
  /** Stores records that replace those settled (same state, what the check learnt). */
  amend(records: ItemRecord[]): Promise<void>;
}

/** The server second `answeredAt` (local ms) falls in at the latest, from the version's Date header, if read. */
export function latestServerSecond(head: ObjectHead, answeredAt: number): number | undefined {
  const clock = head.serverClock;
  if (!clock) return undefined;
  // Date is truncated to its second: the server's clock was up to a second later than it says.
  return Math.floor((clock.serverDate.getTime() + 1000 + (answeredAt - clock.receivedAt)) / 1000);
}

/** Code point order (the order of UTF-8 bytes, QingStor's listing order). */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}

/** A marker the listing starts after that is before `key`: `key` without its last character (a proper prefix). */
export function markerBefore(key: string): string {
  return Array.from(key).slice(0, -1).join('');
}

function contentTypeOf(m: ObjectMetadata): string {
  return m.standard['content-type'] ?? 'application/octet-stream';
}

function bare(etag: string | undefined): string | undefined {
  return etag === undefined ? undefined : unquoteEtag(etag);
}

function holdsSent(w: WrittenObject, head: ObjectHead): boolean {
  const sent = w.sent.standard['content-type'] === undefined ? { ...w.sent, standard: { ...w.sent.standard, 'content-type': 'application/octet-stream' } } : w.sent;
  const held = head.metadata.standard['content-type'] === undefined ? { ...head.metadata, standard: { ...head.metadata.standard, 'content-type': 'application/octet-stream' } } : head.metadata;
  return head.size === w.size && bare(head.etag) === bare(w.etag) && diffMetadata(sent, held).length === 0;
}

/** Checks one batch: one or a few listings, a HEAD for what they leave open. Resolves with the amended records. */
export async function verifyWritten(target: VerifyTarget, batch: readonly WrittenObject[]): Promise<ItemRecord[]> {
  const open = new Map(batch.map((w) => [w.record.key, w] as const));
  const sorted = [...open.keys()].sort(compareCodePoints);
  const first = sorted[0];
  const last = sorted.at(-1) ?? '';
  const amended: ItemRecord[] = [];
  let marker: string | undefined = first === undefined ? undefined : markerBefore(first);
  for (let page = 0; page < MAX_PAGES && marker !== undefined && open.size > 0; page++) {
    let listed;
    try {
      listed = await listObjects(target.client, { zone: target.zone, bucket: target.bucket, prefix: target.prefix, marker, limit: Math.min(1000, 2 * open.size + 16) });
    } catch {
      break;
    }
    for (const entry of listed.keys) {
      const w = open.get(entry.key);
      const modified = entry.modified;
      if (!w || modified === undefined) continue;
      const ours =
        bare(entry.etag) === bare(w.etag) &&
        entry.size === w.size &&
        (entry.mime_type === undefined || entry.mime_type === contentTypeOf(w.sent)) &&
        (w.latestSecond === undefined || modified <= w.latestSecond);
      if (!ours) continue;
      open.delete(entry.key);
      amended.push({ ...w.record, after: { ...w.record.after, lastModified: formatHttpDate(new Date(modified * 1000)) } });
    }
    const lastListed = listed.keys.at(-1)?.key;
    marker = lastListed !== undefined && compareCodePoints(lastListed, last) >= 0 ? undefined : nextObjectsMarker(listed);
  }
  // Whatever the listing left open (written since, or out of its reach) is read one at a time.
  for (const w of open.values()) {
    let head: ObjectHead;
    try {
      head = await headObjectReadable(target.client, { zone: target.zone, bucket: target.bucket, key: w.record.key });
    } catch (error) {
      // Deleted since; any other failure leaves the record as its copy's answer settled it.
      if (isNotFound(error)) amended.push({ ...w.record, code: 'changed_since', after: {} });
      continue;
    }
    amended.push(holdsSent(w, head) ? { ...w.record, after: storedAfter(head) } : { ...w.record, code: 'changed_since', after: storedAfter(head) });
  }
  return amended;
}

/**
 * Gathers the objects an edit pass writes and checks them a batch at a time, in the background: the pool
 * goes on while a check runs. `finish` checks what is left and waits for every check.
 */
export class WriteVerifier {
  readonly #pending: WrittenObject[] = [];
  readonly #running = new Set<Promise<void>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #target: VerifyTarget | undefined;

  add(target: VerifyTarget, written: WrittenObject): void {
    this.#target = target;
    this.#pending.push(written);
    if (this.#pending.length >= VERIFY_BATCH) this.#check();
    else this.#timer ??= setTimeout(() => this.#check(), VERIFY_DELAY_MS);
  }

  /** `drop`: the job is being cancelled: what is not being checked yet is left unchecked (no new request). */
  async finish(drop = false): Promise<void> {
    if (drop) {
      this.#pending.splice(0);
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#check();
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  #check(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const target = this.#target;
    const batch = this.#pending.splice(0);
    if (batch.length === 0 || !target) return;
    // A check that fails leaves its objects' records as their copies' answers settled them.
    const run: Promise<void> = verifyWritten(target, batch)
      .then((records) => target.amend(records))
      .catch(() => undefined)
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }
}
