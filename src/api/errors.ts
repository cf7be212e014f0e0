import { z } from 'zod';

/**
 * Typed failures of the api layer. Nothing here renders UI: features show `code`, a plain-language
 * explanation and `requestId` (README.md, "Architecture": errors).
 */

/** QingStor's JSON error envelope (ref §4). Only the four names are specified, so all are lenient. */
export const errorBodySchema = z.object({
  code: z.string().min(1),
  message: z.string().optional(),
  request_id: z.string().optional(),
  url: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * Codes for error responses that carry no QingStor body: every HEAD error (ref §4, §5.5) and bare
 * statuses from a front proxy (GO SDK note, ref §4). Where a status has exactly one documented
 * QingStor code it is used; otherwise a generic code names the status class. `code` never stays
 * empty, so features can always switch on it.
 *
 *   304 not_modified        400 bad_request          401 unauthorized (invalid key or signature)
 *   402 delinquent_account  403 forbidden            404 not_found (bucket or object — HEAD cannot say which)
 *   405 method_not_allowed  409 conflict             412 precondition_failed
 *   416 invalid_range       429 too_many_requests    500 internal_error
 *   502 bad_gateway         503 service_unavailable  504 gateway_timeout
 *   anything else           http_<status>
 */
export const STATUS_CODES: Readonly<Record<number, string>> = Object.freeze({
  304: 'not_modified',
  400: 'bad_request',
  401: 'unauthorized',
  402: 'delinquent_account',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  412: 'precondition_failed',
  416: 'invalid_range',
  429: 'too_many_requests',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
});

export function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? `http_${status}`;
}

/** Names the API call that failed, e.g. 'HeadObject', so messages and logs can say what was attempted. */
export interface OperationInfo {
  operation: string;
  method: string;
  /** Request URL (header-signed requests carry no secret in it). */
  requestUrl: string;
}

export interface ApiErrorInit extends OperationInfo {
  status: number;
  code: string;
  message: string;
  requestId: string;
  /** QingStor's help page URL from the error body (`url`), '' when the body had none. */
  url: string;
  /** True when code/message came from a QingStor JSON body, false when derived from the status. */
  fromBody: boolean;
  /** The `Retry-After` header of a 429/503 answer as sent (seconds or an HTTP date), when the page could read it. */
  retryAfter?: string;
}

/** The server answered with a non-2xx status (ref §4). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string;
  readonly url: string;
  readonly fromBody: boolean;
  readonly operation: string;
  readonly method: string;
  readonly requestUrl: string;
  readonly retryAfter: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.retryAfter = init.retryAfter;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.url = init.url;
    this.fromBody = init.fromBody;
    this.operation = init.operation;
    this.method = init.method;
    this.requestUrl = init.requestUrl;
  }
}

export interface NetworkErrorInit extends OperationInfo {
  /** Origin of the page that sent the request, when known (browser). */
  pageOrigin?: string;
  cause: unknown;
}

/**
 * fetch rejected with a TypeError / XHR fired `error`: no HTTP response was readable. In a browser a
 * cross-origin request that the server's CORS rules do not allow fails in exactly this way (the
 * browser hides the response), so a TypeError towards another origin is flagged `likelyCors`
 * (ref §9.9: every bucket the console touches needs a matching CORS rule).
 */
export class NetworkError extends Error {
  readonly likelyCors: boolean;
  readonly hint: string;
  readonly operation: string;
  readonly method: string;
  readonly requestUrl: string;
  readonly requestOrigin: string;
  readonly pageOrigin: string | undefined;

  constructor(init: NetworkErrorInit) {
    const requestOrigin = new URL(init.requestUrl).origin;
    const likelyCors = init.pageOrigin !== undefined && init.pageOrigin !== 'null' && init.pageOrigin !== requestOrigin;
    const hint = likelyCors
      ? `The browser blocked or could not complete a cross-origin request from ${init.pageOrigin ?? ''} to ${requestOrigin}. ` +
        'This usually means the bucket has no CORS rule allowing this origin, the method, the request headers ' +
        '(authorization, content-type, content-md5, x-qs-*) or exposing the response headers; it can also be ' +
        'an unreachable endpoint or a TLS problem.'
      : `Could not reach ${requestOrigin}: the endpoint is unreachable, refused the connection, or the request was interrupted.`;
    super(`Network error during ${init.operation}: ${hint}`, { cause: init.cause });
    this.name = 'NetworkError';
    this.likelyCors = likelyCors;
    this.hint = hint;
    this.operation = init.operation;
    this.method = init.method;
    this.requestUrl = init.requestUrl;
    this.requestOrigin = requestOrigin;
    this.pageOrigin = init.pageOrigin;
  }
}

export interface ContractErrorInit extends OperationInfo {
  status: number;
  requestId: string;
  issues: readonly z.core.$ZodIssue[];
  /** What was being parsed: 'body' or 'headers'. */
  part: 'body' | 'headers';
}

/** A 2xx response whose body or headers did not match the zod wire schema. */
export class ContractError extends Error {
  readonly issues: readonly z.core.$ZodIssue[];
  readonly status: number;
  readonly requestId: string;
  readonly part: 'body' | 'headers';
  readonly operation: string;
  readonly method: string;
  readonly requestUrl: string;

  constructor(init: ContractErrorInit) {
    const summary = init.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    super(`${init.operation} returned a ${init.part === 'body' ? 'body' : 'header set'} that does not match the expected schema: ${summary}`);
    this.name = 'ContractError';
    this.issues = init.issues;
    this.status = init.status;
    this.requestId = init.requestId;
    this.part = init.part;
    this.operation = init.operation;
    this.method = init.method;
    this.requestUrl = init.requestUrl;
  }
}

/** True for the DOMException fetch/XHR reject with when an AbortSignal fires (not an API failure). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'name' in error &&
    (error.name === 'AbortError' || error.name === 'TimeoutError')
  );
}

/**
 * Maps a non-2xx response to an ApiError. The body is read once; JSON error bodies give the QingStor
 * code, anything else (HEAD, a proxy's HTML, an empty body) falls back to the status table above.
 * The request id comes from the `x-qs-request-id` header, or the body when the header is missing
 * (e.g. not exposed by CORS).
 */
export async function apiErrorFromResponse(response: Response, info: OperationInfo): Promise<ApiError> {
  const headerRequestId = response.headers.get('x-qs-request-id') ?? '';
  let text = '';
  if (info.method !== 'HEAD') {
    try {
      text = await response.text();
    } catch {
      text = '';
    }
  }
  let body: ErrorBody | undefined;
  if (text.trim() !== '') {
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) body = parsed.data;
    } catch {
      body = undefined;
    }
  }
  const status = response.status;
  return new ApiError({
    ...info,
    status,
    code: body?.code ?? codeForStatus(status),
    message: body?.message || response.statusText || `HTTP ${status}`,
    requestId: headerRequestId || body?.request_id || '',
    url: body?.url ?? '',
    fromBody: body !== undefined,
    ...(response.headers.has('retry-after') ? { retryAfter: response.headers.get('retry-after') ?? '' } : {}),
  });
}
