import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/errors.ts';
import { CorsHelp } from '../../components/cors-help.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { browseHref, parentPrefix, useBrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { listingQuery } from './data.ts';
import { ObjectDetails } from './object-details.tsx';
import { ObjectList } from './object-list.tsx';
import { pageToRows, type Row } from './rows.ts';
import { useSlashFocus } from './use-slash-focus.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/object-browser.css';

const FILTER_DEBOUNCE_MS = 250;

export function ObjectBrowser() {
  const { t } = useI18n();
  const session = useConnectedSession();
  const { client, connectionKey } = useClient();
  const location = useBrowseLocation();
  const { zone, bucket, prefix, filter, object } = location;
  const navigate = useNavigate();

  const query = useInfiniteQuery(listingQuery(client, connectionKey, zone, bucket, prefix + filter));
  const rows = useMemo(() => (query.data ? query.data.pages.flatMap((page) => pageToRows(page, prefix)) : []), [query.data, prefix]);

  // The keyboard selection belongs to one listing: a new folder or filter starts at the top again.
  const listKey = JSON.stringify([zone, bucket, prefix, filter]);
  const [active, setActive] = useState({ listKey, index: 0 });
  const activeIndex = active.listKey === listKey ? active.index : 0;
  const setActiveIndex = useCallback((index: number) => setActive({ listKey, index }), [listKey]);

  const hrefFor = useCallback(
    (row: Row) =>
      row.kind === 'folder'
        ? browseHref({ zone, bucket, prefix: row.key })
        : browseHref({ zone, bucket, prefix, filter, object: row.key }),
    [zone, bucket, prefix, filter],
  );
  const onOpen = useCallback((row: Row) => void navigate(hrefFor(row)), [navigate, hrefFor]);
  const onUp = useCallback(() => {
    if (prefix !== '') void navigate(browseHref({ zone, bucket, prefix: parentPrefix(prefix) }));
    else if (session.mode !== 'anonymous') void navigate('/');
  }, [navigate, zone, bucket, prefix, session.mode]);
  const closeDetails = useCallback(() => void navigate(browseHref({ zone, bucket, prefix, filter })), [navigate, zone, bucket, prefix, filter]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const onLoadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const anonymousListRefused =
    session.mode === 'anonymous' && query.error instanceof ApiError && (query.error.status === 403 || query.error.status === 401);
  const locationLabel = `${bucket}/${prefix}`;

  return (
    <div className={`browser${object !== null ? ' browser--with-details' : ''}`}>
      <div className="browser__main">
        <h1 className="visually-hidden">{t('browser.objects', { location: locationLabel })}</h1>
        <Breadcrumbs zone={zone} bucket={bucket} prefix={prefix} showAllBuckets={session.mode !== 'anonymous'} />
        <div className="browser__toolbar">
          <FilterBox filter={filter} onChange={(value) => void navigate(browseHref({ zone, bucket, prefix, filter: value }), { replace: true })} />
          <button type="button" className="button" onClick={onUp} disabled={prefix === '' && session.mode === 'anonymous'}>
            {t('browser.up')}
          </button>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            {t('browser.refresh')}
          </button>
        </div>
        <p className="browser__help">{t('browser.keyboardHelp')}</p>
        {query.isPending ? <Loading label={t('app.loading')} /> : null}
        {query.isError && !query.data && !anonymousListRefused ? (
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} corsHelp={<CorsHelp bucket={{ zone, name: bucket }} />} />
        ) : null}
        {anonymousListRefused ? <OpenKeyForm onOpen={(key) => void navigate(browseHref({ zone, bucket, prefix, object: key }))} /> : null}
        {query.data ? (
          <>
            <ObjectList
              label={t('browser.objects', { location: locationLabel })}
              rows={rows}
              hasMore={hasNextPage}
              isFetchingMore={isFetchingNextPage}
              onLoadMore={onLoadMore}
              activeIndex={activeIndex}
              onActiveIndexChange={setActiveIndex}
              onOpen={onOpen}
              onUp={onUp}
              hrefFor={hrefFor}
              openKey={object}
              onEscape={object !== null ? closeDetails : undefined}
            />
            <div className="browser__status">
              {rows.length === 0 ? (
                <p>{filter ? t('browser.emptyFilter', { filter }) : t('browser.empty')}</p>
              ) : null}
              <output data-testid="listing-status">
                {hasNextPage ? t('browser.loadedMore', { count: rows.length }) : t('browser.loaded', { count: rows.length })}
              </output>
              {hasNextPage ? (
                <button type="button" className="button button--small" onClick={onLoadMore} disabled={isFetchingNextPage}>
                  {isFetchingNextPage ? t('browser.loadingMore') : t('browser.loadMore')}
                </button>
              ) : null}
            </div>
            {query.isFetchNextPageError ? (
              <ErrorNotice error={query.error} onRetry={onLoadMore} corsHelp={<CorsHelp bucket={{ zone, name: bucket }} />} />
            ) : null}
          </>
        ) : null}
      </div>
      {object !== null ? <ObjectDetails zone={zone} bucket={bucket} objectKey={object} onClose={closeDetails} /> : null}
    </div>
  );
}

function FilterBox({ filter, onChange }: { filter: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const hintId = useId();
  const ref = useRef<HTMLInputElement>(null);
  // The draft remembers which URL filter it was typed against; when the URL changes from outside
  // (back/forward, a link) the URL wins.
  const [draftState, setDraftState] = useState({ base: filter, value: filter });
  const draft = draftState.base === filter ? draftState.value : filter;
  useSlashFocus(ref);
  useEffect(() => {
    if (draft === filter) return;
    const timer = setTimeout(() => onChange(draft), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, filter, onChange]);

  return (
    <search className="filter">
      <label htmlFor={id}>{t('browser.filter')}</label>
      <input
        ref={ref}
        id={id}
        type="search"
        value={draft}
        onChange={(e) => setDraftState({ base: filter, value: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(draft);
        }}
        aria-describedby={hintId}
        autoComplete="off"
        spellCheck={false}
        dir="auto"
      />
      <span id={hintId} className="filter__hint">
        {t('browser.filterHint')}
      </span>
    </search>
  );
}

function OpenKeyForm({ onOpen }: { onOpen: (key: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [key, setKey] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (key !== '') onOpen(key);
  };
  return (
    <form className="notice" onSubmit={onSubmit}>
      <p>{t('browser.anonymousList')}</p>
      <div className="inline-form__fields">
        <label htmlFor={id}>{t('browser.openKey')}</label>
        <input id={id} value={key} onChange={(e) => setKey(e.target.value)} dir="auto" spellCheck={false} />
        <button type="submit" className="button">
          {t('browser.openKeySubmit')}
        </button>
      </div>
    </form>
  );
}
