import { useMemo } from 'react';
import { useLocation, useParams } from '../../lib/router.tsx';
import { bucketPath, readQueryParam, ROUTE_PATHS } from '../../hooks/browse-location.ts';

/**
 * The inspector's navigation state lives in the URL, so every view is a deep link:
 *
 *   /buckets/<zone>/<bucket>/uploads?prefix=videos/                       in-progress uploads, filtered
 *   /buckets/<zone>/<bucket>/uploads?upload=<id>&key=<key>&limit=1000&after=999   one upload, a page of parts
 *   /uploads?prefix=videos/                                               every bucket's, filtered
 *
 * `after` is the `part_number_marker` of the page shown (absent on the first page, ref §8.4); `limit` the
 * user's page size (1..1000).
 */
/** Parts per page when the URL names none (the user may choose 1..1000). */
export const DEFAULT_PARTS_LIMIT = 100;

export interface UploadsLocation {
  zone: string;
  bucket: string;
  prefix: string;
  upload: string | null;
  key: string | null;
  limit: number | null;
  after: number | null;
}

function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/g, '/');
}

export function uploadsHref(location: Pick<UploadsLocation, 'zone' | 'bucket'> & Partial<UploadsLocation>): string {
  const params: string[] = [];
  if (location.prefix) params.push(`prefix=${encodeQueryValue(location.prefix)}`);
  if (location.upload) params.push(`upload=${encodeQueryValue(location.upload)}`);
  if (location.key !== undefined && location.key !== null) params.push(`key=${encodeQueryValue(location.key)}`);
  if (location.limit !== undefined && location.limit !== null) params.push(`limit=${location.limit}`);
  if (location.after !== undefined && location.after !== null) params.push(`after=${location.after}`);
  const base = `${bucketPath(location.zone, location.bucket)}/uploads`;
  return params.length ? `${base}?${params.join('&')}` : base;
}

/** The in-progress uploads of every bucket, optionally only keys starting with `prefix`. */
export function allUploadsHref(prefix: string): string {
  return prefix ? `${ROUTE_PATHS.allUploads}?prefix=${encodeQueryValue(prefix)}` : ROUTE_PATHS.allUploads;
}

function intParam(search: string, name: string): number | null {
  const raw = readQueryParam(search, name);
  if (raw === null || !/^\d{1,6}$/.test(raw)) return null;
  return Number(raw);
}

export function parseUploadsLocation(params: Readonly<Record<string, string | undefined>>, search: string): UploadsLocation {
  return {
    zone: params['zone'] ?? '',
    bucket: params['bucket'] ?? '',
    prefix: readQueryParam(search, 'prefix') ?? '',
    upload: readQueryParam(search, 'upload') || null,
    // An object key is never empty (1 to 1023 bytes, ref §1.3): `key=` names no upload, so the bucket's list shows.
    key: readQueryParam(search, 'key') || null,
    limit: intParam(search, 'limit'),
    after: intParam(search, 'after'),
  };
}

/** The parts per page a location asks for: its `limit` when it is 1..1000, else the default. */
export function partsLimitOf(location: Pick<UploadsLocation, 'limit'>): number {
  return location.limit !== null && location.limit >= 1 && location.limit <= 1000 ? location.limit : DEFAULT_PARTS_LIMIT;
}

export function useUploadsLocation(): UploadsLocation {
  const params = useParams();
  const { search } = useLocation();
  return useMemo(() => parseUploadsLocation(params, search), [params, search]);
}
