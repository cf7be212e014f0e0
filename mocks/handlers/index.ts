/**
 * The emulator's HTTP layer: ONE catch-all msw handler whose predicate accepts the configured QingStor hosts
 * (ref §1.1), then a dispatch on level (service/bucket/object) + method + sub-resource to the area modules.
 *
 * Per request: resolve the address (raw path kept for signing, key percent-decoded, ref §1.3) → OPTIONS is a
 * CORS preflight without auth (ref §5.7) → authenticate (ref §2; PostObject authenticates its form instead,
 * ref §7) → area module (bucket existence → permission → validation → object existence, ref §4) → common
 * headers (Server, Date, x-qs-request-id, ref §11.1) and CORS headers (ref §9.9). Every failure is a QingStor
 * error; anything unexpected becomes `internal_error`, never an unhandled exception.
 */
import { http, type HttpHandler } from 'msw';
import { SUB_RESOURCES } from '../../src/api/signing.ts';
import { isAllowed } from '../auth/acl.ts';
import { authenticateRequest } from '../auth/signature.ts';
import { QsError } from '../errors.ts';
import { isEmulatorHost, resolveAddress, type Address, type HostOptions } from '../http/address.ts';
import { emptyResponse, errorResponse, finishResponse, newRequestId } from '../http/response.ts';
import { applyLifecycle, type CorsConfiguration } from '../store/index.ts';
import { getBucketAcl, putBucketAcl } from './acl.ts';
import {
  deleteBucket,
  deleteMultipleObjects,
  getBucketStatistics,
  headBucket,
  listMultipartUploads,
  listObjects,
  putBucket,
} from './bucket.ts';
import { findBucketForHost, resolveOptions, type EmulatorOptions, type RequestContext, type ResolvedOptions } from './context.ts';
import { actualCorsHeaders, deleteBucketCors, getBucketCors, preflight, putBucketCors } from './cors.ts';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  initiateMultipartUpload,
  listMultipart,
  uploadMultipart,
} from './multipart.ts';
import { appendObject, copyObject, deleteObject, getObject, headObject, moveObject, putObject } from './object.ts';
import { deleteBucketLifecycle, getBucketLifecycle, putBucketLifecycle } from './lifecycle.ts';
import { deleteBucketPolicy, getBucketPolicy, putBucketPolicy } from './policy.ts';
import { postObject } from './post-object.ts';
import { getLocations, listBuckets } from './service.ts';

export { DEFAULT_ZONES, resolveOptions, type EmulatorOptions, type ResolvedOptions } from './context.ts';

/** Sub-resources QingStor has but the emulator does not implement (ref §2.3 list minus the ones served). */
const UNSUPPORTED_SUB_RESOURCES = ['notification', 'logging', 'cname', 'mirror', 'replication', 'versioning', 'versions', 'version_id', 'image'];

/**
 * Sub-resources each level + method understands. Anything else that names a sub-resource (ref §2.3) is refused
 * instead of being ignored, so e.g. `DELETE /<bucket>?upload_id=…` can never delete the bucket and
 * `DELETE /<bucket>/<key>?cors` never deletes the object.
 */
const ALLOWED_SUB_RESOURCES: Record<'bucket' | 'object', Record<string, readonly string[]>> = {
  bucket: { GET: ['acl', 'cors', 'policy', 'lifecycle', 'stats', 'uploads'], PUT: ['acl', 'cors', 'policy', 'lifecycle'], DELETE: ['cors', 'policy', 'lifecycle'], POST: ['delete'], HEAD: [] },
  object: { GET: ['upload_id'], HEAD: [], PUT: ['upload_id', 'part_number'], DELETE: ['upload_id'], POST: ['uploads', 'upload_id', 'append', 'position'] },
};

/**
 * ref §4 precedence for a request that names no operation: a missing bucket first, then permission (a caller
 * with neither READ nor WRITE on the bucket learns nothing more), then the malformed request itself.
 */
function refuseMalformed(ctx: RequestContext, bucket: string, message: string): never {
  const found = findBucketForHost(ctx, bucket);
  if (!found) throw new QsError('bucket_not_exists');
  const access = { key: ctx.address.level === 'object' ? ctx.address.key : undefined, referer: ctx.request.headers.get('referer') };
  if (!isAllowed('get_object', ctx.principal, found, access) && !isAllowed('put_object', ctx.principal, found, access)) {
    throw new QsError('permission_denied');
  }
  throw new QsError('invalid_request', message);
}

function assertSubResourcesFit(ctx: RequestContext, level: 'bucket' | 'object', bucket: string): void {
  const allowed = ALLOWED_SUB_RESOURCES[level][ctx.method];
  if (!allowed) return; // unknown methods end in method_not_allowed
  for (const name of ctx.address.query.keys()) {
    if (SUB_RESOURCES.has(name) && !name.startsWith('response-') && !allowed.includes(name)) {
      refuseMalformed(ctx, bucket, `The ${name} sub-resource is not valid for ${ctx.method} on a ${level}.`);
    }
  }
}

function methodNotAllowed(ctx: RequestContext): never {
  throw new QsError('method_not_allowed', `${ctx.method} is not allowed on this ${ctx.address.level} resource.`);
}

async function dispatchService(ctx: RequestContext): Promise<Response> {
  if (ctx.method === 'GET' && ctx.address.query.has('location')) return getLocations(ctx);
  if (ctx.method === 'GET') return listBuckets(ctx);
  return methodNotAllowed(ctx);
}

async function dispatchBucket(ctx: RequestContext, name: string): Promise<Response> {
  const q = ctx.address.query;
  switch (ctx.method) {
    case 'GET':
      if (q.has('acl')) return getBucketAcl(ctx, name);
      if (q.has('cors')) return getBucketCors(ctx, name);
      if (q.has('policy')) return getBucketPolicy(ctx, name);
      if (q.has('lifecycle')) return getBucketLifecycle(ctx, name);
      if (q.has('stats')) return getBucketStatistics(ctx, name);
      if (q.has('uploads')) return listMultipartUploads(ctx, name);
      return listObjects(ctx, name);
    case 'PUT':
      if (q.has('acl')) return putBucketAcl(ctx, name);
      if (q.has('cors')) return putBucketCors(ctx, name);
      if (q.has('policy')) return putBucketPolicy(ctx, name);
      if (q.has('lifecycle')) return putBucketLifecycle(ctx, name);
      return putBucket(ctx, name);
    case 'DELETE':
      if (q.has('cors')) return deleteBucketCors(ctx, name);
      if (q.has('policy')) return deleteBucketPolicy(ctx, name);
      if (q.has('lifecycle')) return deleteBucketLifecycle(ctx, name);
      return deleteBucket(ctx, name);
    case 'HEAD':
      return headBucket(ctx, name);
    case 'POST':
      if (q.has('delete')) return deleteMultipleObjects(ctx, name);
      return postObject(ctx, name);
    default:
      return methodNotAllowed(ctx);
  }
}

async function dispatchObject(ctx: RequestContext, bucket: string, key: string): Promise<Response> {
  const q = ctx.address.query;
  const h = ctx.request.headers;
  switch (ctx.method) {
    case 'GET':
      if (q.has('upload_id')) return listMultipart(ctx, bucket, key);
      return getObject(ctx, bucket, key);
    case 'HEAD':
      return headObject(ctx, bucket, key);
    case 'PUT': {
      if (q.has('upload_id')) return uploadMultipart(ctx, bucket, key);
      const copy = h.get('x-qs-copy-source');
      const move = h.get('x-qs-move-source');
      const fetchSource = h.get('x-qs-fetch-source');
      // ref §5.3 (inferred): more than one source header is invalid_argument.
      if ([copy, move, fetchSource].filter((v) => v !== null).length > 1) {
        throw new QsError('invalid_argument', 'Send only one of x-qs-copy-source, x-qs-move-source and x-qs-fetch-source.');
      }
      if (copy !== null) return copyObject(ctx, bucket, key, copy);
      if (move !== null) return moveObject(ctx, bucket, key, move);
      if (fetchSource !== null) throw new QsError('invalid_request', 'The emulator does not implement x-qs-fetch-source.');
      return putObject(ctx, bucket, key);
    }
    case 'DELETE':
      if (q.has('upload_id')) return abortMultipartUpload(ctx, bucket, key);
      return deleteObject(ctx, bucket, key);
    case 'POST':
      if (q.has('uploads')) return initiateMultipartUpload(ctx, bucket, key);
      if (q.has('upload_id')) return completeMultipartUpload(ctx, bucket, key);
      if (q.has('append')) return appendObject(ctx, bucket, key);
      return methodNotAllowed(ctx);
    default:
      return methodNotAllowed(ctx);
  }
}

function dispatch(ctx: RequestContext): Promise<Response> {
  const a = ctx.address;
  if (a.level === 'service') return dispatchService(ctx);
  const unsupported = UNSUPPORTED_SUB_RESOURCES.find((name) => a.query.has(name));
  if (unsupported !== undefined) refuseMalformed(ctx, a.bucket, `The emulator does not implement the ${unsupported} sub-resource.`);
  assertSubResourcesFit(ctx, a.level, a.bucket);
  // Lifecycle rules act on the store's clock when a request reaches their bucket (mocks/store/lifecycle.ts).
  applyLifecycle(ctx.store, a.bucket);
  if (a.level === 'bucket') return dispatchBucket(ctx, a.bucket);
  return dispatchObject(ctx, a.bucket, a.key);
}

/**
 * A POST on the bucket resource without sub-resources is a form upload (ref §7), authenticated by its form.
 * With a sub-resource (`?delete`, or a misplaced one) it is a header-signed request like any other.
 */
function isPostObject(method: string, address: Address): boolean {
  if (method !== 'POST' || address.level !== 'bucket') return false;
  for (const name of address.query.keys()) if (SUB_RESOURCES.has(name)) return false;
  return true;
}

/**
 * `<bucket>.<domain>`: a bucket host without its zone (qsctl sends `HEAD` there to learn a bucket's zone).
 * QingStor answers 301 with a `Location` on `<bucket>.<zone>.<domain>`, before any authentication. The
 * host parses as a zone host whose label is no zone; undefined when that is not the case or the label
 * names no bucket.
 */
function zoneRedirect(request: Request, url: URL, address: Address, options: ResolvedOptions): Response | undefined {
  if (address.hostKind !== 'zone' || address.zone === undefined || options.zones.includes(address.zone)) return undefined;
  const bucket = options.store.findBucket(address.zone);
  if (!bucket) return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const domain = host.slice(address.zone.length + 1);
  // The standalone adapter addresses the handlers without the port; the Host header still has it.
  const authority = request.headers.get('host') ?? url.host;
  const port = /:(\d+)$/.exec(authority)?.[1] ?? url.port;
  const location = `${url.protocol}//${bucket.name}.${bucket.zone}.${domain}${port ? `:${port}` : ''}${address.rawPath}${url.search}`;
  return emptyResponse(301, { location });
}

function hostOptions(o: ResolvedOptions): HostOptions {
  return { domains: o.domains, defaultZone: o.defaultZone, acceptAnyHost: o.acceptAnyHost };
}

/** Answers one request that the predicate accepted. Exported for adapters that call it without msw. */
export async function handleEmulatorRequest(request: Request, options: ResolvedOptions): Promise<Response> {
  const requestId = newRequestId();
  const now = options.now();
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  let cors: Record<string, string> | undefined;
  let response: Response;
  let stringToSign: string | undefined;
  try {
    const address = resolveAddress(url, hostOptions(options));
    if (!address) throw new QsError('invalid_request', 'This host is not served by the emulator.');
    const redirect = zoneRedirect(request, url, address, options);
    if (redirect) return finishResponse(redirect, requestId, now);
    const base: RequestContext = {
      request,
      url,
      method,
      address,
      options,
      store: options.store,
      principal: { kind: 'anonymous' },
      requestId,
      now,
      zoneAgnostic: address.hostKind === 'other',
    };
    if (method === 'OPTIONS') {
      response = preflight(base);
    } else {
      // CORS headers are decided before the operation runs so that e.g. DeleteBucket still gets them.
      let bucketCors: CorsConfiguration | null | undefined;
      if (address.level !== 'service') bucketCors = findBucketForHost(base, address.bucket)?.cors;
      cors = actualCorsHeaders({ address, request, bucketCors });
      if (options.strictCors && request.headers.has('origin') && !cors) {
        throw new QsError('permission_denied', 'CORS refused: no CORS rule of this bucket allows this origin and method.');
      }
      if (isPostObject(method, address)) {
        response = await dispatch(base);
      } else {
        const principal = await authenticateRequest(request, {
          findUser: (accessKeyId) => options.users.find((u) => u.accessKeyId === accessKeyId),
          ...(address.bucketInHost !== undefined ? { bucketInHost: address.bucketInHost } : {}),
          now,
        });
        response = await dispatch({ ...base, principal });
      }
    }
  } catch (error) {
    if (error instanceof QsError) {
      response = errorResponse(error, requestId, method);
      stringToSign = error.stringToSign;
    } else if (isClientAbort(error, request)) {
      // The client went away mid-body: nothing was written, and it is not the emulator's fault.
      response = errorResponse(new QsError('incomplete_body'), requestId, method);
    } else {
      console.error('[qingstor-emulator] internal error', error);
      response = errorResponse(new QsError('internal_error'), requestId, method);
    }
  }
  if (options.durable) {
    // An asynchronous journal: the answer describes the store's state only once that state is persisted.
    try {
      await options.durable();
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      response = errorResponse(error instanceof QsError ? error : new QsError('internal_error', `The change could not be saved: ${cause}`), requestId, method);
    }
  }
  const finished = finishResponse(response, requestId, now, cors);
  if (stringToSign !== undefined) computedStringsToSign.set(finished, stringToSign);
  return finished;
}

/** For the access log: the string-to-sign the server computed for a refused signature (never sent). */
const computedStringsToSign = new WeakMap<Response, string>();

export function computedStringToSign(response: Response): string | undefined {
  return computedStringsToSign.get(response);
}

function isClientAbort(error: unknown, request: Request): boolean {
  if (request.signal.aborted) return true;
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return error.name === 'AbortError' || error.message === 'aborted' || code === 'ECONNRESET';
}

/**
 * The msw handlers of the emulator. One catch-all handler; its predicate accepts the configured domains
 * (and, with `acceptAnyHost`, every other host as path style in `defaultZone`).
 */
export function createHandlers(options: EmulatorOptions): HttpHandler[] {
  const resolved = resolveOptions(options);
  const hosts = hostOptions(resolved);
  return [
    http.all(
      ({ request }) => isEmulatorHost(new URL(request.url), hosts),
      ({ request }) => handleEmulatorRequest(request, resolved),
    ),
  ];
}
