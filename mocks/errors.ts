/**
 * QingStor's error envelope (reference §4): every error is JSON {code, message, request_id, url} with a
 * documented HTTP status. The store, the auth layer and the handlers all throw QsError; only the handler
 * layer turns it into a Response (HEAD responses carry the status only).
 */

export const ERROR_HELP_URL = 'https://docsv4.qingcloud.com/user_guide/storage/object_storage/api/error_code/';

export const ERROR_CATALOG = {
  invalid_access_key_id: [401, 'The access key id you provided does not exist.'],
  signature_not_matched: [401, 'The request signature does not match the signature we calculated.'],
  request_expired: [403, 'The request time is more than 15 minutes away from the server time, or the signed URL has expired.'],
  permission_denied: [403, 'You do not have permission to perform this request.'],
  invalid_argument: [400, 'Invalid argument or invalid argument value.'],
  invalid_request: [400, 'The request is malformed.'],
  invalid_json: [400, 'The request body is not valid JSON.'],
  bad_digest: [400, 'The Content-MD5 you specified does not match the body we received.'],
  incomplete_body: [400, 'The request body is shorter than its Content-Length.'],
  invalid_range: [416, 'The requested range cannot be satisfied.'],
  precondition_failed: [412, 'A precondition you specified did not hold.'],
  not_modified: [304, 'Not modified.'],
  bucket_already_exists: [409, 'The bucket name is already taken.'],
  bucket_not_exists: [404, 'The bucket you are accessing does not exist.'],
  object_not_exists: [404, 'The object you are accessing does not exist.'],
  bucket_not_empty: [409, 'The bucket you are deleting is not empty.'],
  invalid_bucket_name: [400, 'The bucket name is not valid.'],
  too_many_buckets: [403, 'You have reached your bucket quota.'],
  bucket_not_active: [403, 'The bucket is not active.'],
  method_not_allowed: [405, 'The method is not allowed on this resource.'],
  invalid_location: [400, 'The zone (location) is not known.'],
  invalid_object_state: [400, 'The object state does not allow this operation.'],
  invalid_object_name: [400, 'The object key is not valid.'],
  entity_too_small: [400, 'A part other than the last is smaller than the minimum part size.'],
  entity_too_large: [400, 'The body is larger than the maximum allowed size.'],
  max_parts_exceeded: [400, 'The upload has too many parts.'],
  upload_not_exists: [404, 'The multipart upload does not exist; it may have been completed or aborted.'],
  metadata_too_large: [400, 'The custom metadata is larger than 2 KB, or a metadata key is longer than 512 bytes.'],
  too_many_objects: [400, 'Too many objects in one request.'],
  form_policy_violated: [400, 'The form fields do not match the signed policy.'],
  access_denied: [400, 'The request was refused.'],
  // Not in QingStor's list: the emulator's answer when a client stops sending headers or body mid-request.
  request_timeout: [408, 'The request did not arrive in time.'],
  internal_error: [500, 'We encountered an internal error.'],
  service_unavailable: [503, 'The service is temporarily unavailable.'],
} as const satisfies Record<string, readonly [number, string]>;

export type QsErrorCode = keyof typeof ERROR_CATALOG;

export class QsError extends Error {
  readonly code: QsErrorCode;
  readonly status: number;
  /**
   * For signature_not_matched: the string-to-sign the server computed (or the policy it checked), for the
   * access log only. Never sent to the client and never holds a secret.
   */
  stringToSign?: string;

  constructor(code: QsErrorCode, message?: string) {
    const [status, defaultMessage] = ERROR_CATALOG[code];
    super(message ?? defaultMessage);
    this.name = 'QsError';
    this.code = code;
    this.status = status;
  }
}

export interface QsErrorBody {
  code: string;
  message: string;
  request_id: string;
  url: string;
}

export function errorBody(error: QsError, requestId: string): QsErrorBody {
  return { code: error.code, message: error.message, request_id: requestId, url: ERROR_HELP_URL };
}
