/**
 * What every area module receives, and the small request-parsing helpers they share.
 * Area modules are thin: parse (zod for JSON bodies, explicit checks for headers/params) → store → response.
 */
import { z } from 'zod';
import { metadataFromEntries } from '../../src/api/metadata/header-mapping.ts';
import { checkCustomMetadata } from '../../src/api/metadata/rules.ts';
import type { ObjectMetadata } from '../../src/api/metadata/types.ts';
import { STANDARD_METADATA_HEADERS } from '../../src/api/protocol/headers.ts';
import { assertAllowed, type BucketOperation } from '../auth/acl.ts';
import type { MockUser, Principal } from '../auth/signature.ts';
import { QsError } from '../errors.ts';
import type { Address } from '../http/address.ts';
import type { PostFormReader } from '../http/post-form.ts';
import { headerSafe } from '../http/response.ts';
import type { BodySegment, BucketInfo, StorageClass, Store } from '../store/index.ts';
import { Md5 } from '../store/md5.ts';
import { MAX_KEY_BYTES } from '../../src/api/protocol/limits.ts';

/** Zones of the DOCS (ref §1.1); `?location` lists them and PutBucket accepts only these. */
export const DEFAULT_ZONES = ['pek3a', 'pek3b', 'sh1a', 'gd2', 'ap3'] as const;

export interface EmulatorOptions {
  store: Store;
  /** Domains D such that D, <zone>.D and <bucket>.<zone>.D are served (ref §1.1). */
  domains: readonly string[];
  /** Zone of requests to hosts outside `domains` (path style only). */
  defaultZone: string;
  /** Users whose access keys are accepted; the signature layer looks them up. Default: none. */
  users?: readonly MockUser[];
  /** Known zones; default DEFAULT_ZONES plus `defaultZone`. */
  zones?: readonly string[];
  /**
   * Serve hosts outside `domains` as path style in `defaultZone` (e.g. http://127.0.0.1:9000/<bucket>/<key>).
   * Default false: the browser worker must let unrelated requests through. The standalone server turns it on.
   */
  acceptAnyHost?: boolean;
  /**
   * Emulate a browser's CORS enforcement (ref §9.9 msw note): requests with `Origin` that no bucket rule allows
   * are refused with 403 before they run, and failed preflights answer 403 instead of 200 without headers.
   */
  strictCors?: boolean;
  /** Injectable clock for Date headers and the signature time window; default () => new Date(). */
  now?: () => Date;
  /** How PostObject forms are parsed; default the whole form through request.formData() (post-object.ts). */
  postFormReader?: PostFormReader;
  /**
   * Resolves once every change made so far is persisted (a journal that writes asynchronously, the browser
   * demo's IndexedDB); every answer waits for it. Default: nothing to wait for.
   */
  durable?: () => Promise<void>;
}

export interface ResolvedOptions {
  store: Store;
  domains: readonly string[];
  defaultZone: string;
  users: readonly MockUser[];
  zones: readonly string[];
  acceptAnyHost: boolean;
  strictCors: boolean;
  now: () => Date;
  postFormReader: PostFormReader | undefined;
  durable?: (() => Promise<void>) | undefined;
}

export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const zones = options.zones ?? [...DEFAULT_ZONES];
  return {
    store: options.store,
    domains: options.domains,
    defaultZone: options.defaultZone,
    users: options.users ?? [],
    zones: zones.includes(options.defaultZone) ? zones : [...zones, options.defaultZone],
    acceptAnyHost: options.acceptAnyHost ?? false,
    strictCors: options.strictCors ?? false,
    now: options.now ?? (() => new Date()),
    postFormReader: options.postFormReader,
    durable: options.durable,
  };
}

export interface RequestContext {
  request: Request;
  url: URL;
  method: string;
  address: Address;
  options: ResolvedOptions;
  store: Store;
  principal: Principal;
  requestId: string;
  now: Date;
  /**
   * True when the host names no zone (a host outside the domains): buckets of every zone are reachable
   * there because there is no host zone to compare with; new buckets go to `defaultZone`.
   */
  zoneAgnostic: boolean;
}

export function userName(options: ResolvedOptions, id: string): string {
  return options.users.find((u) => u.id === id)?.name ?? '';
}

/**
 * Looks a bucket up as seen from this host: missing, or in another zone than the host's (ref §1.1, §11.18),
 * or addressed on the global host ⇒ `bucket_not_exists`. Then the access decision (ref §4 precedence:
 * bucket existence before permission).
 */
export function findBucketForHost(ctx: RequestContext, name: string): BucketInfo | undefined {
  const bucket = ctx.store.findBucket(name);
  if (!bucket) return undefined;
  if (ctx.zoneAgnostic) return bucket;
  if (ctx.address.zone === undefined || bucket.zone !== ctx.address.zone) return undefined;
  return bucket;
}

/**
 * `key` defaults to the addressed object's key; pass it for a copy/move source. The key and the Referer feed
 * bucket policy statements (ref §9.8).
 */
export function requireBucket(ctx: RequestContext, name: string, operation: BucketOperation, key?: string): BucketInfo {
  const bucket = findBucketForHost(ctx, name);
  if (!bucket) throw new QsError('bucket_not_exists');
  const addressedKey = ctx.address.level === 'object' && ctx.address.bucket === name ? ctx.address.key : undefined;
  assertAllowed(operation, ctx.principal, bucket, { key: key ?? addressedKey, referer: ctx.request.headers.get('referer') });
  // ref §4 bucket_not_active, §9.3 "must be … active": a suspended bucket refuses deletion and every write
  // (inferred); reads stay possible so that a console can still show the bucket and its status.
  if (bucket.status !== 'active' && CHANGES_BUCKET.has(operation)) throw new QsError('bucket_not_active');
  return bucket;
}

const CHANGES_BUCKET: ReadonlySet<BucketOperation> = new Set<BucketOperation>([
  'delete_bucket', 'put_bucket_acl', 'put_bucket_cors', 'delete_bucket_cors', 'put_bucket_policy', 'delete_bucket_policy',
  'put_bucket_lifecycle', 'delete_bucket_lifecycle',
  'delete_multiple_objects', 'put_object', 'post_object', 'append_object', 'initiate_multipart_upload', 'upload_multipart',
  'complete_multipart_upload', 'abort_multipart_upload', 'delete_object', 'copy_destination',
]);

// ------------------------------------------------------------------------------------------------
// Request parsing helpers

/** An object payload as read: its chunks as they arrived, and their MD5 when it was computed on the way. */
export interface Payload {
  /** In memory, or one body file with --data-dir (written, synced and renamed into place). */
  body: BodySegment[];
  /** lowercase hex, computed chunk by chunk in Node; absent in the browser (the store hashes the body) */
  md5?: string;
}

/** A web stream's chunks, one read at a time. */
export async function* streamChunks(stream: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (stream === null) return;
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // Stopped early (a limit): not awaited, msw tees request bodies and a tee branch's cancel settles
    // only once both are cancelled.
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads an object body from `source`: at most the store's maximum (entity_too_large as soon as it is
 * passed, so chunked bodies are capped too), hashed on the way, kept as received or written to a body
 * file (--data-dir), and at least `declared` bytes when a length was announced (else incomplete_body).
 */
export async function collectPayload(ctx: RequestContext, source: AsyncIterable<Uint8Array>, declared?: number): Promise<Payload> {
  const max = ctx.store.maxObjectSize;
  const md5 = Md5.incremental();
  const sink = ctx.store.newBodySink();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > max) throw new QsError('entity_too_large', `The body has more than ${max} bytes; that is the most allowed in one request.`);
      const hashing = md5?.update(chunk);
      if (hashing) await hashing;
      const writing = sink?.write(chunk);
      if (writing) await writing;
      else if (!sink) chunks.push(chunk);
    }
    // ref §4: a body shorter than its declared Content-Length is `incomplete_body`.
    if (declared !== undefined && size < declared) throw new QsError('incomplete_body');
  } catch (error) {
    md5?.cancel();
    await sink?.abort();
    throw error;
  }
  const [body, hex] = await Promise.all([sink ? sink.finish() : chunks, md5?.digest()]);
  return hex === undefined ? { body } : { body, md5: hex };
}

/**
 * An object payload (PutObject, part, append), read as a stream: a declared Content-Length above the
 * store's maximum is refused before a byte is read (ref §4 entity_too_large); see collectPayload.
 */
export async function readPayload(ctx: RequestContext): Promise<Payload> {
  const max = ctx.store.maxObjectSize;
  const declaredText = ctx.request.headers.get('content-length')?.trim();
  const declared = declaredText !== undefined && /^\d+$/.test(declaredText) ? Number(declaredText) : undefined;
  if (declared !== undefined && declared > max) {
    throw new QsError('entity_too_large', `Content-Length ${declaredText} is above the maximum of ${max} bytes.`);
  }
  return collectPayload(ctx, streamChunks(ctx.request.body), declared);
}

/**
 * Largest JSON request body (ACL, CORS, policy, Complete, DeleteMultipleObjects). The largest legitimate
 * one, DeleteMultipleObjects with 1000 keys of 1023 bytes, is about 1 MiB.
 */
export const MAX_JSON_BODY = 4 * 1024 * 1024;

/**
 * Reads a JSON document's body, refusing it with entity_too_large as soon as it is known to be larger than
 * MAX_JSON_BODY: before reading when Content-Length says so, else while reading (chunked bodies).
 */
export async function readJsonBody(request: Request): Promise<Uint8Array> {
  const tooLarge = () => new QsError('entity_too_large', `A JSON request body may have at most ${MAX_JSON_BODY} bytes.`);
  const declared = request.headers.get('content-length')?.trim();
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > MAX_JSON_BODY) {
    void request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BODY) {
      // Not awaited: msw tees request bodies, and a tee branch's cancel settles only once both are cancelled.
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  if (declared !== undefined && /^\d+$/.test(declared) && size < Number(declared)) throw new QsError('incomplete_body');
  return bytes;
}

export async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const text = new TextDecoder().decode(await readJsonBody(request));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new QsError('invalid_json');
  }
  return parseJsonValue(value, schema);
}

/**
 * An optional JSON field that may also be sent as `null`: the official Python SDK sends every optional
 * field the caller left out as null. Null reads as absent.
 */
export function optionalField<T>(schema: z.ZodType<T>): z.ZodType<T | undefined, unknown> {
  return schema.nullish().transform((value) => value ?? undefined);
}

export function parseJsonValue<T>(value: unknown, schema: z.ZodType<T>): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new QsError('invalid_request', `The request body is not valid${where}: ${issue?.message ?? 'schema mismatch'}.`);
  }
  return result.data;
}

/** Optional non-negative integer query parameter; anything else is `invalid_argument` (ref §4). */
export function intParam(query: URLSearchParams, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new QsError('invalid_argument', `The ${name} parameter must be an integer between 0 and ${max}.`);
  return Number(raw);
}

/** `x-qs-storage-class`: STANDARD or STANDARD_IA, anything else `invalid_request` (ref §5.1). */
export function storageClassOf(value: string | null | undefined): StorageClass | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (v === 'STANDARD' || v === 'STANDARD_IA') return v;
  throw new QsError('invalid_request', `Unsupported storage class "${v}".`);
}

const utf8 = new TextEncoder();

/** ref §1.3, §11.15: 1–1023 bytes of UTF-8. */
export function assertValidKey(key: string): void {
  const bytes = utf8.encode(key).byteLength;
  if (bytes < 1 || bytes > MAX_KEY_BYTES) throw new QsError('invalid_object_name', `Object keys must be 1 to ${MAX_KEY_BYTES} bytes of UTF-8; this one has ${bytes}.`);
}

/**
 * Storable metadata of a request (ref §6) from header-like pairs, validated with the console's rules
 * (checkCustomMetadata); a violation throws so that nothing is written. An empty Content-Type counts as
 * absent (ref §3).
 */
export function validatedMetadata(entries: Iterable<readonly [string, string]>): ObjectMetadata {
  const metadata = metadataFromEntries(entries);
  if (metadata.standard['content-type'] !== undefined && metadata.standard['content-type'].trim() === '') {
    delete metadata.standard['content-type'];
  }
  const violation = checkCustomMetadata(metadata.custom);
  if (violation) throw new QsError(violation.code, violation.message);
  // Standard headers from form fields (PostObject) can hold any text; they are replayed as headers on GET/HEAD.
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = metadata.standard[name];
    if (value !== undefined) metadata.standard[name] = headerSafe(value, name);
  }
  return metadata;
}

/** Base URL that addresses a bucket the way this emulator serves it (used in ListBuckets/stats `url`). */
export function bucketUrl(ctx: RequestContext, bucket: BucketInfo): string {
  const host = ctx.url.hostname.toLowerCase();
  const domain = ctx.options.domains.find((d) => host === d.toLowerCase() || host.endsWith(`.${d.toLowerCase()}`));
  if (domain) {
    const port = ctx.url.port ? `:${ctx.url.port}` : '';
    return `${ctx.url.protocol}//${bucket.name}.${bucket.zone}.${domain}${port}`;
  }
  return `${ctx.url.origin}/${bucket.name}`;
}
