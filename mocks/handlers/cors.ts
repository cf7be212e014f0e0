/**
 * Bucket CORS configuration get/put/delete (ref §9.9, owner only) and the CORS evaluation of requests:
 * real preflights on OPTIONS (ref §5.7, no auth) and CORS headers on actual responses carrying `Origin`.
 */
import { z } from 'zod';
import { QsError } from '../errors.ts';
import { corsHeadersForRule, findCorsRule, parseHeaderList, serviceCorsHeaders } from '../http/cors.ts';
import { emptyResponse, jsonResponse } from '../http/response.ts';
import type { CorsConfiguration, CorsRule } from '../store/index.ts';
import { findBucketForHost, optionalField, readJson, requireBucket, type RequestContext } from './context.ts';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', '*'] as const;

/**
 * Rule strings are echoed in Access-Control-* response headers (ref §9.9), so they must be sendable there:
 * header names are HTTP tokens (RFC 9110 §5.6.2; `*` is one), origins printable ASCII without spaces.
 * Anything else would make every later CORS response of the bucket fail.
 */
const headerName = z.string().trim().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name or *');

const ruleSchema = z.object({
  allowed_origin: z.string().trim().regex(/^[\x21-\x7e]+$/, 'must be an origin pattern of printable ASCII'),
  allowed_methods: z
    .array(z.string().transform((m) => m.trim().toUpperCase()).pipe(z.enum(METHODS)))
    .min(1),
  allowed_headers: optionalField(z.array(headerName)),
  expose_headers: optionalField(z.array(headerName)),
  max_age_seconds: optionalField(z.number().int().min(0)),
});

export const putCorsSchema = z.object({
  cors_rules: z.array(ruleSchema),
  // ref §9.9: enabled/disabled, case-insensitive; DOCS examples write "enable".
  resp_vary: optionalField(
    z.string().refine((v) => ['enabled', 'disabled', 'enable', 'disable'].includes(v.trim().toLowerCase()), 'resp_vary must be enabled or disabled'),
  ),
});

export function getBucketCors(ctx: RequestContext, name: string): Response {
  const bucket = requireBucket(ctx, name, 'get_bucket_cors');
  // ref §9.9 (inferred): no configuration ⇒ an empty rule list.
  return jsonResponse(200, bucket.cors ?? { cors_rules: [] });
}

export async function putBucketCors(ctx: RequestContext, name: string): Promise<Response> {
  requireBucket(ctx, name, 'put_bucket_cors');
  const input = await readJson(ctx.request, putCorsSchema);
  const rules: CorsRule[] = input.cors_rules.map((r) => ({
    allowed_origin: r.allowed_origin,
    allowed_methods: r.allowed_methods,
    ...(r.allowed_headers !== undefined ? { allowed_headers: r.allowed_headers } : {}),
    ...(r.expose_headers !== undefined ? { expose_headers: r.expose_headers } : {}),
    ...(r.max_age_seconds !== undefined ? { max_age_seconds: r.max_age_seconds } : {}),
  }));
  const config: CorsConfiguration = { cors_rules: rules, ...(input.resp_vary !== undefined ? { resp_vary: input.resp_vary } : {}) };
  ctx.store.putBucketCors(name, config);
  return emptyResponse(200);
}

export function deleteBucketCors(ctx: RequestContext, name: string): Response {
  requireBucket(ctx, name, 'delete_bucket_cors');
  ctx.store.deleteBucketCors(name);
  return emptyResponse(204);
}

/** Bucket addressed by the request, if any (service-level requests have none). */
function bucketNameOf(ctx: Pick<RequestContext, 'address'>): string | undefined {
  return ctx.address.level === 'service' ? undefined : ctx.address.bucket;
}

/** OPTIONS (ref §5.7): no auth; 200 with or without CORS headers (strict mode: 403 when refused). */
export function preflight(ctx: RequestContext): Response {
  const origin = ctx.request.headers.get('origin');
  const method = ctx.request.headers.get('access-control-request-method');
  if (origin === null || method === null) {
    throw new QsError('invalid_request', 'A CORS preflight needs Origin and Access-Control-Request-Method headers.');
  }
  const requested = parseHeaderList(ctx.request.headers.get('access-control-request-headers'));
  const name = bucketNameOf(ctx);
  if (name === undefined) return emptyResponse(200, serviceCorsHeaders(origin, requested));
  const bucket = findBucketForHost(ctx, name);
  const config = bucket?.cors ?? undefined;
  const rule = findCorsRule(config, origin, method, requested);
  if (rule && config) return emptyResponse(200, corsHeadersForRule(config, rule, origin, requested));
  if (ctx.options.strictCors) throw new QsError('permission_denied', 'CORS preflight refused: no CORS rule of this bucket allows the request.');
  return emptyResponse(200);
}

/**
 * CORS headers for an actual (non-OPTIONS) response when the request carries `Origin` (ref §9.9). Returns
 * undefined when no rule allows it. Service-level endpoints allow any origin (ref §12).
 */
export function actualCorsHeaders(ctx: Pick<RequestContext, 'address' | 'request'> & { bucketCors: CorsConfiguration | null | undefined }): Record<string, string> | undefined {
  const origin = ctx.request.headers.get('origin');
  if (origin === null) return undefined;
  if (bucketNameOf(ctx) === undefined) return serviceCorsHeaders(origin, undefined);
  const config = ctx.bucketCors ?? undefined;
  const rule = findCorsRule(config, origin, ctx.request.method, []);
  return rule && config ? corsHeadersForRule(config, rule, origin, undefined) : undefined;
}
