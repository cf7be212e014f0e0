import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { listMultipartUploadsInfiniteQuery } from '../../api/multipart/queries.ts';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { DEFAULT_PARTS_LIMIT } from './upload-detail.tsx';
import { uploadsHref } from './location.ts';
import { UploadErrorNotice } from './upload-error.tsx';

/** Uploads per ListMultipartUploads request (ref §8.7: default 200, max 1000). */
export const UPLOADS_PAGE_LIMIT = 50;
const FILTER_DEBOUNCE_MS = 250;

export function UploadsList({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t, formatDateTime } = useI18n();
  const client = useClient();
  const navigate = useNavigate();
  const query = useInfiniteQuery(listMultipartUploadsInfiniteQuery(client, { zone, bucket, prefix, limit: UPLOADS_PAGE_LIMIT }));
  const uploads = query.data?.pages.flatMap((page) => page.uploads) ?? [];
  const listHref = uploadsHref({ zone, bucket, prefix });

  return (
    <section aria-labelledby="uploads-list-title">
      <h2 id="uploads-list-title">{t('multipart.listTitle')}</h2>
      <PrefixFilter prefix={prefix} onChange={(value) => navigate(uploadsHref({ zone, bucket, prefix: value }), { replace: true })} />
      {query.isError && !query.data ? (
        <>
          <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.refetch()} />
          <OpenUploadForm onOpen={(key, uploadId) => navigate(uploadsHref({ zone, bucket, prefix, key, upload: uploadId, limit: DEFAULT_PARTS_LIMIT }))} />
        </>
      ) : null}
      {query.isPending ? <Loading label={t('app.loading')} /> : null}
      {query.data ? (
        <>
          {uploads.length === 0 ? (
            <p>{prefix ? t('multipart.noneWithPrefix', { prefix }) : t('multipart.none')}</p>
          ) : (
            <div className="table-scroll">
              <table className="table" aria-label={t('multipart.listTitle')}>
                <thead>
                  <tr>
                    <th scope="col">{t('multipart.key')}</th>
                    <th scope="col">{t('multipart.uploadId')}</th>
                    <th scope="col">{t('multipart.initiated')}</th>
                  </tr>
                </thead>
                <tbody>
                  {uploads.map((upload) => (
                    <tr key={`${upload.key}\u0000${upload.upload_id}`}>
                      <td dir="auto">
                        <Link to={uploadsHref({ zone, bucket, prefix, key: upload.key, upload: upload.upload_id, limit: DEFAULT_PARTS_LIMIT })}>{upload.key}</Link>
                      </td>
                      <td>
                        <code>{upload.upload_id}</code>
                      </td>
                      <td>{upload.created ? formatDateTime(new Date(upload.created)) : t('common.none')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p>
            <output data-testid="uploads-status">
              {query.hasNextPage ? t('multipart.loadedMore', { count: uploads.length }) : t('multipart.loaded', { count: uploads.length })}
            </output>{' '}
            {query.hasNextPage ? (
              <button type="button" className="button button--small" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {query.isFetchingNextPage ? t('app.loading') : t('multipart.loadMore')}
              </button>
            ) : null}
          </p>
          {query.isFetchNextPageError ? <UploadErrorNotice error={query.error} listHref={listHref} onRetry={() => void query.fetchNextPage()} /> : null}
        </>
      ) : null}
    </section>
  );
}

function PrefixFilter({ prefix, onChange }: { prefix: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState({ base: prefix, value: prefix });
  const value = draft.base === prefix ? draft.value : prefix;
  useEffect(() => {
    if (value === prefix) return;
    const timer = setTimeout(() => onChange(value), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, prefix, onChange]);
  return (
    <search className="filter">
      <label htmlFor={id}>{t('multipart.prefixFilter')}</label>
      <input id={id} type="search" value={value} onChange={(e) => setDraft({ base: prefix, value: e.target.value })} dir="auto" spellCheck={false} autoComplete="off" />
    </search>
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
