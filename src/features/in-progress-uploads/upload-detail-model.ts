import type { ObjectPart } from '../../api/multipart/schemas.ts';
import type { PartScan } from './part-scan.ts';

/**
 * Where one page of an upload's parts sits among all of them: whether a next page exists, and, once every
 * part is counted (`scan`), which page of how many this is. ref §8.4 has no has_more: a full page may be the
 * last one, which only the scan can tell.
 */
export interface PartsPagePosition {
  /** The last part number of the whole upload, once counted. */
  lastPartNumber: number | undefined;
  hasNext: boolean;
  /** 0-based, or null before the count (or for an empty page). */
  pageIndex: number | null;
  pageCount: number | null;
}

export function partsPagePosition(parts: readonly ObjectPart[], limit: number, scan: PartScan | undefined, isPlaceholder: boolean): PartsPagePosition {
  const lastOnPage = parts.at(-1)?.part_number;
  const lastPartNumber = scan && scan.numbers.length > 0 ? scan.numbers[scan.numbers.length - 1] : undefined;
  const hasNext = !isPlaceholder && parts.length >= limit && lastOnPage !== undefined && (scan === undefined || lastOnPage !== lastPartNumber);
  const first = parts[0];
  const pageIndex = scan && first !== undefined ? Math.floor(scan.numbers.indexOf(first.part_number) / limit) : null;
  const pageCount = scan ? Math.max(1, Math.ceil(scan.numbers.length / limit)) : null;
  return { lastPartNumber, hasNext, pageIndex, pageCount };
}

/**
 * The marker of the previous page (null: page 1), or undefined on page 1 itself. Exact from the counted part
 * list when there is one, else the marker of the page visited before this one (`history`).
 */
export function previousPageMarker(after: number | null, parts: readonly ObjectPart[], limit: number, scan: PartScan | undefined, history: ReadonlyArray<number | null>): number | null | undefined {
  if (after === null) return undefined;
  const first = parts[0];
  if (scan && first !== undefined) {
    const index = scan.numbers.indexOf(first.part_number);
    const start = Math.max(0, index - limit);
    return start === 0 ? null : (scan.numbers[start - 1] ?? null);
  }
  return history.length > 0 ? (history.at(-1) ?? null) : null;
}

/**
 * The marker of the page that holds part `wanted` (or the next present part, if it is missing): aligned with
 * the pages above once every part is counted, else the page starting at that part.
 */
export function jumpMarker(wanted: number, limit: number, scan: PartScan | undefined): number | null {
  if (scan) {
    const numbers = scan.numbers;
    let index = numbers.findIndex((n) => n >= wanted);
    if (index < 0) index = Math.max(0, numbers.length - 1);
    const start = Math.floor(index / limit) * limit;
    return start === 0 ? null : (numbers[start - 1] ?? null);
  }
  return wanted <= 0 ? null : wanted - 1;
}

/** The folder an object's key sits in ('' at the bucket's root), where a completed upload is shown. */
export function parentOf(key: string): string {
  const cut = key.lastIndexOf('/');
  return cut < 0 ? '' : key.slice(0, cut + 1);
}

/** The most common size among the parts of a page (ties: the larger), the size the others are compared with. */
export function typicalSize(parts: readonly ObjectPart[]): number | undefined {
  const counts = new Map<number, number>();
  for (const part of parts) if (part.size !== undefined) counts.set(part.size, (counts.get(part.size) ?? 0) + 1);
  let best: number | undefined;
  let bestCount = 0;
  for (const [size, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && size > best)) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}

/** The Complete request's part list: each part's number with its ETag (none when the listing had none). */
export function completeParts(scan: Pick<PartScan, 'numbers' | 'etags'>): Array<{ partNumber: number; etag: string | undefined }> {
  return Array.from(scan.numbers, (n, i) => ({ partNumber: n, etag: scan.etags[i] || undefined }));
}
