/** Object key checks for destination fields (ref §1.3: 1..1023 bytes of UTF-8; no leading '/'). */
import { MAX_KEY_BYTES } from '../../api/protocol/limits.ts';

export type KeyProblem = 'empty' | 'tooLong' | 'leadingSlash';

export function destinationKeyProblem(key: string): KeyProblem | null {
  if (key === '') return 'empty';
  if (key.startsWith('/')) return 'leadingSlash';
  if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) return 'tooLong';
  return null;
}

/** 'dir/name.ext' → 'dir/name-copy.ext' (a key that does not overwrite the source by default). */
export function copyKeyFor(key: string): string {
  const slash = key.lastIndexOf('/');
  const dir = key.slice(0, slash + 1);
  const name = key.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${dir}${name}-copy`;
  return `${dir}${name.slice(0, dot)}-copy${name.slice(dot)}`;
}

/** The key of a new folder under `prefix` (ref §1.3: a zero-byte object whose key ends in '/'). */
export function folderKey(prefix: string, name: string): string {
  const trimmed = name.replace(/^\/+/, '');
  return `${prefix}${trimmed.endsWith('/') ? trimmed : `${trimmed}/`}`;
}
