/** Range header semantics of ref §3: one `bytes=` range; multi-range and unsatisfiable ranges are 416. */
import { QsError } from '../errors.ts';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** Returns null when no Range header was sent; throws `invalid_range` (416) when it cannot be served. */
export function parseRange(header: string | null, size: number): ByteRange | null {
  if (header === null) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) throw new QsError('invalid_range'); // also covers multi-range lists (ref §3, inferred)
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') throw new QsError('invalid_range');
  if (first === '') {
    // Suffix range: the last n bytes, the whole object when n > size (ref §3).
    const n = Number(last);
    if (n === 0 || size === 0) throw new QsError('invalid_range');
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) throw new QsError('invalid_range');
  if (last === '') return { start, end: size - 1 };
  const end = Number(last);
  if (end < start) throw new QsError('invalid_range');
  // ref §3 (inferred): an end beyond the object is clamped.
  return { start, end: Math.min(end, size - 1) };
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}
