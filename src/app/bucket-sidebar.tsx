import { useQuery } from '@tanstack/react-query';
import ChevronDown from 'lucide-react/icons/chevron-down';
import Database from 'lucide-react/icons/database';
import Layers from 'lucide-react/icons/layers';
import ListChecks from 'lucide-react/icons/list-checks';
import { useId, useState } from 'react';
import { allBucketsQuery } from '../api/service/queries.ts';
import { groupByZone } from '../features/buckets/zones.ts';
import { bucketPath, ROUTE_PATHS } from '../hooks/browse-location.ts';
import { useConnectedSession } from '../hooks/session.ts';
import { useClient } from '../hooks/use-client.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { Link } from '../lib/router.tsx';
import { PublicBadge } from '../components/public-badge.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages the badge shows
import '../i18n/parts/buckets.ts';
import { visibleText } from '../lib/visible-text.ts';

/**
 * Buckets grouped by zone, each zone a disclosure (a button with aria-expanded), with a name filter. It reads
 * the same cached ListBuckets query as the bucket list page, so showing both costs one request.
 */
export function BucketSidebar({ current }: { current: { zone: string; bucket: string } | null }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  const client = useClient();
  const query = useQuery(allBucketsQuery(client));
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const filterId = useId();
  const needle = filter.trim().toLowerCase();
  const zones = query.data ? groupByZone(query.data, session.zones) : [];
  const shown = zones.map(([zone, buckets]) => [zone, needle ? buckets.filter((b) => b.name.toLowerCase().includes(needle)) : buckets] as const);
  const matches = shown.reduce((sum, [, buckets]) => sum + buckets.length, 0);

  return (
    <nav className="sidebar" aria-label={t('buckets.sidebar.label')}>
      <div className="sidebar__filter">
        <label htmlFor={filterId} className="visually-hidden">
          {t('buckets.sidebar.filter')}
        </label>
        <input id={filterId} type="search" placeholder={t('buckets.sidebar.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      {query.isError ? <p className="sidebar__note">{t('buckets.sidebar.unavailable')}</p> : null}
      {query.data && query.data.length === 0 ? <p className="sidebar__note">{t('buckets.sidebar.empty')}</p> : null}
      {query.data && query.data.length > 0 && matches === 0 ? <p className="sidebar__note">{t('buckets.sidebar.noMatch', { filter })}</p> : null}
      {shown.map(([zone, buckets]) => {
        if (needle && buckets.length === 0) return null;
        const open = needle !== '' || !collapsed.has(zone);
        const listId = `${filterId}-${zone}`;
        return (
          <section key={zone} className="sidebar__zone">
            <h2 className="sidebar__zone-title">
              <button
                type="button"
                aria-expanded={open}
                aria-controls={listId}
                onClick={() =>
                  setCollapsed((previous) => {
                    const next = new Set(previous);
                    if (next.has(zone)) next.delete(zone);
                    else next.add(zone);
                    return next;
                  })
                }
              >
                <ChevronDown aria-hidden="true" size={14} className="sidebar__chevron" />
                {t('buckets.sidebar.zone', { zone })}
                <span className="sidebar__count">{buckets.length}</span>
              </button>
            </h2>
            <ul id={listId} hidden={!open}>
              {buckets.map((bucket) => {
                const here = current?.zone === zone && current.bucket === bucket.name;
                return (
                  <li key={bucket.name}>
                    <Link to={bucketPath(zone, bucket.name)} aria-current={here ? 'page' : undefined} className="sidebar__bucket" dir="auto">
                      <Database aria-hidden="true" size={14} />
                      <span>{visibleText(bucket.name)}</span>
                      <PublicBadge zone={zone} bucket={bucket.name} />
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}

/** Views across every bucket, under the bucket list (not part of it). */
export function AcrossBuckets({ here, jobsHere = false }: { here: boolean; jobsHere?: boolean }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  if (session.mode === 'anonymous') return null;
  return (
    <nav className="sidebar__footer" aria-label={t('buckets.sidebar.across')}>
      <Link to={ROUTE_PATHS.allUploads} className="sidebar__bucket" aria-current={here ? 'page' : undefined}>
        <Layers aria-hidden="true" size={14} />
        <span>{t('buckets.sidebar.allUploads')}</span>
      </Link>
      <Link to={ROUTE_PATHS.jobs} className="sidebar__bucket" aria-current={jobsHere ? 'page' : undefined}>
        <ListChecks aria-hidden="true" size={14} />
        <span>{t('buckets.sidebar.jobs')}</span>
      </Link>
    </nav>
  );
}
