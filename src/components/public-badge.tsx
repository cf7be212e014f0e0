import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { bucketPublicReadQuery } from '../api/acl/queries.ts';
import type { QsClient } from '../api/client.ts';
import { DEMO_ENDPOINT } from '../api/connection.ts';
import { hasListedBucket } from '../api/objects/queries.ts';
import { useClient } from '../hooks/use-client.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { Badge } from './ui/badge.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../i18n/parts/buckets.ts';

/**
 * A browser may only read a bucket's ACL when nothing stands between it and the bucket (the demo, a
 * same-origin proxy) or once a listing of that bucket has succeeded (its CORS admits this page). Asking any
 * earlier logs a CORS failure in the console for every bucket without CORS, so the badge waits.
 */
function useMayAskAcl(client: QsClient, bucket: string): boolean {
  const queryClient = useQueryClient();
  const direct = client.connection.endpoint === DEMO_ENDPOINT || client.connection.proxy !== undefined;
  const listed = useSyncExternalStore(
    (notify) => queryClient.getQueryCache().subscribe(notify),
    () => hasListedBucket(queryClient, client, bucket),
  );
  return direct || listed;
}

/** "Public" beside a bucket's name when anyone may read its objects; nothing otherwise (or while unknown). */
export function PublicBadge({ zone, bucket }: { zone: string; bucket: string }) {
  const { t } = useI18n();
  const client = useClient();
  const enabled = useMayAskAcl(client, bucket);
  const isPublic = useQuery({ ...bucketPublicReadQuery(client, { zone, bucket }), enabled });
  if (isPublic.data !== true) return null;
  return (
    <Badge tone="public" title={t('buckets.publicHint')}>
      {t('buckets.public')}
    </Badge>
  );
}
