/** The store's bucket records and inputs (see types.ts for the conventions of every store type). */
import type { StorageClass } from './metadata-types.ts';

export type AclPermission = 'READ' | 'WRITE' | 'FULL_CONTROL';
export type AclGrantee = { readonly type: 'user'; readonly id: string } | { readonly type: 'group'; readonly name: 'QS_ALL_USERS' };
/** One ACL entry (ref §9.7). The owner's implicit FULL_CONTROL is NOT stored in the list. */
export interface AclGrant {
  readonly grantee: AclGrantee;
  readonly permission: AclPermission;
}

/** One CORS rule, ref §9.9 wire shape (snake_case), stored verbatim after the handlers validated it. */
export interface CorsRule {
  readonly allowed_origin: string;
  readonly allowed_methods: readonly string[];
  readonly allowed_headers?: readonly string[];
  readonly expose_headers?: readonly string[];
  readonly max_age_seconds?: number;
}
export interface CorsConfiguration {
  readonly cors_rules: readonly CorsRule[];
  readonly resp_vary?: string;
}

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
/** Bucket policy document (ref §9.8), stored and returned verbatim. */
export type BucketPolicy = { readonly [key: string]: JsonValue };

export type BucketStatus = 'active' | 'suspended';

/** One lifecycle rule (ref §9.10): a prefix filter and exactly one action. */
export interface LifecycleRule {
  readonly id: string;
  readonly status: 'enabled' | 'disabled';
  readonly filter: { readonly prefix?: string };
  readonly expiration?: { readonly days: number };
  readonly abort_incomplete_multipart_upload?: { readonly days_after_initiation: number };
  readonly transition?: { readonly days?: number; readonly storage_class: 'STANDARD' | 'STANDARD_IA' };
}
export interface LifecycleConfiguration {
  readonly rule: readonly LifecycleRule[];
  /** When the rules were last written (ms since the epoch): they act from 24 hours later (ref §9.10). */
  readonly updated: number;
}

export interface BucketInfo {
  readonly name: string;
  /** zone id, e.g. 'pek3a' */
  readonly zone: string;
  readonly ownerId: string;
  readonly created: Date;
  readonly status: BucketStatus;
  /** explicit grants only; owner has implicit FULL_CONTROL (ref §9.7) */
  readonly acl: readonly AclGrant[];
  /** null = never configured (GET ?cors then answers {"cors_rules": []}, ref §9.9) */
  readonly cors: CorsConfiguration | null;
  /** null = no policy */
  readonly policy: BucketPolicy | null;
  /** null = no lifecycle rules (GET ?lifecycle then answers {"rule": []}, ref §9.10) */
  readonly lifecycle: LifecycleConfiguration | null;
}

export interface CreateBucketInput {
  name: string;
  zone: string;
  ownerId: string;
}

export interface ListBucketsInput {
  ownerId: string;
  zone?: string;
  /** default 0 */
  offset?: number;
  /** default 200 (ref §9.1); no upper clamp */
  limit?: number;
}
export interface ListBucketsResult {
  /** total number of matching buckets (not the page size), ref §9.1 */
  readonly count: number;
  /** ordered by name */
  readonly buckets: readonly BucketInfo[];
}

export interface StorageClassStats {
  readonly count: number;
  readonly size: number;
  /** mock: billing_size = size (ref §9.6) */
  readonly billingSize: number;
}
/** ref §9.6. Counts completed objects only (in-progress multipart parts are not included). */
export interface BucketStatistics {
  readonly count: number;
  readonly size: number;
  readonly storageClasses: Readonly<Record<StorageClass, StorageClassStats>>;
}
