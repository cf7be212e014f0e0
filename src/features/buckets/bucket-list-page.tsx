import { useQuery } from '@tanstack/react-query';
import Database from 'lucide-react/icons/database';
import Search from 'lucide-react/icons/search';
import SearchX from 'lucide-react/icons/search-x';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { allBucketsQuery } from '../../api/service/queries.ts';
import type { Bucket } from '../../api/service/schemas.ts';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { PublicBadge } from '../../components/public-badge.tsx';
import { SkeletonRows } from '../../components/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DataTable, type SortState } from '../../components/ui/data-table.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { bucketPath } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { groupByZone } from './zones.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/buckets.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/buckets.ts';
import { visibleText } from '../../lib/visible-text.ts';

/**
 * The bucket list: one table of every zone's buckets (name, zone, access, created) with its count, a search
 * and the page's one primary action (`create`, composed in by the route) in the header.
 */
export function BucketListPage({ create }: { create?: ReactNode }) {
  const { t, tp, formatDateTime } = useI18n();
  const session = useConnectedSession();
  const client = useClient();
  const query = useQuery(allBucketsQuery(client));
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortState>({ column: 'name', direction: 'ascending' });
  const zones = query.data ? groupByZone(query.data, session.zones) : [];
  const all = zones.flatMap(([, buckets]) => buckets);
  const needle = search.trim().toLowerCase();
  const shown = sortBuckets(needle ? all.filter((bucket) => bucket.name.includes(needle)) : all, sort);
  const count = query.data ? (needle ? `${shown.length} / ${tp('buckets.count', all.length)}` : tp('buckets.count', all.length)) : undefined;

  return (
    <section className="buckets">
      <PageHeader
        title={t('buckets.title')}
        count={count}
        actions={
          <>
            {query.data && all.length > 0 ? (
              <search className="buckets__search">
                <Search aria-hidden="true" size={16} className="buckets__search-icon" />
                <input type="search" aria-label={t('buckets.search')} placeholder={t('buckets.search')} value={search} onChange={(e) => setSearch(e.target.value)} spellCheck={false} autoComplete="off" />
              </search>
            ) : null}
            {create}
          </>
        }
      />
      {query.isPending ? <SkeletonRows label={t('app.loading')} columns={4} /> : null}
      {query.isError ? (
        <>
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} corsHelp={<CorsHelp />} />
          <p>{t('buckets.listUnavailable')}</p>
        </>
      ) : null}
      {query.data ? (
        <DataTable
          label={t('buckets.title')}
          columns={[
            {
              id: 'name',
              header: t('buckets.name'),
              sortable: true,
              rowHeader: true,
              renderCell: (bucket) => (
                <Link className="plain-link buckets__name" to={bucketPath(bucket.location, bucket.name)} dir="auto">
                  <Database aria-hidden="true" size={14} />
                  {visibleText(bucket.name)}
                </Link>
              ),
            },
            { id: 'zone', header: t('buckets.zoneColumn'), sortable: true, width: '8rem', renderCell: (bucket) => bucket.location },
            { id: 'access', header: t('buckets.access'), width: '8rem', renderCell: (bucket) => <PublicBadge zone={bucket.location} bucket={bucket.name} /> },
            {
              id: 'created',
              header: t('buckets.created'),
              sortable: true,
              width: '12rem',
              renderCell: (bucket) => (bucket.created ? formatDateTime(new Date(bucket.created), 'short') : t('common.none')),
            },
          ]}
          rows={shown}
          rowKey={(bucket) => `${bucket.location}/${bucket.name}`}
          sort={sort}
          onSort={setSort}
          empty={
            needle ? (
              <EmptyState
                icon={<SearchX size={28} />}
                title={t('buckets.noMatch', { search: search.trim() })}
                body={t('buckets.noMatchHint')}
                action={<Button onClick={() => setSearch('')}>{t('buckets.clearSearch')}</Button>}
              />
            ) : (
              <EmptyState icon={<Database size={28} />} title={t('buckets.empty')} body={t('buckets.emptyHint')} action={create} />
            )
          }
        />
      ) : null}
      {query.isError || query.data?.length === 0 ? <OpenBucketForm zones={session.zones} /> : null}
    </section>
  );
}

function sortBuckets(buckets: readonly Bucket[], sort: SortState): Bucket[] {
  const value = (bucket: Bucket) => (sort.column === 'zone' ? `${bucket.location}/${bucket.name}` : sort.column === 'created' ? (bucket.created ?? '') : bucket.name);
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...buckets].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    return x < y ? -sign : x > y ? sign : 0;
  });
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{4,61}[a-z0-9]$/;

/** Needed where the bucket list is not readable (CORS on the service host, or a key without that right). */
function OpenBucketForm({ zones }: { zones: string[] }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const unique = [...new Set(zones)];
  const [zone, setZone] = useState(unique[0] ?? '');
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState(false);
  const zoneId = useId();
  const nameId = useId();
  const errorId = useId();
  const listId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!BUCKET_NAME.test(trimmed) || !zone.trim()) {
      setInvalid(true);
      return;
    }
    navigate(bucketPath(zone.trim(), trimmed));
  };

  return (
    <form className="inline-form" onSubmit={onSubmit} aria-label={t('buckets.openByName')} noValidate>
      <h2>{t('buckets.openByName')}</h2>
      <p className="field__description">{t('buckets.openByNameHint')}</p>
      <div className="inline-form__fields">
        <label htmlFor={zoneId}>{t('buckets.openByNameZone')}</label>
        <input id={zoneId} list={listId} value={zone} onChange={(e) => setZone(e.target.value)} size={8} />
        <datalist id={listId}>
          {unique.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </datalist>
        <label htmlFor={nameId}>{t('buckets.openByNameBucket')}</label>
        <input
          id={nameId}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setInvalid(false);
          }}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit">{t('buckets.open')}</Button>
      </div>
      {invalid ? (
        <p id={errorId} className="field-error">
          {t('connect.error.bucket')}
        </p>
      ) : null}
    </form>
  );
}
