/**
 * Bucket operations (ref §9.2–§9.6, §8.7, §5.9): PutBucket, DeleteBucket, HeadBucket, ListObjects,
 * GetBucketStatistics, ListMultipartUploads, DeleteMultipleObjects.
 */
import { z } from 'zod';
import { QsError } from '../errors.ts';
import { emptyResponse, isoMillis, jsonResponse, unixSeconds } from '../http/response.ts';
import { quoteEtag } from '../../src/api/protocol/etag.ts';
import { MAX_DELETE_OBJECTS } from '../../src/api/protocol/limits.ts';
import { bucketUrl, intParam, optionalField, parseJsonValue, readJsonBody, requireBucket, userName, type RequestContext } from './context.ts';

/**
 * ref §1.3: 6–63 chars of [a-z0-9-], starting and ending with a letter or digit. (Without dots a name can
 * never look like an IP address, so that rule needs no separate check.)
 */
export function isValidBucketName(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]{4,61}[a-z0-9]$/.test(name);
}

export function putBucket(ctx: RequestContext, name: string): Response {
  if (ctx.principal.kind === 'anonymous') throw new QsError('permission_denied', 'PutBucket needs credentials.');
  // ref §11.18 (inferred): bucket calls on the global host answer bucket_not_exists.
  const zone = ctx.zoneAgnostic ? ctx.options.defaultZone : ctx.address.zone;
  if (zone === undefined) throw new QsError('bucket_not_exists', 'Buckets are created on a zone host, not on the global host.');
  if (!ctx.options.zones.includes(zone)) throw new QsError('invalid_location', `Unknown zone "${zone}".`);
  if (!isValidBucketName(name)) throw new QsError('invalid_bucket_name');
  ctx.store.createBucket({ name, zone, ownerId: ctx.principal.user.id });
  return emptyResponse(201);
}

export function deleteBucket(ctx: RequestContext, name: string): Response {
  requireBucket(ctx, name, 'delete_bucket');
  ctx.store.deleteBucket(name);
  return emptyResponse(204);
}

export function headBucket(ctx: RequestContext, name: string): Response {
  requireBucket(ctx, name, 'head_bucket');
  return emptyResponse(200);
}

/** ref §9.5: READ, never anonymous; keys and common prefixes share `limit`. */
export function listObjects(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'list_objects');
  const q = ctx.address.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const marker = q.get('marker') ?? '';
  const limit = intParam(q, 'limit');
  const result = ctx.store.listObjects(name, {
    prefix,
    delimiter,
    marker,
    ...(limit !== undefined ? { limit } : {}),
  });
  return jsonResponse(200, {
    name: bucket.name,
    owner: { id: bucket.ownerId, name: userName(ctx.options, bucket.ownerId) },
    prefix,
    delimiter,
    limit: result.limit,
    marker,
    next_marker: result.nextMarker,
    has_more: result.hasMore,
    common_prefixes: result.commonPrefixes,
    keys: result.keys.map((o) => ({
      key: o.key,
      size: o.size,
      // ref §8.5: a multipart object completed without an ETag header has none, so the field is left out
      // (the console's objectEntrySchema reads a missing etag as "no ETag").
      ...(o.etag === null ? {} : { etag: quoteEtag(o.etag) }),
      mime_type: o.contentType,
      created: isoMillis(o.created),
      modified: unixSeconds(o.lastModified),
      encrypted: false,
      storage_class: o.storageClass,
    })),
  });
}

/** ref §9.6: owner only; billing_size = size. */
export function getBucketStatistics(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'get_bucket_stats');
  const stats = ctx.store.getBucketStatistics(name);
  const storageClasses: Record<string, { count: number; size: number; billing_size: number }> = {};
  for (const [cls, s] of Object.entries(stats.storageClasses)) {
    storageClasses[cls] = { count: s.count, size: s.size, billing_size: s.billingSize };
  }
  return jsonResponse(200, {
    count: stats.count,
    size: stats.size,
    status: bucket.status,
    name: bucket.name,
    created: isoMillis(bucket.created),
    url: bucketUrl(ctx, bucket).replace(/^[a-z]+:\/\//, ''),
    location: bucket.zone,
    storage_classes: storageClasses,
  });
}

/** ref §8.7: READ (inferred), never anonymous (inferred). Returns both marker spellings of §12. */
export function listMultipartUploads(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'list_multipart_uploads');
  const q = ctx.address.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  // SPEC/GO send `marker`, DOCS `key_marker` (ref §12): accept either.
  const keyMarker = q.get('key_marker') ?? q.get('marker') ?? '';
  const uploadIdMarker = q.get('upload_id_marker') ?? '';
  const limit = intParam(q, 'limit');
  const result = ctx.store.listMultipartUploads(name, {
    prefix,
    delimiter,
    keyMarker,
    uploadIdMarker,
    ...(limit !== undefined ? { limit } : {}),
  });
  return jsonResponse(200, {
    name: bucket.name,
    prefix,
    delimiter,
    limit: result.limit,
    marker: keyMarker,
    key_marker: keyMarker,
    upload_id_marker: uploadIdMarker,
    next_key_marker: result.nextKeyMarker,
    next_upload_id_marker: result.nextUploadIdMarker,
    has_more: result.hasMore,
    uploads: result.uploads.map((u) => ({ key: u.key, upload_id: u.uploadId, created: isoMillis(u.created) })),
    common_prefixes: result.commonPrefixes,
  });
}

const deleteMultipleSchema = z.object({
  quiet: optionalField(z.boolean()),
  objects: z.array(z.object({ key: z.string().min(1) })),
});


function md5Base64(ctx: RequestContext, bytes: Uint8Array): string {
  const hex = ctx.store.md5Hex([bytes]);
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
}

/** ref §5.9: WRITE, never anonymous; Content-MD5 mandatory; at most 1000 keys. */
export async function deleteMultipleObjects(ctx: RequestContext, name: string): Promise<Response> {
  requireBucket(ctx, name, 'delete_multiple_objects');
  const body = await readJsonBody(ctx.request);
  const contentMd5 = ctx.request.headers.get('content-md5');
  if (contentMd5 === null || contentMd5.trim() === '') throw new QsError('invalid_request', 'DeleteMultipleObjects needs a Content-MD5 header.');
  if (md5Base64(ctx, body) !== contentMd5.trim()) throw new QsError('bad_digest');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new QsError('invalid_json');
  }
  const input = parseJsonValue(json, deleteMultipleSchema);
  if (input.objects.length > MAX_DELETE_OBJECTS) throw new QsError('too_many_objects', `At most ${MAX_DELETE_OBJECTS} objects can be deleted in one request.`);
  const result = ctx.store.deleteObjects(
    name,
    input.objects.map((o) => o.key),
  );
  return jsonResponse(200, {
    ...(input.quiet === true ? {} : { deleted: result.deleted.map((key) => ({ key })) }),
    errors: result.errors.map((e) => ({ key: e.key, code: e.code, message: e.message })),
  });
}
