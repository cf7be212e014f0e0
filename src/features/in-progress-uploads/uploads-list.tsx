import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { browseHref } from '../../hooks/browse-location.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { listMultipartUploadsInfiniteQuery, uploadListsKey } from '../../api/multipart/queries.ts';
import { SkeletonRows } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { AutoAbortRule } from './auto-abort-rule.tsx';
import { DEFAULT_PARTS_LIMIT, uploadsHref } from './location.ts';
import { UploadErrorNotice } from './upload-error.tsx';
import { AgeFilter, olderThan, PrefixFilter, UploadsTable } from './uploads-table.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/** Uploads per ListMultipartUploads request (ref §8.7: default 200, max 1000). */
export const UPLOADS_PAGE_LIMIT = 50;

export function UploadsList({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useInfiniteQuery(listMultipartUploadsInfiniteQuery(client, { zone, bucket, prefix, limit: UPLOADS_PAGE_LIMIT }));
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.uploads.map((upload) => ({ zone, bucket, upload }))) ?? [], [query.data, zone, bucket]);
  const listHref = uploadsHref({ zone, bucket, prefix });
  const [minAgeDays, setMinAgeDays] = useState<number>(0);
  // The clock the age filter and the Age column read: when the list was last loaded.
  const now = query.dataUpdatedAt;
  const shown = useMemo(() => olderThan(rows, minAgeDays, now), [rows, minAgeDays, now]);

  return (
    <>
      <AutoAbortRule zone={zone} bucket={bucket} />
      <section aria-labelledby="uploads-list-title" className="uploads-list">
        <h2 id="uploads-list-title">{t('multipart.listTitle')}</h2>
        <UploadsTable
          rows={query.data ? shown : []}
          now={now}
          prefix={prefix}
          showBucket={false}
          onAborted={() => queryClient.invalidateQueries({ queryKey: uploadListsKey(client, bucket) })}
          filters={
            <>
              <PrefixFilter prefix={prefix} onChange={(value) => navigate(uploadsHref({ zone, bucket, prefix: value }), { replace: true })} />
              <AgeFilter value={minAgeDays} onChange={setMinAgeDays} />
            </>
          }
          notices={
            <>
              {query.isError && !query.data ? (
                <>
                  <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.refetch()} />
                  <OpenUploadForm onOpen={(key, uploadId) => navigate(uploadsHref({ zone, bucket, prefix, key, upload: uploadId, limit: DEFAULT_PARTS_LIMIT }))} />
                </>
              ) : null}
              {query.isPending ? <SkeletonRows label={t('app.loading')} columns={5} /> : null}
              {query.data && shown.length === 0 ? (
                rows.length > 0 ? (
                  <EmptyState title={tp('multipart.noneOlder', minAgeDays)} action={<Button onClick={() => setMinAgeDays(0)}>{t('multipart.anyAge')}</Button>} />
                ) : prefix ? (
                  <EmptyState title={t('multipart.noneWithPrefix', { prefix })} action={<Button onClick={() => navigate(uploadsHref({ zone, bucket, prefix: '' }), { replace: true })}>{t('multipart.clearPrefix')}</Button>} />
                ) : (
                  <EmptyState
                    title={t('multipart.none')}
                    body={t('multipart.none.body')}
                    action={
                      <Link className={buttonClass()} to={browseHref({ zone, bucket })}>
                        {t('multipart.openBucket')}
                      </Link>
                    }
                  />
                )
              ) : null}
            </>
          }
          footer={
            query.data ? (
              <>
                <p className="uploads-footer">
                  <output data-testid="uploads-status">
                    {query.hasNextPage ? tp('multipart.loadedMore', rows.length) : tp('multipart.loaded', rows.length)}
                  </output>
                  {minAgeDays > 0 ? <span className="muted"> · {tp('multipart.filteredLoaded', shown.length, { days: minAgeDays })}</span> : null}{' '}
                  {query.hasNextPage ? (
                    <button type="button" className="button button--small" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                      {query.isFetchingNextPage ? t('app.loading') : t('multipart.loadMore')}
                    </button>
                  ) : null}
                </p>
                {query.isFetchNextPageError ? <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.fetchNextPage()} /> : null}
              </>
            ) : null
          }
        />
      </section>
    </>
  );
}

/** Anonymous users cannot list uploads (ref §10) but may read the parts of one they know. */
function OpenUploadForm({ onOpen }: { onOpen: (key: string, uploadId: string) => void }) {
  const { t } = useI18n();
  const keyId = useId();
  const idId = useId();
  const [key, setKey] = useState('');
  const [uploadId, setUploadId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key !== '' && uploadId.trim() !== '') onOpen(key, uploadId.trim());
  };
  return (
    <form className="notice" onSubmit={submit}>
      <p>{t('multipart.openByIdHint')}</p>
      <div className="inline-form__fields">
        <label htmlFor={keyId}>{t('multipart.key')}</label>
        <input id={keyId} value={key} onChange={(e) => setKey(e.target.value)} dir="auto" spellCheck={false} required />
        <label htmlFor={idId}>{t('multipart.uploadId')}</label>
        <input id={idId} value={uploadId} onChange={(e) => setUploadId(e.target.value)} spellCheck={false} required />
        <button type="submit" className="button">
          {t('multipart.openById')}
        </button>
      </div>
    </form>
  );
}
