/**
 * Multipart upload (ref §8): Initiate, UploadMultipart (incl. upload part by copy, §8.3), ListMultipart,
 * CompleteMultipartUpload, AbortMultipartUpload. ListMultipartUploads (bucket level) is in bucket.ts.
 */
import { z } from 'zod';
import { QsError } from '../errors.ts';
import { contentRange, parseRange } from '../http/range.ts';
import { emptyResponse, isoMillis, jsonResponse } from '../http/response.ts';
import { quoteEtag } from '../../src/api/protocol/etag.ts';
import { readBodyRange } from '../store/index.ts';
import {
  assertValidKey,
  intParam,
  optionalField,
  readPayload,
  readJson,
  requireBucket,
  storageClassOf,
  validatedMetadata,
  type RequestContext,
} from './context.ts';
import { parseSourceHeader } from './object.ts';
import { assertCopyPartSize } from './copy-limit.ts';
import { evaluateConditions, sourceConditions } from '../http/conditional.ts';
import { MAX_PART_NUMBER, MAX_PARTS } from '../../src/api/protocol/limits.ts';


/** ref §8.1: 200 with {upload_id, bucket, key}; metadata validated like PutObject and kept for Complete. */
export function initiateMultipartUpload(ctx: RequestContext, bucket: string, key: string): Response {
  requireBucket(ctx, bucket, 'initiate_multipart_upload');
  assertValidKey(key);
  const storageClass = storageClassOf(ctx.request.headers.get('x-qs-storage-class'));
  const metadata = validatedMetadata(ctx.request.headers.entries());
  const upload = ctx.store.initiateMultipartUpload(bucket, key, { metadata, ...(storageClass ? { storageClass } : {}) });
  return jsonResponse(200, { upload_id: upload.uploadId, bucket, key });
}

function uploadIdOf(ctx: RequestContext): string {
  const id = ctx.address.query.get('upload_id');
  if (id === null || id === '') throw new QsError('upload_not_exists');
  return id;
}

/** ref §8.2: 201 + quoted part ETag; part_number outside 0..10000 ⇒ invalid_argument (inferred). */
export async function uploadMultipart(ctx: RequestContext, bucket: string, key: string): Promise<Response> {
  const destination = requireBucket(ctx, bucket, 'upload_multipart');
  assertValidKey(key);
  const uploadId = uploadIdOf(ctx);
  const partNumber = intParam(ctx.address.query, 'part_number', MAX_PART_NUMBER);
  if (partNumber === undefined) throw new QsError('invalid_argument', 'UploadMultipart needs a part_number parameter.');
  const copySource = ctx.request.headers.get('x-qs-copy-source');
  if (copySource !== null) return uploadPartCopy(ctx, destination.zone, bucket, key, uploadId, partNumber, copySource);
  const contentMd5 = ctx.request.headers.get('content-md5')?.trim();
  // Look the upload up before reading the body so an unknown id fails fast (ref §8.2: 404).
  ctx.store.getUpload(bucket, key, uploadId);
  const payload = await readPayload(ctx);
  const part = ctx.store.uploadPart(bucket, key, uploadId, partNumber, { ...payload, ...(contentMd5 ? { contentMd5 } : {}) });
  return emptyResponse(201, { etag: quoteEtag(part.etag) });
}

/** ref §8.3: the part's bytes are a range of another object (views of its chunks, not copies). */
function uploadPartCopy(
  ctx: RequestContext,
  zone: string,
  bucket: string,
  key: string,
  uploadId: string,
  partNumber: number,
  sourceValue: string,
): Response {
  const source = parseSourceHeader(sourceValue);
  const sourceBucket = requireBucket(ctx, source.bucket, 'copy_source', source.key);
  assertValidKey(source.key);
  if (sourceBucket.zone !== zone) throw new QsError('bucket_not_exists', 'Copy works within one zone only.');
  ctx.store.getUpload(bucket, key, uploadId);
  const object = ctx.store.getObject(source.bucket, source.key);
  const outcome = evaluateConditions(sourceConditions(ctx.request.headers, 'x-qs-copy-source'), {
    etag: object.etag ?? undefined,
    lastModified: object.lastModified,
  });
  if (outcome !== 'ok') throw new QsError('precondition_failed');
  const range = parseRange(ctx.request.headers.get('x-qs-copy-range'), object.size) ?? { start: 0, end: object.size - 1 };
  assertCopyPartSize(ctx.store, range.end - range.start + 1);
  const chunks = readBodyRange(object.body, range.start, range.end + 1);
  const part = ctx.store.uploadPart(bucket, key, uploadId, partNumber, { body: chunks });
  const headers: Record<string, string> = { etag: quoteEtag(part.etag) };
  if (object.size > 0) headers['x-qs-content-copy-range'] = contentRange(range, object.size);
  return emptyResponse(201, headers);
}

/**
 * ref §8.4: READ (anonymous if public-read); parts after `part_number_marker`, at most `limit` (≤ 1000),
 * ordered by number; part ETags unquoted as in DOCS; `count` = parts of the whole upload.
 * Unknown upload id ⇒ 404 upload_not_exists (ref §12).
 */
export function listMultipart(ctx: RequestContext, bucket: string, key: string): Response {
  requireBucket(ctx, bucket, 'list_multipart');
  assertValidKey(key);
  const uploadId = uploadIdOf(ctx);
  const marker = intParam(ctx.address.query, 'part_number_marker');
  const limit = intParam(ctx.address.query, 'limit');
  const result = ctx.store.listParts(bucket, key, uploadId, {
    ...(marker !== undefined ? { partNumberMarker: marker } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  return jsonResponse(200, {
    count: result.count,
    object_parts: result.parts.map((p) => ({ part_number: p.partNumber, size: p.size, created: isoMillis(p.created), etag: p.etag })),
  });
}

export const completeSchema = z.object({
  object_parts: z
    .array(z.object({ part_number: z.number().int().min(0).max(MAX_PART_NUMBER), etag: optionalField(z.string()) }))
    .min(1),
});

/** ref §8.5: 201; the optional `ETag` request header becomes the object's ETag, otherwise it has none. */
export async function completeMultipartUpload(ctx: RequestContext, bucket: string, key: string): Promise<Response> {
  requireBucket(ctx, bucket, 'complete_multipart_upload');
  assertValidKey(key);
  const uploadId = uploadIdOf(ctx);
  ctx.store.getUpload(bucket, key, uploadId);
  const input = await readJson(ctx.request, completeSchema);
  const parts = input.object_parts;
  // ref §8, §12: at most 10000 parts per upload.
  if (parts.length > MAX_PARTS) throw new QsError('max_parts_exceeded', `An upload has at most ${MAX_PARTS} parts; object_parts lists ${parts.length}.`);
  for (let i = 1; i < parts.length; i++) {
    const prev = parts[i - 1];
    const cur = parts[i];
    if (prev && cur && cur.part_number <= prev.part_number) {
      throw new QsError('invalid_argument', 'object_parts must be in ascending part_number order without repeats.');
    }
  }
  const etagHeader = ctx.request.headers.get('etag');
  const object = ctx.store.completeMultipartUpload(bucket, key, uploadId, {
    parts: parts.map((p) => ({ partNumber: p.part_number, ...(p.etag !== undefined ? { etag: p.etag } : {}) })),
    etag: etagHeader === null || etagHeader.trim() === '' ? null : etagHeader.trim(),
  });
  return emptyResponse(201, object.etag === null ? {} : { etag: quoteEtag(object.etag) });
}

/** ref §8.6: 204 whether or not the upload exists; 404 only for a missing bucket. */
export function abortMultipartUpload(ctx: RequestContext, bucket: string, key: string): Response {
  requireBucket(ctx, bucket, 'abort_multipart_upload');
  assertValidKey(key);
  const uploadId = ctx.address.query.get('upload_id') ?? '';
  try {
    ctx.store.abortMultipartUpload(bucket, key, uploadId);
  } catch (error) {
    if (!(error instanceof QsError && error.code === 'upload_not_exists')) throw error;
  }
  return emptyResponse(204);
}
