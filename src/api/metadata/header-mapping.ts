/** Headers ⇄ the metadata model: what a response's headers hold, and the headers a write sends. */
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS, type StandardHeader } from '../protocol/headers.ts';
import type { ObjectMetadata } from './types.ts';

// ---------------------------------------------------------------------------------------------------
// Headers ⇄ model

/**
 * Sets `record[key]` as an own, enumerable property. Metadata keys are data: `__proto__` and
 * `constructor` are legal keys (charset A-Za-z0-9-_.), and a plain assignment of `__proto__` would change
 * the object's prototype instead of storing the entry.
 */
export function setEntry(record: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

function isStandardHeader(name: string): name is StandardHeader {
  return (STANDARD_METADATA_HEADERS as readonly string[]).includes(name);
}

/**
 * Metadata from name/value pairs, e.g. PostObject form fields (ref §7) or `Headers` entries. Names are
 * case-insensitive (ref §6); repeated names are joined with ", " as `Headers` does. Values are kept
 * byte-for-byte (ref §6, inferred), even illegal ones, so the caller can validate them. A bare
 * `x-qs-meta-` name yields the key "" so validation reports it instead of silently dropping it.
 */

export function metadataFromEntries(entries: Iterable<readonly [string, string]>): ObjectMetadata {
  const standard: Partial<Record<StandardHeader, string>> = {};
  const custom: Record<string, string> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (isStandardHeader(name)) {
      const previous = standard[name];
      standard[name] = previous === undefined ? value : `${previous}, ${value}`;
    } else if (name.startsWith(CUSTOM_METADATA_PREFIX)) {
      const key = name.slice(CUSTOM_METADATA_PREFIX.length);
      const previous = Object.hasOwn(custom, key) ? custom[key] : undefined;
      setEntry(custom, key, previous === undefined ? value : `${previous}, ${value}`);
    }
  }
  return { standard, custom };
}

/** The five storable standard headers and all `x-qs-meta-*` headers of a request or response. */
export function metadataFromHeaders(headers: Headers): ObjectMetadata {
  return metadataFromEntries(headers.entries());
}

/**
 * Header map (lower-case names) for a PUT, REPLACE-copy or GET/HEAD replay. Standard headers come first
 * in STANDARD_METADATA_HEADERS order, then custom keys as given. Custom keys are lower-cased; if two
 * differ only in case the later one wins (they are the same HTTP header).
 */
export function metadataToHeaders(m: ObjectMetadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of STANDARD_METADATA_HEADERS) {
    const value = m.standard[name];
    if (value !== undefined) headers[name] = value;
  }
  for (const [key, value] of Object.entries(m.custom)) {
    setEntry(headers, CUSTOM_METADATA_PREFIX + key.toLowerCase(), value);
  }
  return headers;
}

/** Lower-cases custom keys (later wins on case collisions); values untouched. */
export function normalizeCustomMetadata(custom: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(custom)) setEntry(out, key.toLowerCase(), value);
  return out;
}
