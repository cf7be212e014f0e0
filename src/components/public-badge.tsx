import { useQuery } from '@tanstack/react-query';
import { bucketPublicReadQuery } from '../api/acl/queries.ts';
import { useClient } from '../hooks/use-client.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { Badge } from './ui/badge.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../i18n/parts/buckets.ts';

/** "Public" beside a bucket's name when anyone may read its objects; nothing otherwise (or while unknown). */
export function PublicBadge({ zone, bucket }: { zone: string; bucket: string }) {
  const { t } = useI18n();
  const client = useClient();
  const isPublic = useQuery(bucketPublicReadQuery(client, { zone, bucket }));
  if (isPublic.data !== true) return null;
  return (
    <Badge tone="public" title={t('buckets.publicHint')}>
      {t('buckets.public')}
    </Badge>
  );
}
