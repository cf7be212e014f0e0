import { useInfiniteQuery } from '@tanstack/react-query';
import ArrowUp from 'lucide-react/icons/arrow-up';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from '../../lib/router.tsx';
import { ApiError } from '../../api/errors.ts';
import { lazyView, usePreloadWhenIdle } from '../../components/lazy-view.tsx';
import { SkeletonRows } from '../../components/spinner.tsx';
import { browseHref, parentPrefix, readQueryParam, useBrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { useDropArea } from './drop-area.tsx';
import { folderListingQuery } from './queries.ts';
import { FilterBox } from './filter-box.tsx';
import { ObjectList, type MenuAnchor } from './object-list.tsx';
import { pageToRows, sortRows, type Row, type SortColumn, type SortOrder } from './rows.ts';
import { SelectionBar } from './selection-bar.tsx';
import type { ObjectBrowserSlots, RowAction, RowActionKind } from './slots.ts';
import { useObjectSelection } from './use-object-selection.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/object-browser.css';

// The details panel shows only once an object is open; its code loads then (once per page).
const ObjectDetails = lazyView(async () => (await import('./object-details.tsx')).ObjectDetails);
// A row's menu (Radix) and its items load when the first one opens, or once the page is idle.
const RowMenu = lazyView(async () => (await import('./row-menu-items.tsx')).RowMenuFor, { fallback: 'none' });
// Opening an object by its key, where an anonymous visitor may not list the bucket: never needed for the first rows.
const OpenKeyForm = lazyView(async () => (await import('./open-key-form.tsx')).OpenKeyForm, { fallback: 'none' });
// An empty listing's words and next step: never needed for the first rows.
const ListingEmpty = lazyView(async () => (await import('./listing-empty.tsx')).ListingEmpty, { fallback: 'none' });
// "Count all" appears with the first page of a listing; its code can follow a moment later.
const CountAll = lazyView(async () => (await import('./count-all.tsx')).CountAll, { fallback: 'none' });
// A failed listing's notice (and the error wording under it) loads only when a listing fails.
const ListingError = lazyView(async () => (await import('./listing-error.tsx')).ListingError);
const LATER_VIEWS = [ObjectDetails, RowMenu, CountAll];

const SORT_LABELS = { name: 'browser.col.name', size: 'browser.col.size', type: 'browser.col.type', modified: 'browser.col.modified' } as const;

function listIdentity(zone: string, bucket: string, prefix: string, filter: string, flat: boolean): string {
  return JSON.stringify([zone, bucket, prefix, filter, flat]);
}

export function ObjectBrowser({ toolbarExtra, detailsExtra, detailsMetadataActions, selectionActions, rowAction, onDropFiles }: ObjectBrowserSlots = {}) {
  const { t, tp, locale } = useI18n();
  usePreloadWhenIdle(LATER_VIEWS);
  const session = useConnectedSession();
  const client = useClient();
  const location = useBrowseLocation();
  const { zone, bucket, prefix, filter, flat, object } = location;
  const navigate = useNavigate();

  const query = useInfiniteQuery(folderListingQuery(client, zone, bucket, prefix + filter, flat));
  const keyOrder = useMemo(() => (query.data ? query.data.pages.flatMap((page) => pageToRows(page, prefix)) : []), [query.data, prefix]);
  const loadedBytes = useMemo(() => keyOrder.reduce((sum, row) => sum + (row.kind === 'object' ? row.size : 0), 0), [keyOrder]);
  // Sorting reorders what is loaded; the server only knows key order, which stays the default. A sort belongs
  // to the bucket it was chosen in: another bucket starts in key order.
  const bucketId = `${zone}/${bucket}`;
  const [sortChoice, setSortChoice] = useState<{ bucket: string; order: SortOrder | null }>({ bucket: bucketId, order: null });
  const sort = sortChoice.bucket === bucketId ? sortChoice.order : null;
  const setSort = useCallback((order: SortOrder | null) => setSortChoice({ bucket: bucketId, order }), [bucketId]);
  const rows = useMemo(() => sortRows(keyOrder, sort), [keyOrder, sort]);
  const onSort = useCallback(
    (column: SortColumn) => setSort(sort?.column !== column ? { column, descending: false } : sort.descending ? null : { column, descending: true }),
    [setSort, sort],
  );

  // The keyboard selection belongs to one listing: a new folder or filter starts at the top, except that
  // going up selects the folder the user came from (`key`, resolved once its row is loaded).
  const listKey = listIdentity(zone, bucket, prefix, filter, flat);
  const [active, setActive] = useState<{ listKey: string; index: number; key?: string }>({ listKey, index: 0 });
  let activeIndex = 0;
  if (active.listKey === listKey) {
    const byKey = active.key === undefined ? -1 : rows.findIndex((row) => row.key === active.key);
    activeIndex = byKey >= 0 ? byKey : active.index;
  }
  const setActiveIndex = useCallback((index: number) => setActive({ listKey, index }), [listKey]);

  const selection = useObjectSelection(listKey, rows, keyOrder);
  const { selectedKeys } = selection;

  const hrefFor = useCallback(
    (row: Row) =>
      row.kind === 'folder'
        ? browseHref({ zone, bucket, prefix: row.key, flat })
        : browseHref({ zone, bucket, prefix, filter, flat, object: row.key }),
    [zone, bucket, prefix, filter, flat],
  );
  const onOpen = useCallback((row: Row) => navigate(hrefFor(row)), [navigate, hrefFor]);
  const onUp = useCallback(() => {
    // Router navigations render in a transition, so a fast second Backspace can arrive before this
    // component re-rendered; the address bar is already current, so "up" is computed from it.
    const current = readQueryParam(window.location.search, 'prefix') ?? '';
    if (current !== '') {
      const parent = parentPrefix(current);
      setActive({ listKey: listIdentity(zone, bucket, parent, '', flat), index: 0, key: current });
      navigate(browseHref({ zone, bucket, prefix: parent, flat }));
    } else if (session.mode !== 'anonymous') navigate('/');
  }, [navigate, zone, bucket, flat, session.mode]);
  const closeDetails = useCallback(() => navigate(browseHref({ zone, bucket, prefix, filter, flat })), [navigate, zone, bucket, prefix, filter, flat]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const onLoadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  // "Select all matching" reads the remaining pages one after another (Cancel keeps what is loaded selected).
  const selectingAll = selection.loadingAll && selection.allMatching && hasNextPage && !query.isFetchNextPageError;
  useEffect(() => {
    if (selectingAll && !isFetchingNextPage) void fetchNextPage();
  }, [selectingAll, isFetchingNextPage, fetchNextPage]);

  // A row's menu: which row, where it opens; then the action picked in it, until that action is over.
  const [menu, setMenu] = useState<{ row: Row; index: number; anchor: MenuAnchor } | null>(null);
  const [action, setAction] = useState<RowAction | null>(null);
  const onMenu = useCallback((index: number, anchor: MenuAnchor) => {
    const row = rows[index];
    if (row) setMenu({ row, index, anchor });
  }, [rows]);

  const drop = useDropArea(`${bucket}/${prefix}`, onDropFiles ? (transfer) => onDropFiles({ zone, bucket, prefix }, transfer) : undefined);

  const anonymousListRefused =
    session.mode === 'anonymous' && query.error instanceof ApiError && (query.error.status === 403 || query.error.status === 401);
  const locationLabel = `${bucket}/${prefix}`;
  const flatHintId = useId();

  return (
    <div className={`browser${object !== null ? ' browser--with-details' : ''}`}>
      <div className="browser__main" {...drop.handlers}>
        {drop.overlay}
        <h1 className="visually-hidden">{t('browser.objects', { location: locationLabel })}</h1>
        {/* The header: where you are, and what adds to this folder (the features' controls, on the right). */}
        <div className="browser__header">
          <Breadcrumbs zone={zone} bucket={bucket} prefix={prefix} flat={flat} showAllBuckets={session.mode !== 'anonymous'} />
          <div className="browser__actions">{toolbarExtra ? toolbarExtra(location) : null}</div>
        </div>
        {/* The list's own tools; a selection covers them with its actions, in the same place and height, so
            nothing below moves when the first object is selected. */}
        <div className="browser__bar">
          <div className="browser__toolbar">
            <FilterBox filter={filter} onChange={(value) => navigate(browseHref({ zone, bucket, prefix, filter: value, flat }), { replace: true })} />
            <label className="toggle" title={t('browser.flat')}>
              <input
                type="checkbox"
                checked={flat}
                aria-describedby={flatHintId}
                onChange={(e) => navigate(browseHref({ zone, bucket, prefix, filter, flat: e.target.checked }))}
              />
              {t('browser.flatShort')}
            </label>
            <span id={flatHintId} hidden>
              {t('browser.flat')}
            </span>
            <button type="button" className="icon-button icon-button--bordered" onClick={onUp} disabled={prefix === '' && session.mode === 'anonymous'} aria-label={t('browser.up')} title={t('browser.up')}>
              <ArrowUp aria-hidden="true" size={16} />
            </button>
            <button type="button" className="icon-button icon-button--bordered" onClick={() => void query.refetch()} aria-label={t('browser.refresh')} title={t('browser.refresh')}>
              <RefreshCw aria-hidden="true" size={16} />
            </button>
          </div>
          <SelectionBar
            selection={selection}
            hasNextPage={hasNextPage}
            selectingAll={selectingAll}
            actions={selectionActions && selection.actionsShown ? selectionActions({ zone, bucket, keys: [...selectedKeys], onDone: selection.onSelectionDone }) : null}
          />
        </div>
        {query.isError && !query.data && !anonymousListRefused ? (
          <ListingError error={query.error} onRetry={() => void query.refetch()} zone={zone} bucket={bucket} />
        ) : null}
        {anonymousListRefused ? <OpenKeyForm onOpen={(key) => navigate(browseHref({ zone, bucket, prefix, flat, object: key }))} /> : null}
        {/* The grid stays mounted while another folder loads, so keyboard focus survives navigation. */}
        {!query.isError || query.data ? (
          <>
            <div className="browser__list">
              <ObjectList
                selected={selectedKeys}
                onToggle={selection.onToggle}
                onToggleAll={selection.onToggleAll}
                sort={sort}
                onSort={onSort}
                onDeleteKey={selection.onDeleteKey}
                onMenu={onMenu}
                menuIndex={menu?.index ?? null}
                resetKey={listKey}
                label={t('browser.objects', { location: locationLabel })}
                rows={rows}
                hasMore={hasNextPage}
                isFetchingMore={isFetchingNextPage || query.isPending}
                onLoadMore={onLoadMore}
                activeIndex={activeIndex}
                onActiveIndexChange={setActiveIndex}
                onOpen={onOpen}
                onUp={onUp}
                hrefFor={hrefFor}
                openKey={object}
                onEscape={object !== null ? closeDetails : undefined}
              />
              {/* An empty folder or a filter that matches nothing says so where the rows would be. */}
              {query.isPending ? (
                <div className="browser__empty">
                  <SkeletonRows label={t('app.loading')} columns={4} rows={6} />
                </div>
              ) : null}
              {query.isSuccess && rows.length === 0 ? (
                <div className="browser__empty">
                  <ListingEmpty filter={filter} onClearFilter={() => navigate(browseHref({ zone, bucket, prefix, flat }), { replace: true })} canDrop={onDropFiles !== undefined} />
                </div>
              ) : null}
            </div>
            <div className="browser__status">
              {query.data ? (
                <output data-testid="listing-status">
                  {tp(hasNextPage ? 'browser.loadedMore' : 'browser.loaded', rows.length, { size: formatBytes(loadedBytes) })}
                </output>
              ) : null}
              {sort !== null ? (
                <p className="browser__sorted">
                  <output>{t('browser.sortedBy', { count: keyOrder.length, column: t(SORT_LABELS[sort.column]).toLocaleLowerCase(locale) })}</output>
                  <button type="button" className="button button--link" onClick={() => setSort(null)}>
                    {t('browser.sortKeyOrder')}
                  </button>
                </p>
              ) : null}
              {query.data ? <CountAll key={listKey} zone={zone} bucket={bucket} prefix={prefix + filter} /> : null}
              {hasNextPage ? (
                <button type="button" className="button button--small" onClick={onLoadMore} disabled={isFetchingNextPage}>
                  {isFetchingNextPage ? t('browser.loadingMore') : t('browser.loadMore')}
                </button>
              ) : null}
              <p className="browser__help">{t('browser.keyboardHelp')}</p>
            </div>
            {menu ? (
              <RowMenu
                // Another row's menu (or the same row's at another place) is a menu of its own.
                key={`${menu.index}:${menu.anchor.x}:${menu.anchor.y}`}
                anchor={menu.anchor}
                label={t('menu.rowActions', { name: visibleText(menu.row.kind === 'folder' ? `${menu.row.name}/` : menu.row.name) })}
                row={menu.row}
                onOpen={() => onOpen(menu.row)}
                onPick={rowAction ? (kind: RowActionKind) => setAction({ kind, zone, bucket, key: menu.row.key, onClose: () => setAction(null) }) : undefined}
                onClose={() => setMenu(null)}
              />
            ) : null}
            {action && rowAction ? rowAction(action) : null}
            {query.isFetchNextPageError ? (
              <ListingError error={query.error} onRetry={onLoadMore} zone={zone} bucket={bucket} />
            ) : null}
          </>
        ) : null}
      </div>
      {object !== null ? (
        <ObjectDetails
          zone={zone}
          bucket={bucket}
          objectKey={object}
          onClose={closeDetails}
          {...(detailsExtra ? { extra: detailsExtra } : {})}
          {...(detailsMetadataActions ? { metadataActions: detailsMetadataActions } : {})}
        />
      ) : null}
    </div>
  );
}
