/**
 * Object metadata: the one model of QingStor's storable headers and custom `x-qs-meta-*` metadata,
 * shared by the console (forms, editor) and the mock (request validation), so the two can never
 * disagree about what is legal. Rules: reference §6 (limits), §5.1 (the five storable standard
 * headers), §11.6 (lower-case names).
 *
 * Runs unchanged in the browser and in Node 24 with type stripping: no JSX, no enums, no path aliases.
 */
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS, type StandardHeader } from '../protocol/headers.ts';
import { METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES } from '../protocol/limits.ts';

// The protocol facts this model is built on live in src/api/protocol/; re-exported for its many users.
export { CUSTOM_METADATA_PREFIX, METADATA_KEY_MAX_BYTES, METADATA_TOTAL_MAX_BYTES, STANDARD_METADATA_HEADERS, type StandardHeader };
export { formatHttpDate, parseHttpDate } from '../protocol/http-date.ts';
// The model's types, its rules, its mapping to and from headers and its zod schemas live beside it;
// this module is their one door.
export * from './types.ts';
export * from './rules.ts';
export * from './header-mapping.ts';
export * from './schemas.ts';
