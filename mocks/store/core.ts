/**
 * The Store's shared core: its state (buckets with their objects and uploads), options, clock, MD5 and
 * journal, and the few helpers every resource uses. The resources build on it in this order:
 * buckets.ts, objects.ts, multipart.ts, loading.ts; store.ts is the public Store.
 */
import { QsError } from '../errors.ts';
import { Md5 } from './md5.ts';
import { MAX_LIST_PARTS_LIMIT, MAX_LIST_UPLOADS_LIMIT, MAX_OBJECT_SIZE, MIN_PART_SIZE } from '../../src/api/protocol/limits.ts';
import type { BodySink, ObjectBody, StorageClass, StoreJournal, StoreOptions } from './types.ts';
import { type ClassCounter, type BucketState, emptyStats } from './state.ts';

export abstract class StoreCore {
  protected readonly buckets = new Map<string, BucketState>();
  protected readonly md5: Md5;
  protected readonly clock: () => Date;
  protected lastUploadStamp = 0;
  protected readonly hashCache = new WeakMap<Uint8Array, { etag: string; body: ObjectBody }>();
  readonly minPartSize: number;
  readonly defaultListLimit: number;
  readonly maxListLimit: number;
  readonly maxPartsListLimit: number;
  readonly defaultUploadsListLimit: number;
  readonly maxUploadsListLimit: number;
  readonly maxBucketsPerOwner: number;
  readonly maxObjectSize: number;
  readonly copyLimit: number;
  protected readonly journal: StoreJournal | undefined;
  protected readonly sinkFactory: (() => BodySink) | undefined;

  protected constructor(options: StoreOptions, md5: Md5) {
    this.md5 = md5;
    this.journal = options.journal;
    this.sinkFactory = options.bodySink;
    this.clock = options.now ?? (() => new Date());
    this.minPartSize = options.minPartSize ?? MIN_PART_SIZE;
    this.defaultListLimit = options.defaultListLimit ?? 100;
    this.maxListLimit = options.maxListLimit ?? 1000;
    this.maxPartsListLimit = options.maxPartsListLimit ?? MAX_LIST_PARTS_LIMIT;
    this.defaultUploadsListLimit = options.defaultUploadsListLimit ?? 200;
    this.maxUploadsListLimit = options.maxUploadsListLimit ?? MAX_LIST_UPLOADS_LIMIT;
    this.maxBucketsPerOwner = options.maxBucketsPerOwner ?? Number.POSITIVE_INFINITY;
    this.maxObjectSize = options.maxObjectSize ?? MAX_OBJECT_SIZE;
    this.copyLimit = options.copyLimit ?? this.maxObjectSize;
  }

  /** Where a handler streams a request body: a body file with --data-dir, else undefined (memory). */
  newBodySink(): BodySink | undefined {
    return this.sinkFactory?.();
  }

  protected atomically(change: () => void): void {
    if (this.journal) this.journal.atomically(change);
    else change();
  }

  /** ref §4 entity_too_large: one PUT/POST body, part or append above maxObjectSize. */
  protected checkSize(size: number): void {
    if (size > this.maxObjectSize) {
      throw new QsError('entity_too_large', `The body has ${size} bytes; at most ${this.maxObjectSize} are allowed in one request.`);
    }
  }


  /** The injected clock (handlers use the same one for Date headers and signature windows). */
  now(): Date {
    return this.clock();
  }

  /** Lowercase hex MD5 of chunks (exposed so handlers need no second MD5 implementation). */
  md5Hex(chunks: readonly Uint8Array[]): string {
    return this.md5.hex(chunks);
  }

  protected bucketState(name: string): BucketState {
    const state = this.buckets.get(name);
    if (state === undefined) throw new QsError('bucket_not_exists');
    return state;
  }

  /** The bucket's statistics, counted over every object first if a lazy load left them pending. */
  protected statsOf(state: BucketState): Record<StorageClass, ClassCounter> {
    if (state.statsPending === true) {
      const stats = emptyStats();
      for (const r of state.objects.values()) {
        const c = stats[r.storageClass];
        c.count++;
        c.size += r.size;
      }
      state.stats = stats;
      state.statsPending = false;
    }
    return state.stats;
  }
}
