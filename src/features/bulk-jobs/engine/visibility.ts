import type { QsClient } from '../../../api/client.ts';
import { getBucketCors } from '../../../api/cors/operations.ts';
import { visibilityFromCors, type HeaderVisibility } from '../../../api/cors/visibility.ts';

/**
 * What a job's page may read of a bucket's headers (src/api/cors/visibility.ts), asked when a pass of an
 * edit or undo starts, as the editor's hook asks it: the demo and the same-origin proxy see everything;
 * across origins the bucket's CORS rule decides, and an unreadable configuration is 'unknown' (which
 * blocks every save: a hidden header would read as absent and be dropped).
 */
export async function jobVisibility(client: QsClient, demo: boolean, zone: string, bucket: string): Promise<HeaderVisibility> {
  if (demo) return { kind: 'all', reason: 'demo' };
  const origin = typeof location === 'undefined' ? undefined : location.origin;
  if (origin === undefined || client.url({ zone, bucket }).url.origin === origin) return { kind: 'all', reason: 'same-origin' };
  try {
    return visibilityFromCors(await getBucketCors(client, { zone, bucket }), origin);
  } catch {
    return { kind: 'unknown' };
  }
}
