/**
 * One listing page (ListObjects with delimiter '/', ref §9.5) turned into display rows. Keys and common
 * prefixes arrive as two separately sorted arrays that share the page; merging them by code point
 * (= UTF-8 byte order, the emulator's order) keeps folders where they belong, and because every later
 * page starts after `next_marker`, concatenating merged pages stays ordered.
 */
export interface FolderRow {
  kind: 'folder';
  /** Full prefix, ending in the delimiter. */
  key: string;
  /** What to show: the prefix relative to the current folder, without the trailing '/'. */
  name: string;
}

export interface ObjectRow {
  kind: 'object';
  key: string;
  name: string;
  size: number;
  mimeType: string;
  /** Unix seconds (ListObjects `modified`), or undefined when the server omitted it. */
  modified: number | undefined;
  etag: string;
}

export type Row = FolderRow | ObjectRow;

export interface ListedKey {
  key: string;
  size?: number;
  mime_type?: string;
  modified?: number;
  etag?: string;
}

/** Compares by Unicode code point, which is the order of the UTF-8 bytes. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (0xD800–0xDFFF) encode code points above 0xFFFF, which sort after all BMP chars.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

function relativeName(key: string, prefix: string): string {
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

export function pageToRows(page: { keys: readonly ListedKey[]; common_prefixes: readonly string[] }, prefix: string): Row[] {
  const rows: Row[] = [];
  const { keys, common_prefixes: folders } = page;
  let k = 0;
  let f = 0;
  while (k < keys.length || f < folders.length) {
    const key = keys[k];
    const folder = folders[f];
    if (folder !== undefined && (key === undefined || compareCodePoints(folder, key.key) <= 0)) {
      const name = relativeName(folder, prefix);
      rows.push({ kind: 'folder', key: folder, name: name.endsWith('/') ? name.slice(0, -1) : name });
      f++;
    } else if (key !== undefined) {
      // A zero-byte "dir/" key equal to the prefix is the folder marker itself (ref §9.5): not a child.
      if (key.key !== prefix) {
        rows.push({
          kind: 'object',
          key: key.key,
          name: relativeName(key.key, prefix),
          size: key.size ?? 0,
          mimeType: key.mime_type ?? '',
          modified: key.modified,
          etag: key.etag ?? '',
        });
      }
      k++;
    }
  }
  return rows;
}

export type SortColumn = 'name' | 'size' | 'type' | 'modified';
export interface SortOrder {
  column: SortColumn;
  descending: boolean;
}

function compareRows(a: Row, b: Row, column: SortColumn): number {
  switch (column) {
    case 'name':
      return compareCodePoints(a.name, b.name);
    case 'size':
      return (a.kind === 'object' ? a.size : 0) - (b.kind === 'object' ? b.size : 0);
    case 'type':
      return compareCodePoints(a.kind === 'object' ? a.mimeType : '', b.kind === 'object' ? b.mimeType : '');
    case 'modified':
      return (a.kind === 'object' ? (a.modified ?? 0) : 0) - (b.kind === 'object' ? (b.modified ?? 0) : 0);
  }
}

/**
 * The loaded rows in another order than the server's key order (`null` keeps that order). Folders stay
 * before objects in either direction; ties keep key order (the sort is stable), so the result is the same
 * every time for the same rows.
 */
export function sortRows(rows: readonly Row[], order: SortOrder | null): readonly Row[] {
  if (order === null) return rows;
  const sign = order.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      if (a.row.kind !== b.row.kind) return a.row.kind === 'folder' ? -1 : 1;
      return sign * compareRows(a.row, b.row, order.column) || a.index - b.index;
    })
    .map(({ row }) => row);
}

/** The object keys from index `from` to `to` (either order, inclusive): a shift-click range. Folders are skipped. */
export function objectKeysBetween(rows: readonly Row[], from: number, to: number): string[] {
  const start = Math.max(0, Math.min(from, to));
  const end = Math.min(rows.length - 1, Math.max(from, to));
  const keys: string[] = [];
  for (let i = start; i <= end; i++) {
    const row = rows[i];
    if (row?.kind === 'object') keys.push(row.key);
  }
  return keys;
}
