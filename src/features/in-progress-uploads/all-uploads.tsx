import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from '../../lib/router.tsx';
import { allUploadsKey, uploadListsKey, uploadsOfBucketsQuery } from '../../api/multipart/queries.ts';
import { uploadsHaveMore } from '../../api/multipart/operations.ts';
import { allBucketsQuery } from '../../api/service/queries.ts';
import { SkeletonRows } from '../../components/spinner.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Crumbs } from '../../components/ui/crumbs.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { bucketPath, readQueryParam } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { allUploadsHref, uploadsHref } from './location.ts';
import { AgeFilter, olderThan, PrefixFilter, UploadsTable, type UploadRowData } from './uploads-table.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './multipart.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/** A bucket whose uploads the table does not show in full. */
type PartialListing = { zone: string; bucket: string } & ({ kind: 'failed'; message: string } | { kind: 'more'; count: number });

/**
 * In-progress uploads in every bucket of the account (all zones), oldest first: one ListMultipartUploads
 * request per bucket (its first 1,000 uploads), a few buckets at a time, counted while they come in. The same table as one bucket's page: age filter, select and
 * abort many, and a key prefix filter (in the URL, `?prefix=`) asked of every bucket. A bucket whose listing fails (no permission, another owner) or that has more than one page is
 * named under the table with a link to its own page, so nothing is left out without saying so.
 */
export function AllUploads() {
  const { t, tp } = useI18n();
  const session = useConnectedSession();
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const prefix = readQueryParam(useLocation().search, 'prefix') ?? '';
  const bucketsQuery = useQuery({ ...allBucketsQuery(client), enabled: session.mode !== 'anonymous' });
  const buckets = useMemo(() => (bucketsQuery.data ?? []).map((b) => ({ zone: b.location, bucket: b.name })), [bucketsQuery.data]);
  const [settled, setSettled] = useState(0);
  const listings = useQuery({ ...uploadsOfBucketsQuery(client, buckets, prefix, setSettled), enabled: bucketsQuery.data !== undefined });
  const [minAgeDays, setMinAgeDays] = useState(0);

  const now = listings.dataUpdatedAt;
  const rows = useMemo(() => {
    const all: UploadRowData[] = [];
    for (const listing of listings.data ?? []) {
      if ('page' in listing) for (const upload of listing.page.uploads) all.push({ zone: listing.zone, bucket: listing.bucket, upload });
    }
    // Oldest first: what a clean-up looks for.
    return all.sort((a, b) => (a.upload.created ?? '').localeCompare(b.upload.created ?? ''));
  }, [listings.data]);
  const shown = useMemo(() => olderThan(rows, minAgeDays, now), [rows, minAgeDays, now]);
  const withUploads = new Set(rows.map((row) => `${row.zone}\u0000${row.bucket}`)).size;
  const partial = (listings.data ?? []).flatMap((listing): PartialListing[] => {
    if ('error' in listing) return [{ zone: listing.zone, bucket: listing.bucket, kind: 'failed', message: listing.error.message }];
    if (uploadsHaveMore(listing.page)) return [{ zone: listing.zone, bucket: listing.bucket, kind: 'more', count: listing.page.uploads.length }];
    return [];
  });

  if (session.mode === 'anonymous') {
    return (
      <section className="uploads-list" aria-labelledby="all-uploads-title">
        <PageHeader title={t('multipart.all.title')} titleId="all-uploads-title" />
        <p className="notice">{t('multipart.all.anonymous')}</p>
        {session.bucket ? <Link to={uploadsHref({ zone: session.bucket.zone, bucket: session.bucket.name })}>{t('multipart.all.openBucket', { bucket: session.bucket.name })}</Link> : null}
      </section>
    );
  }

  const loading = bucketsQuery.isPending || (bucketsQuery.data !== undefined && listings.isPending);
  return (
    <section className="uploads-list inspector" aria-labelledby="all-uploads-title">
      <PageHeader
        title={t('multipart.all.title')}
        titleId="all-uploads-title"
        crumbs={<Crumbs label={t('multipart.crumbs')} items={[{ id: 'buckets', label: t('multipart.crumbBuckets'), to: '/' }, { id: 'all', label: t('multipart.all.crumb') }]} />}
      />
      <UploadsTable
        rows={shown}
        now={now}
        prefix={prefix}
        showBucket
        onAborted={async (changed) => {
          for (const { bucket } of changed) void queryClient.invalidateQueries({ queryKey: uploadListsKey(client, bucket) });
          await queryClient.invalidateQueries({ queryKey: allUploadsKey(client) });
        }}
        filters={
          <>
            <PrefixFilter prefix={prefix} onChange={(value) => navigate(allUploadsHref(value), { replace: true })} />
            <AgeFilter value={minAgeDays} onChange={setMinAgeDays} />
          </>
        }
        notices={
          <>
            {bucketsQuery.isError ? (
              <p className="notice notice--error" role="alert">
                {t('multipart.all.bucketsFailed', { message: bucketsQuery.error.message })}
              </p>
            ) : null}
            {loading && !bucketsQuery.isError ? (
              <>
                <output data-testid="all-uploads-progress">{t('multipart.all.reading', { done: settled, total: buckets.length })}</output>
                <SkeletonRows label={t('app.loading')} columns={6} />
              </>
            ) : null}
            {!loading && bucketsQuery.data && buckets.length === 0 ? (
              <EmptyState
                title={t('multipart.all.noBuckets')}
                action={
                  <Link className={buttonClass()} to="/">
                    {t('multipart.crumbBuckets')}
                  </Link>
                }
              />
            ) : null}
            {!loading && buckets.length > 0 && shown.length === 0 ? (
              rows.length > 0 ? (
                <EmptyState title={tp('multipart.noneOlder', minAgeDays)} action={<Button onClick={() => setMinAgeDays(0)}>{t('multipart.anyAge')}</Button>} />
              ) : prefix ? (
                <EmptyState title={t('multipart.noneWithPrefix', { prefix })} action={<Button onClick={() => navigate(allUploadsHref(''), { replace: true })}>{t('multipart.clearPrefix')}</Button>} />
              ) : (
                <EmptyState title={t('multipart.all.none')} body={t('multipart.none.body')} />
              )
            ) : null}
          </>
        }
        footer={
          !loading && buckets.length > 0 ? (
            <>
              <p className="uploads-footer">
                <output data-testid="uploads-status">
                  {t('multipart.all.summary', { uploads: tp('multipart.loaded', rows.length), buckets: tp('multipart.all.buckets', withUploads), total: tp('multipart.all.buckets', buckets.length) })}
                </output>
                {minAgeDays > 0 ? <span className="muted"> · {tp('multipart.filteredLoaded', shown.length, { days: minAgeDays })}</span> : null}
              </p>
              {partial.length > 0 ? (
                <ul className="notice notice--warn all-uploads__partial" data-testid="all-uploads-partial">
                  {partial.map((item) => (
                    <li key={`${item.zone}\u0000${item.bucket}`}>
                      {item.kind === 'failed' ? t('multipart.all.failed', { bucket: item.bucket, message: item.message }) : tp('multipart.all.more', item.count, { bucket: item.bucket })}{' '}
                      <Link to={item.kind === 'failed' ? bucketPath(item.zone, item.bucket) : uploadsHref({ zone: item.zone, bucket: item.bucket, prefix })}>
                        {item.kind === 'failed' ? t('multipart.all.openBucketItself', { bucket: item.bucket }) : t('multipart.all.openBucket', { bucket: item.bucket })}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : null
        }
      />
    </section>
  );
}
