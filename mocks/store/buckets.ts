/** Buckets of the Store (ref §9): create, find, list, delete, ACL, CORS, policy, lifecycle, status, statistics. */
import { QsError } from '../errors.ts';
import { checkBucketName, compareKeys } from './keys.ts';
import type {
  AclGrant,
  BucketInfo,
  BucketPolicy,
  LifecycleRule,
  BucketStatistics,
  BucketStatus,
  CorsConfiguration,
  CreateBucketInput,
  ListBucketsInput,
  ListBucketsResult,
} from './types.ts';
import { wholeSeconds, newBucketState } from './state.ts';
import { StoreCore } from './core.ts';

export abstract class BucketStore extends StoreCore {
  createBucket(input: CreateBucketInput): BucketInfo {
    checkBucketName(input.name);
    if (input.zone === '') throw new QsError('invalid_location');
    if (this.buckets.has(input.name)) throw new QsError('bucket_already_exists');
    let owned = 0;
    for (const b of this.buckets.values()) if (b.info.ownerId === input.ownerId) owned++;
    if (owned >= this.maxBucketsPerOwner) throw new QsError('too_many_buckets');
    const info: BucketInfo = {
      name: input.name,
      zone: input.zone,
      ownerId: input.ownerId,
      created: wholeSeconds(this.clock()),
      status: 'active',
      acl: [],
      cors: null,
      policy: null,
      lifecycle: null,
    };
    this.journal?.putBucket(info);
    this.buckets.set(input.name, newBucketState(info));
    return info;
  }

  /** Throws bucket_not_exists. */
  getBucket(name: string): BucketInfo {
    return this.bucketState(name).info;
  }

  findBucket(name: string): BucketInfo | undefined {
    return this.buckets.get(name)?.info;
  }

  /** Must be empty (bucket_not_empty); in-progress uploads are dropped with it (ref §9.3, inferred). */
  deleteBucket(name: string): void {
    const state = this.bucketState(name);
    if (state.objects.size > 0) throw new QsError('bucket_not_empty');
    this.journal?.deleteBucket(name);
    this.buckets.delete(name);
  }

  /** Buckets of one owner (optionally one zone), by name; count = total matches (ref §9.1). */
  listBuckets(input: ListBucketsInput): ListBucketsResult {
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 200;
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 0) {
      throw new QsError('invalid_argument', 'offset and limit must be non-negative integers.');
    }
    const matching: BucketInfo[] = [];
    for (const b of this.buckets.values()) {
      if (b.info.ownerId !== input.ownerId) continue;
      if (input.zone !== undefined && b.info.zone !== input.zone) continue;
      matching.push(b.info);
    }
    matching.sort((a, b) => compareKeys(a.name, b.name));
    return { count: matching.length, buckets: matching.slice(offset, offset + limit) };
  }

  protected updateBucket(name: string, change: Partial<Pick<BucketInfo, 'acl' | 'cors' | 'policy' | 'lifecycle' | 'status'>>): BucketInfo {
    const state = this.bucketState(name);
    const info = { ...state.info, ...change };
    this.journal?.putBucket(info);
    state.info = info;
    return state.info;
  }

  /** Replaces the whole grant list (ref §9.7); the owner's implicit FULL_CONTROL is never stored. */
  putBucketAcl(name: string, acl: readonly AclGrant[]): BucketInfo {
    return this.updateBucket(name, { acl: acl.map((g) => ({ grantee: { ...g.grantee }, permission: g.permission })) });
  }

  putBucketCors(name: string, cors: CorsConfiguration): BucketInfo {
    return this.updateBucket(name, { cors });
  }

  deleteBucketCors(name: string): BucketInfo {
    return this.updateBucket(name, { cors: null });
  }

  putBucketPolicy(name: string, policy: BucketPolicy): BucketInfo {
    return this.updateBucket(name, { policy });
  }

  deleteBucketPolicy(name: string): BucketInfo {
    return this.updateBucket(name, { policy: null });
  }

  /** Replaces all lifecycle rules (ref §9.10); `updated` is the injected clock's now. */
  putBucketLifecycle(name: string, rule: readonly LifecycleRule[]): BucketInfo {
    return this.updateBucket(name, { lifecycle: { rule, updated: this.now().getTime() } });
  }

  deleteBucketLifecycle(name: string): BucketInfo {
    return this.updateBucket(name, { lifecycle: null });
  }

  /** For tests/admin: e.g. emulate a suspended bucket (ref §9.6 status). */
  setBucketStatus(name: string, status: BucketStatus): BucketInfo {
    return this.updateBucket(name, { status });
  }

  getBucketStatistics(name: string): BucketStatistics {
    const stats = this.statsOf(this.bucketState(name));
    const s = stats.STANDARD;
    const ia = stats.STANDARD_IA;
    return {
      count: s.count + ia.count,
      size: s.size + ia.size,
      storageClasses: {
        STANDARD: { count: s.count, size: s.size, billingSize: s.size },
        STANDARD_IA: { count: ia.count, size: ia.size, billingSize: ia.size },
      },
    };
  }
}
