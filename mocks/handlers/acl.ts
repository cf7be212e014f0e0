/** Bucket ACL get/put (ref §9.7): owner only; PUT replaces the list; the owner keeps full control. */
import { z } from 'zod';
import { ALL_USERS_GROUP } from '../auth/acl.ts';
import type { AclGrant } from '../store/index.ts';
import { emptyResponse, jsonResponse } from '../http/response.ts';
import { optionalField, readJson, requireBucket, userName, type RequestContext } from './context.ts';

const permissionSchema = z.enum(['READ', 'WRITE', 'FULL_CONTROL']);

const grantSchema = z.object({
  grantee: z.discriminatedUnion('type', [
    z.object({ type: z.literal('user'), id: z.string().min(1), name: optionalField(z.string()) }),
    z.object({ type: z.literal('group'), name: z.literal(ALL_USERS_GROUP) }),
  ]),
  permission: permissionSchema,
});

export const putAclSchema = z.object({ acl: z.array(grantSchema) });

export function getBucketAcl(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'get_bucket_acl');
  const ownerName = userName(ctx.options, bucket.ownerId);
  return jsonResponse(200, {
    owner: { id: bucket.ownerId, name: ownerName },
    acl: [
      { grantee: { type: 'user', id: bucket.ownerId, name: ownerName }, permission: 'FULL_CONTROL' },
      ...bucket.acl.map((g) =>
        g.grantee.type === 'user'
          ? { grantee: { type: 'user', id: g.grantee.id, name: userName(ctx.options, g.grantee.id) }, permission: g.permission }
          : { grantee: { type: 'group', name: g.grantee.name }, permission: g.permission },
      ),
    ],
  });
}

export async function putBucketAcl(ctx: RequestContext, name: string): Promise<Response> {
  const bucket = requireBucket(ctx, name, 'put_bucket_acl');
  const input = await readJson(ctx.request, putAclSchema);
  // The owner's FULL_CONTROL is implicit (ref §9.7, inferred), so an owner entry sent back by a client that
  // edited the GET result is dropped instead of being stored twice.
  const grants: AclGrant[] = input.acl
    .filter((g) => !(g.grantee.type === 'user' && g.grantee.id === bucket.ownerId))
    .map((g) => ({
      grantee: g.grantee.type === 'user' ? { type: 'user', id: g.grantee.id } : { type: 'group', name: ALL_USERS_GROUP },
      permission: g.permission,
    }));
  ctx.store.putBucketAcl(name, grants);
  return emptyResponse(200);
}
