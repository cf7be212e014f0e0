/**
 * Object operations (ref §5): PutObject, GetObject, HeadObject, DeleteObject, Copy, Move, AppendObject.
 */
import { customMetadataHeader } from '../../src/api/protocol/headers.ts';
import { QsError } from '../errors.ts';
import { evaluateConditions, requestConditions, sourceConditions, type Conditions } from '../http/conditional.ts';
import { contentRange, parseRange } from '../http/range.ts';
import { emptyResponse, headerSafe } from '../http/response.ts';
import { quoteEtag } from '../../src/api/protocol/etag.ts';
import { formatHttpDate } from '../../src/api/protocol/http-date.ts';
import { bodyToStream, type BucketInfo, type StoredObject } from '../store/index.ts';
import { assertCopySourceSize } from './copy-limit.ts';
import {
  assertValidKey,
  intParam,
  readPayload,
  requireBucket,
  storageClassOf,
  validatedMetadata,
  type RequestContext,
} from './context.ts';

/** Headers GET and HEAD share (ref §5.4, §5.5, §11.7). */
export function objectHeaders(object: StoredObject): Headers {
  const h = new Headers();
  for (const [name, value] of Object.entries(object.metadata.standard)) {
    if (value !== undefined) h.set(name, value);
  }
  h.set('content-type', object.contentType);
  for (const [key, value] of Object.entries(object.metadata.custom)) h.set(customMetadataHeader(key), value);
  if (object.etag !== null) h.set('etag', quoteEtag(object.etag));
  h.set('last-modified', formatHttpDate(object.lastModified));
  h.set('x-qs-storage-class', object.storageClass);
  h.set('accept-ranges', 'bytes');
  if (object.appendable) {
    h.set('x-qs-object-type', 'appendable');
    h.set('x-qs-next-append-position', String(object.size));
  }
  return h;
}

/** ref §5.4: `response-*` query parameters override response headers. */
const RESPONSE_OVERRIDES = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
] as const;

function applyConditions(conditions: Conditions, object: StoredObject, headers: Headers): Response | undefined {
  const outcome = evaluateConditions(conditions, { etag: object.etag ?? undefined, lastModified: object.lastModified });
  if (outcome === 'precondition_failed') throw new QsError('precondition_failed');
  if (outcome === 'not_modified') {
    // ref §5.4 (inferred): 304 keeps ETag/Last-Modified, has no body.
    const h = new Headers();
    for (const name of ['etag', 'last-modified', 'cache-control', 'expires']) {
      const v = headers.get(name);
      if (v !== null) h.set(name, v);
    }
    return new Response(null, { status: 304, headers: h });
  }
  return undefined;
}

function readObject(ctx: RequestContext, bucket: string, key: string, head: boolean): Response {
  requireBucket(ctx, bucket, head ? 'head_object' : 'get_object');
  const q = ctx.address.query;
  const overrides = RESPONSE_OVERRIDES.filter(([param]) => q.has(param));
  // ref §5.4 (inferred): response-* needs an authenticated request.
  if (overrides.length > 0 && ctx.principal.kind === 'anonymous') {
    throw new QsError('permission_denied', 'response-* parameters need an authenticated request.');
  }
  assertValidKey(key);
  const object = ctx.store.getObject(bucket, key);
  const headers = objectHeaders(object);
  const conditional = applyConditions(requestConditions(ctx.request.headers), object, headers);
  if (conditional) return conditional;
  for (const [param, header] of overrides) headers.set(header, headerSafe(q.get(param) ?? '', param));
  const range = parseRange(ctx.request.headers.get('range'), object.size);
  if (range) {
    headers.set('content-range', contentRange(range, object.size));
    headers.set('content-length', String(range.end - range.start + 1));
    return new Response(head ? null : bodyToStream(object.body, range.start, range.end + 1), { status: 206, headers });
  }
  headers.set('content-length', String(object.size));
  return new Response(head ? null : bodyToStream(object.body), { status: 200, headers });
}

export function getObject(ctx: RequestContext, bucket: string, key: string): Response {
  return readObject(ctx, bucket, key, false);
}

export function headObject(ctx: RequestContext, bucket: string, key: string): Response {
  return readObject(ctx, bucket, key, true);
}

function contentMd5Of(ctx: RequestContext): { contentMd5?: string } {
  const v = ctx.request.headers.get('content-md5');
  return v === null || v.trim() === '' ? {} : { contentMd5: v.trim() };
}

/** ref §5.1: WRITE; 201 + ETag; Content-MD5 mismatch ⇒ bad_digest (checked by the store before writing). */
export async function putObject(ctx: RequestContext, bucket: string, key: string): Promise<Response> {
  requireBucket(ctx, bucket, 'put_object');
  assertValidKey(key);
  const storageClass = storageClassOf(ctx.request.headers.get('x-qs-storage-class'));
  const metadata = validatedMetadata(ctx.request.headers.entries());
  const payload = await readPayload(ctx);
  const object = ctx.store.putObject(bucket, key, {
    ...payload,
    metadata,
    ...(storageClass ? { storageClass } : {}),
    ...contentMd5Of(ctx),
  });
  return emptyResponse(201, object.etag === null ? {} : { etag: quoteEtag(object.etag) });
}

/** ref §5.6: WRITE, never anonymous, 204 whether or not the object existed. */
export function deleteObject(ctx: RequestContext, bucket: string, key: string): Response {
  requireBucket(ctx, bucket, 'delete_object');
  assertValidKey(key);
  ctx.store.deleteObject(bucket, key);
  return emptyResponse(204);
}

/**
 * `x-qs-copy-source` / `x-qs-move-source`: `/<bucket>/<key>`, URL-encoded (ref §5.2). A malformed value is
 * `invalid_argument`.
 */
export function parseSourceHeader(value: string): { bucket: string; key: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value.trim());
  } catch {
    throw new QsError('invalid_argument', 'The copy/move source is not valid percent-encoded UTF-8.');
  }
  const match = /^\/([^/]+)\/(.+)$/s.exec(decoded);
  if (!match || !match[1] || !match[2]) throw new QsError('invalid_argument', 'The copy/move source must look like /<bucket>/<key>.');
  return { bucket: match[1], key: match[2] };
}

function preconditionFor(conditions: Conditions): (source: StoredObject) => void {
  return (source) => {
    // ref §5.2: every failed copy/move-source condition is 412.
    const outcome = evaluateConditions(conditions, { etag: source.etag ?? undefined, lastModified: source.lastModified });
    if (outcome !== 'ok') throw new QsError('precondition_failed');
  };
}

/** Both buckets must be in one zone (ref §5.2); across zones the source bucket is not visible. */
function sourceBucket(ctx: RequestContext, name: string, key: string, destinationZone: string): BucketInfo {
  const source = requireBucket(ctx, name, 'copy_source', key);
  if (source.zone !== destinationZone) throw new QsError('bucket_not_exists', 'Copy and move work within one zone only.');
  return source;
}

function metadataDirective(ctx: RequestContext): 'COPY' | 'REPLACE' {
  const raw = ctx.request.headers.get('x-qs-metadata-directive');
  if (raw === null || raw.trim() === '') return 'COPY';
  const v = raw.trim().toUpperCase();
  if (v === 'COPY' || v === 'REPLACE') return v;
  throw new QsError('invalid_argument', 'x-qs-metadata-directive must be COPY or REPLACE.');
}

/** The source conditions (412) first, then the copy limit (copy-limit.ts), on the store's snapshot of the source. */
function copyPrecondition(ctx: RequestContext, conditions: (source: StoredObject) => void): (source: StoredObject) => void {
  return (source) => {
    conditions(source);
    assertCopySourceSize(ctx.store, source.size);
  };
}

/** ref §5.2: READ on source, WRITE on destination; 201 + ETag. */
export function copyObject(ctx: RequestContext, bucket: string, key: string, sourceValue: string): Response {
  const destination = requireBucket(ctx, bucket, 'copy_destination');
  const source = parseSourceHeader(sourceValue);
  sourceBucket(ctx, source.bucket, source.key, destination.zone);
  assertValidKey(key);
  assertValidKey(source.key);
  const directive = metadataDirective(ctx);
  const storageClass = storageClassOf(ctx.request.headers.get('x-qs-storage-class'));
  const metadata = directive === 'REPLACE' ? validatedMetadata(ctx.request.headers.entries()) : undefined;
  if (source.bucket === bucket && source.key === key && directive === 'COPY') {
    const existing = ctx.store.findObject(bucket, key);
    // ref §5.2 (inferred): a self-copy must change something, metadata (REPLACE) or the storage class.
    if (existing && (storageClass === undefined || storageClass === existing.storageClass)) {
      throw new QsError('invalid_request', 'Copying an object onto itself needs x-qs-metadata-directive: REPLACE or a new storage class.');
    }
  }
  const object = ctx.store.copyObject({
    sourceBucket: source.bucket,
    sourceKey: source.key,
    bucket,
    key,
    directive,
    ...(metadata ? { metadata } : {}),
    ...(storageClass ? { storageClass } : {}),
    precondition: copyPrecondition(ctx, preconditionFor(sourceConditions(ctx.request.headers, 'x-qs-copy-source'))),
  });
  return emptyResponse(201, object.etag === null ? {} : { etag: quoteEtag(object.etag) });
}

/** ref §5.3: the rename primitive; metadata kept; source gone; 201 + ETag. */
export function moveObject(ctx: RequestContext, bucket: string, key: string, sourceValue: string): Response {
  const destination = requireBucket(ctx, bucket, 'copy_destination');
  const source = parseSourceHeader(sourceValue);
  // A move deletes its source, so a suspended source bucket refuses it like any write (ref §4 bucket_not_active).
  if (sourceBucket(ctx, source.bucket, source.key, destination.zone).status !== 'active') throw new QsError('bucket_not_active');
  assertValidKey(key);
  assertValidKey(source.key);
  const object = ctx.store.moveObject({
    sourceBucket: source.bucket,
    sourceKey: source.key,
    bucket,
    key,
    precondition: preconditionFor(sourceConditions(ctx.request.headers, 'x-qs-move-source')),
  });
  return emptyResponse(201, object.etag === null ? {} : { etag: quoteEtag(object.etag) });
}

/** ref §5.8: `position` must equal the current size; 200 with x-qs-next-append-position. */
export async function appendObject(ctx: RequestContext, bucket: string, key: string): Promise<Response> {
  requireBucket(ctx, bucket, 'append_object');
  assertValidKey(key);
  const position = intParam(ctx.address.query, 'position');
  if (position === undefined) throw new QsError('invalid_argument', 'AppendObject needs a position parameter.');
  const storageClass = storageClassOf(ctx.request.headers.get('x-qs-storage-class'));
  const metadata = validatedMetadata(ctx.request.headers.entries());
  const payload = await readPayload(ctx);
  const result = ctx.store.appendObject(bucket, key, {
    position,
    ...payload,
    metadata,
    ...(storageClass ? { storageClass } : {}),
    ...contentMd5Of(ctx),
  });
  return emptyResponse(200, { 'x-qs-next-append-position': String(result.nextPosition) });
}
