/**
 * Access decisions per operation (ref §10, §9.7).
 *
 * - The bucket owner may do everything; owner-only APIs (DeleteBucket, stats, ACL/CORS/policy) admit nobody else.
 * - FULL_CONTROL = READ + WRITE (not the owner-only APIs).
 * - The group QS_ALL_USERS stands for everyone including anonymous callers.
 * - Anonymous ListObjects, ListMultipartUploads and HeadBucket are refused unless a bucket policy allows them
 *   (ref §9.5, §10); anonymous deletes are never allowed, whatever the policy says (ref §5.6, §11.9).
 * - A bucket policy (ref §9.8) is evaluated before the ACL: the first statement that matches the user, the
 *   action, the resource and all conditions decides (allow or deny); only when none matches is the ACL used.
 * - A request that carries credentials is judged as that user only; it does not fall back to anonymous
 *   rights. This is what "bad credentials on a public bucket still fail" means (ref §2, §11.9): the signature
 *   layer rejects bad credentials before this module runs, and a valid user without a grant is refused even
 *   when the bucket is public.
 */
import { z } from 'zod';
import { globMatch } from '../../src/api/protocol/glob.ts';
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
  name?: string;
  ownerId: string;
  acl: readonly AclGrant[];
  /** The stored policy document (ref §9.8), or null/undefined for none. */
  policy?: unknown;
}

/** What a policy statement can look at besides the principal and the operation. */
export interface AccessRequest {
  /** Object key for object operations (the policy resource is `<bucket>/<key>`). */
  key?: string | undefined;
  /** The request's Referer header (policy conditions, ref §9.8). */
  referer?: string | null | undefined;
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
  | 'get_bucket_lifecycle'
  | 'put_bucket_lifecycle'
  | 'delete_bucket_lifecycle'
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
  get_bucket_lifecycle: { need: 'owner', anonymous: false },
  put_bucket_lifecycle: { need: 'owner', anonymous: false },
  delete_bucket_lifecycle: { need: 'owner', anonymous: false },
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

/**
 * Policy action names per operation (ref §9.8 DOCS spelling first, then the SPEC spelling). Operations without
 * an entry (ListMultipartUploads and the owner-only configuration APIs) are not governed by policies.
 */
const POLICY_ACTIONS: Partial<Record<BucketOperation, readonly string[]>> = {
  list_objects: ['list_objects'],
  head_bucket: ['head_bucket'],
  get_bucket_stats: ['get_bucket_stats'],
  get_object: ['get_object'],
  copy_source: ['get_object'],
  head_object: ['head_object'],
  list_multipart: ['list_object_parts', 'list_multipart'],
  put_object: ['create_object'],
  post_object: ['create_object'],
  append_object: ['create_object'],
  copy_destination: ['create_object'],
  delete_object: ['delete_object'],
  delete_multiple_objects: ['delete_object'],
  upload_multipart: ['upload_object_part', 'upload_multipart'],
  initiate_multipart_upload: ['initiate_multipart_upload', 'initiate_multipart'],
  complete_multipart_upload: ['complete_multipart_upload', 'complete_multipart'],
  abort_multipart_upload: ['abort_multipart_upload', 'abort_multipart'],
};

const OBJECT_OPERATIONS: ReadonlySet<BucketOperation> = new Set([
  'get_object', 'copy_source', 'head_object', 'list_multipart', 'put_object', 'post_object', 'append_object',
  'copy_destination', 'delete_object', 'delete_multiple_objects', 'upload_multipart', 'initiate_multipart_upload',
  'complete_multipart_upload', 'abort_multipart_upload',
]);

const stringOrList = z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === 'string' ? [v] : v));
const statementSchema = z.object({
  user: stringOrList,
  action: stringOrList,
  effect: z.string().transform((e) => e.toLowerCase()),
  resource: stringOrList.optional(),
  condition: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
const policySchema = z.object({ statement: z.array(z.unknown()) });

function patternsOf(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return null;
}

/**
 * Conditions are ANDed (ref §9.8). `ip_address`/`not_ip_address` compare the client address, which an msw
 * handler never learns; a statement that depends on it therefore does not apply. Unknown operators, too.
 */
function conditionsHold(condition: Record<string, Record<string, unknown>> | undefined, referer: string | null): boolean {
  if (!condition) return true;
  for (const [operator, tests] of Object.entries(condition)) {
    for (const [field, expected] of Object.entries(tests)) {
      if (field.toLowerCase() !== 'referer') return false;
      if (operator === 'is_null') {
        if (typeof expected !== 'boolean' || (referer === null) !== expected) return false;
      } else if (operator === 'string_like' || operator === 'string_not_like') {
        const patterns = patternsOf(expected);
        if (patterns === null) return false;
        const like = referer !== null && patterns.some((p) => globMatch(p, referer));
        if (like !== (operator === 'string_like')) return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

/** 'allow' / 'deny' from the first matching statement, undefined when no statement applies (ref §9.8). */
export function evaluatePolicy(
  operation: BucketOperation,
  principal: AccessPrincipal,
  bucket: BucketAccess,
  request: AccessRequest = {},
): 'allow' | 'deny' | undefined {
  const actions = POLICY_ACTIONS[operation];
  const parsed = policySchema.safeParse(bucket.policy);
  if (!actions || !parsed.success || bucket.name === undefined) return undefined;
  const resource = OBJECT_OPERATIONS.has(operation) ? `${bucket.name}/${request.key ?? ''}` : bucket.name;
  for (const raw of parsed.data.statement) {
    const st = statementSchema.safeParse(raw);
    if (!st.success) continue;
    const s = st.data;
    const userMatches = s.user.some((u) => u === '*' || (principal.kind === 'user' && u === principal.user.id));
    if (!userMatches) continue;
    if (!s.action.some((a) => a === '*' || actions.includes(a))) continue;
    if (s.resource && !s.resource.some((r) => globMatch(r, resource))) continue;
    if (!conditionsHold(s.condition, request.referer ?? null)) continue;
    if (s.effect === 'allow') return 'allow';
    if (s.effect === 'deny') return 'deny';
  }
  return undefined;
}

function grantCovers(permission: AclPermission, need: 'READ' | 'WRITE'): boolean {
  return permission === 'FULL_CONTROL' || permission === need;
}

export function isAllowed(operation: BucketOperation, principal: AccessPrincipal, bucket: BucketAccess, request: AccessRequest = {}): boolean {
  const req = REQUIREMENTS[operation];
  if (principal.kind === 'user' && principal.user.id === bucket.ownerId) return true;
  if (req.need === 'owner') return false;
  if (principal.kind === 'anonymous' && (operation === 'delete_object' || operation === 'delete_multiple_objects')) return false;
  const decision = evaluatePolicy(operation, principal, bucket, request);
  if (decision !== undefined) return decision === 'allow';
  const need = req.need;
  if (principal.kind === 'anonymous') {
    if (!req.anonymous) return false;
    return bucket.acl.some((g) => g.grantee.type === 'group' && g.grantee.name === ALL_USERS_GROUP && grantCovers(g.permission, need));
  }
  const userId = principal.user.id;
  return bucket.acl.some((g) => g.grantee.type === 'user' && g.grantee.id === userId && grantCovers(g.permission, need));
}

/** Throws `permission_denied` (403, ref §4) when the principal may not perform the operation. */
export function assertAllowed(operation: BucketOperation, principal: AccessPrincipal, bucket: BucketAccess, request: AccessRequest = {}): void {
  if (!isAllowed(operation, principal, bucket, request)) {
    throw new QsError('permission_denied', `You do not have permission to perform ${operation} on this bucket.`);
  }
}
