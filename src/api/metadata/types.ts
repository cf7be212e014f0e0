/** The metadata model's types: an object's metadata and the rules it can break (see model.ts). */
import type { StandardHeader } from '../protocol/headers.ts';

export interface ObjectMetadata {
  standard: Partial<Record<StandardHeader, string>>;
  /** Keys lower-case, WITHOUT the `x-qs-meta-` prefix; values exactly as stored. */
  custom: Record<string, string>;
}

/**
 * Stable identifiers of every rule, so the UI can translate a violation without parsing messages.
 * The first five are the custom-metadata rules of ref §6 (checked by `checkCustomMetadata`, and by the
 * mock). The others exist only on the console side (form schemas, edit.ts): a Record cannot hold
 * duplicate keys, the server stores standard headers verbatim, and HTTP strips surrounding whitespace
 * from any header value before the server sees it — a form should still stop the user early.
 */
export type MetadataRule =
  | 'key_empty'
  | 'key_charset'
  | 'key_too_long'
  | 'value_not_printable'
  | 'total_too_large'
  | 'key_duplicate'
  | 'value_surrounding_whitespace'
  | 'standard_not_printable'
  | 'expires_not_http_date'
  | 'content_encoding_syntax'
  | 'cache_control_syntax'
  | 'content_disposition_syntax'
  | 'content_type_syntax';

export type MetadataViolationCode = 'metadata_too_large' | 'invalid_argument';

export interface MetadataViolation {
  /** The QingStor error code the server answers with (ref §6; `invalid_argument` is inferred, §12). */
  code: MetadataViolationCode;
  rule: MetadataRule;
  /** Custom key (without prefix) or standard header name the violation is about; absent for the total. */
  key?: string;
  /** Plain-English explanation; the UI should translate `rule` instead of showing this verbatim. */
  message: string;
  /** Measured size in bytes, for the size rules. */
  bytes?: number;
  /** Limit in bytes, for the size rules. */
  limit?: number;
}
