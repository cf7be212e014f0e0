/**
 * Server-side verification of QingStor credentials for the emulator (ref §2.6, §7). It rebuilds
 * string_to_sign with the same code the console signs with (src/api/signing.ts), from the request
 * exactly as received: the raw percent-encoded pathname, never decoded and re-encoded (ref §1.3).
 */
import {
  canonicalizedResource,
  decodeQueryComponent,
  parseRawQuery,
  stringToSign,
  SUB_RESOURCES,
} from '../../src/api/signing.ts';
import { QsError } from '../errors.ts';
import { MAX_PRESIGNED_URL_SECONDS, PRESIGNED_CLOCK_SKEW_SECONDS } from '../../src/api/protocol/limits.ts';
import { hmacBase64, hmacTextBase64, latin1Bytes } from './hmac.ts';

export interface MockUser {
  id: string;
  name: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export type Principal = { kind: 'anonymous' } | { kind: 'user'; user: MockUser };

export interface AuthContext {
  findUser(accessKeyId: string): MockUser | undefined;
  /** The bucket label when the request came in virtual-host style (ref §2.3 step 1). */
  bucketInHost?: string;
  now: Date;
}

/** ref §2.4: the signing time may differ from server time by at most 15 minutes. */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

/**
 * Compares two signatures without an early exit, so the time taken does not reveal how many leading
 * characters of a guess were right.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i += 1) {
    diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  }
  return diff === 0;
}

const AUTHORIZATION = /^QS ([^\s:]+):(\S+)$/;

/**
 * Authenticates a REST request. No Authorization header and no query credentials ⇒ anonymous (ref §10:
 * the ACL decides). Anything that carries credentials is verified and fails with a QsError:
 * malformed ⇒ signature_not_matched 401 (ref §12), unknown key ⇒ invalid_access_key_id 401,
 * time ⇒ request_expired 403, wrong signature ⇒ signature_not_matched 401 (ref §2.6 order).
 */
export async function authenticateRequest(request: Request, ctx: AuthContext): Promise<Principal> {
  const url = new URL(request.url);
  const rawQuery = url.search.startsWith('?') ? url.search.slice(1) : url.search;
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    return authenticateHeaderSigned(request, url, rawQuery, authorization, ctx);
  }
  const query = parseRawQuery(rawQuery);
  const find = (name: string) => query.find((p) => p.name === name);
  const accessKeyId = find('access_key_id');
  const signature = find('signature');
  // A lone `expires` is not treated as credentials: only the key id or the signature marks a pre-signed URL.
  if (accessKeyId === undefined && signature === undefined) return { kind: 'anonymous' };
  return authenticateQuerySigned(request, url, rawQuery, query, ctx);
}

async function authenticateHeaderSigned(
  request: Request,
  url: URL,
  rawQuery: string,
  authorization: string,
  ctx: AuthContext,
): Promise<Principal> {
  const match = AUTHORIZATION.exec(authorization.trim());
  const accessKeyId = match?.[1];
  const signature = match?.[2];
  if (accessKeyId === undefined || signature === undefined) {
    throw new QsError('signature_not_matched', 'The Authorization header is not of the form "QS <access_key_id>:<signature>".');
  }
  const user = ctx.findUser(accessKeyId);
  if (user === undefined) throw new QsError('invalid_access_key_id');

  // ref §2.4: x-qs-date wins over Date; missing or unparseable ⇒ request_expired (inferred, ref §12).
  const signedAt = request.headers.get('x-qs-date') ?? request.headers.get('date');
  const signedMs = signedAt === null ? Number.NaN : Date.parse(signedAt);
  if (Number.isNaN(signedMs)) {
    throw new QsError('request_expired', 'A header-signed request needs a valid x-qs-date or Date header.');
  }
  if (Math.abs(ctx.now.getTime() - signedMs) > MAX_CLOCK_SKEW_MS) throw new QsError('request_expired');

  return verifySignature(request, user, signature, resourceCandidates(url, rawQuery, ctx.bucketInHost), undefined);
}

const utf8 = new TextEncoder();

/**
 * The message a client signed, as bytes. Everything before the resource comes from header values, which
 * are octets on the wire: they are signed as the bytes received (a raw non-ASCII byte in `x-qs-meta-*` is
 * one byte, not its UTF-8 re-encoding as a Latin-1 character). The resource holds decoded query values,
 * which are text: UTF-8.
 */
function messageBytes(headerPart: string, resource: string): Uint8Array {
  const head = latin1Bytes(headerPart);
  const tail = utf8.encode(resource);
  const out = new Uint8Array(head.byteLength + tail.byteLength);
  out.set(head, 0);
  out.set(tail, head.byteLength);
  return out;
}

/** Thrown when no candidate matched: carries the string-to-sign the server computed (for logs only). */
function mismatch(computed: string): QsError {
  const error = new QsError('signature_not_matched');
  error.stringToSign = computed;
  return error;
}

async function verifySignature(
  request: Request,
  user: MockUser,
  signature: string,
  resources: readonly string[],
  expires: number | undefined,
): Promise<Principal> {
  const headerPart = stringToSign({ method: request.method, headers: request.headers, resource: '', ...(expires !== undefined ? { expires } : {}) });
  for (const resource of resources) {
    const expected = await hmacBase64(user.secretAccessKey, messageBytes(headerPart, resource));
    if (constantTimeEqual(expected, signature)) return { kind: 'user', user };
  }
  throw mismatch(`${headerPart}${resources[0] ?? ''}`);
}

async function authenticateQuerySigned(
  request: Request,
  url: URL,
  rawQuery: string,
  query: ReturnType<typeof parseRawQuery>,
  ctx: AuthContext,
): Promise<Principal> {
  const accessKeyId = query.find((p) => p.name === 'access_key_id')?.value;
  const expiresText = query.find((p) => p.name === 'expires')?.value;
  const signatureParam = query.find((p) => p.name === 'signature');
  // Base64 never contains a space, so a raw `+` in the signature can only mean `+`: decode it without the
  // form-encoding rule (lenient toward hand-built URLs; SDKs send %2B anyway, ref §2.5).
  const rawSignature = signatureParam?.raw.split('=').slice(1).join('=') ?? '';
  const signature = decodeQueryComponent(rawSignature, false);
  if (
    accessKeyId === undefined ||
    accessKeyId === '' ||
    signature === '' ||
    expiresText === undefined ||
    !/^\d{1,15}$/.test(expiresText)
  ) {
    // Incomplete query credentials are malformed credentials (same choice as a malformed header, ref §12).
    throw new QsError('signature_not_matched', 'A pre-signed URL needs access_key_id, expires and signature.');
  }
  const user = ctx.findUser(accessKeyId);
  if (user === undefined) throw new QsError('invalid_access_key_id');

  const expires = Number(expiresText);
  // ref §2.5: requests arriving after `expires` are refused; the 15-minute Date rule does not apply.
  if (ctx.now.getTime() > expires * 1000) throw new QsError('request_expired', 'The pre-signed URL has expired.');
  // ref §2.5: a link lives at most seven days (with the 15-minute clock allowance); a later `expires` is refused.
  const latest = Math.floor(ctx.now.getTime() / 1000) + MAX_PRESIGNED_URL_SECONDS + PRESIGNED_CLOCK_SKEW_SECONDS;
  if (expires > latest) {
    throw new QsError(
      'invalid_argument',
      `The expires parameter is ${expires - Math.floor(ctx.now.getTime() / 1000)} seconds after the server's time; a pre-signed URL may live at most ${MAX_PRESIGNED_URL_SECONDS} seconds (7 days).`,
    );
  }

  return verifySignature(request, user, signature, resourceCandidates(url, rawQuery, ctx.bucketInHost), expires);
}

/**
 * The same resource as canonicalizedResource but with the sub-resource values exactly as sent, still
 * percent-encoded: what the Python SDK signs (ref §2.7; the Go and JavaScript SDKs sign decoded values).
 * Undefined when no value differs from its decoded form, so there is no second candidate to try.
 */
function encodedValueResource(rawPath: string, rawQuery: string, bucketInHost: string | undefined): string | undefined {
  let differs = false;
  const parts: string[] = [];
  for (const { name, value, raw } of parseRawQuery(rawQuery)) {
    if (!SUB_RESOURCES.has(name)) continue;
    const eq = raw.indexOf('=');
    const rawValue = eq < 0 ? '' : raw.slice(eq + 1);
    if (rawValue !== value) differs = true;
    parts.push(rawValue === '' ? name : `${name}=${rawValue}`);
  }
  if (!differs) return undefined;
  parts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let resource = rawPath === '' ? '/' : rawPath;
  if (bucketInHost !== undefined && bucketInHost !== '') resource = `/${bucketInHost}${resource}`;
  return `${resource}?${parts.join('&')}`;
}

/**
 * The resource every SDK signs; for a bucket-level virtual-host request also the variant without the
 * trailing slash (`/bucket` instead of `/bucket/`) that the DOCS JavaScript example shows (ref §2.6, §12);
 * and, when a sub-resource value is percent-encoded in the URL, the variants with the value as sent.
 */
function resourceCandidates(url: URL, rawQuery: string, bucketInHost: string | undefined): string[] {
  const bases = [canonicalizedResource({ rawPath: url.pathname, rawQuery, bucketInHost })];
  const encoded = encodedValueResource(url.pathname, rawQuery, bucketInHost);
  if (encoded !== undefined) bases.push(encoded);
  if (bucketInHost === undefined || bucketInHost === '' || (url.pathname !== '/' && url.pathname !== '')) return bases;
  // Each resource is `/<bucket>/` followed by the optional `?sub-resources`; drop that one slash.
  return bases.flatMap((resource) => [resource, `/${bucketInHost}${resource.slice(bucketInHost.length + 2)}`]);
}

/** Field names that carry the form credentials; they are never part of the policy (ref §7). */
const FORM_AUTH_FIELDS = new Set(['access_key_id', 'policy', 'signature']);

/**
 * Decodes a PostObject policy: Base64 → UTF-8 → JSON object with string values. Anything else is a policy
 * the form cannot satisfy, hence form_policy_violated (ref §7 does not name a separate code).
 */
export function decodePolicy(policyBase64: string): Map<string, string> {
  const violated = (why: string) => new QsError('form_policy_violated', `The policy is not valid: ${why}.`);
  const compact = policyBase64.trim();
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw violated('not base64');
  }
  let parsed: unknown;
  try {
    const bytes = Uint8Array.from(atob(compact), (c) => c.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw violated('not base64 of UTF-8 JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw violated('not a JSON object');
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    // Form fields are text, so a policy value that is not a string can never match one.
    if (typeof value !== 'string') throw violated(`the value of "${name}" is not a string`);
    const lower = name.toLowerCase();
    if (fields.has(lower)) throw violated(`"${name}" appears twice`);
    fields.set(lower, value);
  }
  return fields;
}

/**
 * Authenticates a PostObject form (ref §7, vector V5) from the fields that precede `file`.
 * - No access_key_id, policy or signature ⇒ anonymous (the bucket ACL then needs public WRITE).
 * - ref §7 table: access_key_id is required whenever policy is present, signature whenever access_key_id
 *   is present, and the signature is computed over the policy, so any incomplete triple is a malformed
 *   request: invalid_request 400 (inferred; the reference names no code).
 * - Unknown key ⇒ invalid_access_key_id 401; signature over the policy text ⇒ signature_not_matched 401.
 * - Every other pre-`file` field must be in the policy with an identical value and vice versa, else
 *   form_policy_violated 400. Field NAMES compare case-insensitively because HTTP header-like fields
 *   (`Content-Type`, `Cache-Control`, `x-qs-meta-*`) are case-insensitive and the DOCS spell them in
 *   either case; VALUES compare exactly.
 */
export async function authenticatePostForm(
  fieldsBeforeFile: Array<[string, string]>,
  ctx: AuthContext,
): Promise<Principal> {
  const auth = new Map<string, string>();
  const others = new Map<string, string>();
  for (const [name, value] of fieldsBeforeFile) {
    const lower = name.toLowerCase();
    const target = FORM_AUTH_FIELDS.has(lower) ? auth : others;
    // Two fields of the same name cannot both be covered by one policy entry.
    if (target.has(lower)) throw new QsError('form_policy_violated', `The form field "${name}" appears twice.`);
    target.set(lower, value);
  }
  const accessKeyId = auth.get('access_key_id');
  const policy = auth.get('policy');
  const signature = auth.get('signature');
  if (accessKeyId === undefined && policy === undefined && signature === undefined) return { kind: 'anonymous' };
  if (accessKeyId === undefined || policy === undefined || signature === undefined) {
    throw new QsError('invalid_request', 'access_key_id, policy and signature must be sent together.');
  }
  const user = ctx.findUser(accessKeyId);
  if (user === undefined) throw new QsError('invalid_access_key_id');
  const expected = await hmacTextBase64(user.secretAccessKey, policy);
  if (!constantTimeEqual(expected, signature)) throw mismatch(policy);

  const allowed = decodePolicy(policy);
  for (const [name, value] of others) {
    if (allowed.get(name) !== value) {
      throw new QsError('form_policy_violated', `The form field "${name}" is not covered by the policy with this value.`);
    }
  }
  for (const name of allowed.keys()) {
    if (!others.has(name)) throw new QsError('form_policy_violated', `The policy requires the form field "${name}".`);
  }
  return { kind: 'user', user };
}
