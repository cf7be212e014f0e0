import { z } from 'zod';
import { ownerSchema } from '../buckets/schemas.ts';

/** Bucket ACL (ref §9.7), snake_case as on the wire. */

export const ACL_PERMISSIONS = ['READ', 'WRITE', 'FULL_CONTROL'] as const;
export const aclPermissionSchema = z.enum(ACL_PERMISSIONS);

/** The only group QingStor knows: everyone, i.e. anonymous requests (ref §9.7). */
export const ALL_USERS_GROUP = 'QS_ALL_USERS';

/**
 * Grantee (SPEC definitions.grantee): `user` needs `id` (GET adds `name`), `group` needs `name`.
 * One object rather than a discriminated union so every SPEC field survives parsing.
 */
export const granteeSchema = z
  .object({
    type: z.enum(['user', 'group']),
    id: z.string().optional(),
    name: z.string().optional(),
  })
  .refine((g) => (g.type === 'user' ? Boolean(g.id) : Boolean(g.name)), {
    message: 'A user grantee needs an id, a group grantee a name',
  });

export const aclEntrySchema = z.object({
  grantee: granteeSchema,
  permission: aclPermissionSchema,
});
export type AclEntry = z.infer<typeof aclEntrySchema>;

/** GET /?acl. */
export const bucketAclSchema = z.object({
  owner: ownerSchema.optional(),
  acl: z.array(aclEntrySchema).default([]),
});
export type BucketAcl = z.infer<typeof bucketAclSchema>;

/** PUT /?acl body: replaces the whole list; an empty list clears all grants (ref §9.7). */
export const putBucketAclBodySchema = z.object({
  acl: z.array(aclEntrySchema),
});
export type PutBucketAclBody = z.infer<typeof putBucketAclBodySchema>;
