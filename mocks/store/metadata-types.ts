/** The store's storage classes and object metadata (see types.ts for the conventions of every store type). */
import type { StandardHeader } from '../../src/api/protocol/headers.ts';

export const STORAGE_CLASSES = ['STANDARD', 'STANDARD_IA'] as const;
export type StorageClass = (typeof STORAGE_CLASSES)[number];

/** The five storable standard headers (ref §6), lower-case: STANDARD_METADATA_HEADERS of the protocol module. */
export type StandardHeaderName = StandardHeader;

/**
 * Object metadata as the handlers pass it in; structurally identical to `ObjectMetadata` of
 * src/api/metadata/types.ts, so `metadataFromHeaders(request.headers)` can be passed directly.
 * Custom keys are WITHOUT the `x-qs-meta-` prefix; the Store lower-cases them (ref §11.6).
 * Validation of the custom metadata rules (ref §6) is the handlers' job (checkCustomMetadata).
 */
export interface MetadataInput {
  standard: Partial<Record<StandardHeaderName, string>>;
  custom: Record<string, string>;
}

/** Stored metadata: `standard['content-type']` is always present (default application/octet-stream, ref §3). */
export interface StoredMetadata {
  readonly standard: Readonly<Partial<Record<StandardHeaderName, string>>> & { readonly 'content-type': string };
  readonly custom: Readonly<Record<string, string>>;
}
