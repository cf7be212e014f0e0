/**
 * Can the browser see ALL of an object's custom metadata? Across origins, a response header is readable
 * only when the bucket's CORS rule exposes it (ref §9.9), and a REPLACE save sends only what the console
 * could read — an unexposed `x-qs-meta-*` key would be dropped without anyone noticing. `*` in
 * expose_headers exposes everything to requests without cookies (the console never sends cookies).
 * Same-origin requests (the serve proxy) and the demo worker are not filtered.
 */
import { useQuery } from '@tanstack/react-query';
import type { QsClient } from '../../api/client.ts';
import { connectionId } from '../../api/connection.ts';
import { getBucketCors } from '../../api/cors/operations.ts';
import type { BucketCors } from '../../api/cors/schemas.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';

export type MetadataVisibility =
  | { kind: 'complete' }
  /** The matching rule exposes only these custom keys (lower-case, without prefix). */
  | { kind: 'partial'; exposedKeys: string[] }
  /** The CORS configuration could not be read (not the owner, or blocked). */
  | { kind: 'unknown' }
  | { kind: 'checking' };

function originMatches(pattern: string, origin: string): boolean {
  if (pattern === '*') return true;
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`, 'i');
  return regex.test(origin);
}

/** What a CORS configuration lets a page at `origin` read of `x-qs-meta-*` headers. */
export function visibilityFromCors(cors: BucketCors, origin: string): MetadataVisibility {
  const rule = cors.cors_rules.find((r) => originMatches(r.allowed_origin, origin));
  const exposed = (rule?.expose_headers ?? []).map((h) => h.trim().toLowerCase());
  if (exposed.includes('*')) return { kind: 'complete' };
  return { kind: 'partial', exposedKeys: exposed.filter((h) => h.startsWith('x-qs-meta-')).map((h) => h.slice('x-qs-meta-'.length)) };
}

function isCrossOrigin(client: QsClient, zone: string, bucket: string): boolean {
  if (typeof location === 'undefined') return false;
  return client.url({ zone, bucket }).url.origin !== location.origin;
}

export function useMetadataVisibility(zone: string, bucket: string): MetadataVisibility {
  const session = useConnectedSession();
  const client = useClient();
  const needed = session.mode !== 'demo' && isCrossOrigin(client, zone, bucket);
  const cors = useQuery({
    queryKey: ['metadata-visibility', connectionId(client.connection), zone, bucket],
    queryFn: ({ signal }) => getBucketCors(client, { zone, bucket }, { signal }),
    enabled: needed,
    retry: false,
    staleTime: 60_000,
  });
  if (!needed) return { kind: 'complete' };
  if (cors.isPending) return { kind: 'checking' };
  if (cors.isError) return { kind: 'unknown' };
  return visibilityFromCors(cors.data, location.origin);
}
