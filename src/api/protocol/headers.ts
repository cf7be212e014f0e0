/** Header names of the protocol, lower-case (ref §11.6). One definition for the console and the emulator. */

/** The only standard headers QingStor stores and replays on GET/HEAD (ref §5.1, §6). */
export const STANDARD_METADATA_HEADERS = [
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-type',
  'expires',
] as const;
export type StandardHeader = (typeof STANDARD_METADATA_HEADERS)[number];

/** Prefix of custom metadata headers (ref §6); metadata keys are stored without it, lower-case. */
export const CUSTOM_METADATA_PREFIX = 'x-qs-meta-';

/** The header name of a custom metadata key (given without the prefix); lower-cased (ref §11.6). */
export function customMetadataHeader(key: string): string {
  return `${CUSTOM_METADATA_PREFIX}${key.toLowerCase()}`;
}

/** Headers that describe one connection hop, not the request (RFC 9110 §7.6.1): never forwarded. */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
