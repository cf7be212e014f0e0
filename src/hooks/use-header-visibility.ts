import { useQuery } from '@tanstack/react-query';
import type { QsClient } from '../api/client.ts';
import { bucketCorsQuery } from '../api/cors/queries.ts';
import { visibilityFromCors, type HeaderVisibility } from '../api/cors/visibility.ts';
import { useConnectedSession } from './session.ts';
import { useClient } from './use-client.ts';

function isCrossOrigin(client: QsClient, zone: string, bucket: string): boolean {
  if (typeof location === 'undefined') return false;
  return client.url({ zone, bucket }).url.origin !== location.origin;
}

/**
 * Which of a bucket's response headers this page can read (src/api/cors/visibility.ts). Demo mode and
 * the same-origin proxy see everything; across origins it depends on the bucket's CORS rule, read with
 * the same query the CORS screens use, so applying the console's rule refreshes it.
 */
export function useHeaderVisibility(zone: string, bucket: string): HeaderVisibility {
  const session = useConnectedSession();
  const client = useClient();
  const demo = session.mode === 'demo';
  const needed = !demo && isCrossOrigin(client, zone, bucket);
  const cors = useQuery({ ...bucketCorsQuery(client, { zone, bucket }), enabled: needed, retry: false, staleTime: 60_000 });
  if (demo) return { kind: 'all', reason: 'demo' };
  if (!needed) return { kind: 'all', reason: 'same-origin' };
  if (cors.isPending) return { kind: 'checking' };
  if (cors.isError) return { kind: 'unknown' };
  return visibilityFromCors(cors.data, location.origin);
}
