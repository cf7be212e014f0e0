/**
 * Access decisions per operation (ref §10, §9.7, issue 3).
 *
 * - The bucket owner may do everything; owner-only APIs (DeleteBucket, stats, ACL/CORS/policy) admit nobody else.
 * - FULL_CONTROL = READ + WRITE (not the owner-only APIs).
 * - The group QS_ALL_USERS stands for everyone including anonymous callers.
 * - Anonymous ListObjects, ListMultipartUploads, HeadBucket and deletes are never allowed (ref §10).
 * - A request that carries credentials is judged as that user only; it does not fall back to anonymous
 *   rights. This is what "bad credentials on a public bucket still fail" means (ref §2, §11.9): the signature
 *   layer rejects bad credentials before this module runs, and a valid user without a grant is refused even
 *   when the bucket is public.
 */
import { QsError } from '../errors.ts';

export type AclPermission = 'READ' | 'WRITE' | 'FULL_CONTROL';

export type AclGrantee = { type: 'user'; id: string; name?: string | undefined } | { type: 'group'; name: string };

export interface AclGrant {
  grantee: AclGrantee;
  permission: AclPermission;
}

export const ALL_USERS_GROUP = 'QS_ALL_USERS';

/** The part of a Principal (mocks/auth/signature.ts) that decisions depend on. */
export type AccessPrincipal = { kind: 'anonymous' } | { kind: 'user'; user: { id: string } };

/** Structurally a subset of the store's BucketInfo, so a bucket record can be passed as is. */
export interface BucketAccess {
  ownerId: string;
  acl: readonly AclGrant[];
}

export type BucketOperation =
  | 'head_bucket'
  | 'delete_bucket'
  | 'get_bucket_stats'
  | 'get_bucket_acl'
  | 'put_bucket_acl'
  | 'get_bucket_cors'
  | 'put_bucket_cors'
  | 'delete_bucket_cors'
  | 'get_bucket_policy'
  | 'put_bucket_policy'
  | 'delete_bucket_policy'
  | 'list_objects'
  | 'list_multipart_uploads'
  | 'delete_multiple_objects'
  | 'get_object'
  | 'head_object'
  | 'list_multipart'
  | 'put_object'
  | 'post_object'
  | 'append_object'
  | 'initiate_multipart_upload'
  | 'upload_multipart'
  | 'complete_multipart_upload'
  | 'abort_multipart_upload'
  | 'delete_object'
  /** READ on the source bucket of a copy or move (ref §5.2, §5.3). */
  | 'copy_source'
  /** WRITE on the destination bucket of a copy or move. */
  | 'copy_destination';

interface Requirement {
  need: 'owner' | 'READ' | 'WRITE';
  anonymous: boolean;
}

const REQUIREMENTS: Record<BucketOperation, Requirement> = {
  head_bucket: { need: 'READ', anonymous: false },
  delete_bucket: { need: 'owner', anonymous: false },
  get_bucket_stats: { need: 'owner', anonymous: false },
  get_bucket_acl: { need: 'owner', anonymous: false },
  put_bucket_acl: { need: 'owner', anonymous: false },
  get_bucket_cors: { need: 'owner', anonymous: false },
  put_bucket_cors: { need: 'owner', anonymous: false },
  delete_bucket_cors: { need: 'owner', anonymous: false },
  get_bucket_policy: { need: 'owner', anonymous: false },
  put_bucket_policy: { need: 'owner', anonymous: false },
  delete_bucket_policy: { need: 'owner', anonymous: false },
  list_objects: { need: 'READ', anonymous: false },
  list_multipart_uploads: { need: 'READ', anonymous: false },
  delete_multiple_objects: { need: 'WRITE', anonymous: false },
  get_object: { need: 'READ', anonymous: true },
  head_object: { need: 'READ', anonymous: true },
  list_multipart: { need: 'READ', anonymous: true },
  put_object: { need: 'WRITE', anonymous: true },
  post_object: { need: 'WRITE', anonymous: true },
  append_object: { need: 'WRITE', anonymous: true },
  initiate_multipart_upload: { need: 'WRITE', anonymous: true },
  upload_multipart: { need: 'WRITE', anonymous: true },
  complete_multipart_upload: { need: 'WRITE', anonymous: true },
  abort_multipart_upload: { need: 'WRITE', anonymous: true },
  delete_object: { need: 'WRITE', anonymous: false },
  copy_source: { need: 'READ', anonymous: true },
  copy_destination: { need: 'WRITE', anonymous: true },
};

function grantCovers(permission: AclPermission, need: 'READ' | 'WRITE'): boolean {
  return permission === 'FULL_CONTROL' || permission === need;
}

export function isAllowed(operation: BucketOperation, principal: AccessPrincipal, bucket: BucketAccess): boolean {
  const req = REQUIREMENTS[operation];
  if (principal.kind === 'user' && principal.user.id === bucket.ownerId) return true;
  if (req.need === 'owner') return false;
  const need = req.need;
  if (principal.kind === 'anonymous') {
    if (!req.anonymous) return false;
    return bucket.acl.some((g) => g.grantee.type === 'group' && g.grantee.name === ALL_USERS_GROUP && grantCovers(g.permission, need));
  }
  const userId = principal.user.id;
  return bucket.acl.some((g) => g.grantee.type === 'user' && g.grantee.id === userId && grantCovers(g.permission, need));
}

/** Throws `permission_denied` (403, ref §4) when the principal may not perform the operation. */
export function assertAllowed(operation: BucketOperation, principal: AccessPrincipal, bucket: BucketAccess): void {
  if (!isAllowed(operation, principal, bucket)) {
    throw new QsError('permission_denied', `You do not have permission to perform ${operation} on this bucket.`);
  }
}
