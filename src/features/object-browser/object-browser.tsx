import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowUp, RefreshCw, Search } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from '../../lib/router.tsx';
import { ApiError } from '../../api/errors.ts';
import { lazyView, usePreloadWhenIdle } from '../../components/lazy-view.tsx';
import { SkeletonRows } from '../../components/spinner.tsx';
import { browseHref, parentPrefix, readQueryParam, useBrowseLocation, type BrowseLocation } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useUrlDraft } from '../../hooks/use-url-draft.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { useDropArea } from './drop-area.tsx';
import { folderListingQuery } from './queries.ts';
import type { ObjectDetailsContext } from './object-details.tsx';
import { ObjectList, type MenuAnchor } from './object-list.tsx';
import type { RowMenuItem } from './row-menu.tsx';
import { objectKeysBetween, pageToRows, sortRows, type Row, type SortColumn, type SortOrder } from './rows.ts';
import { useSlashFocus } from './use-slash-focus.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/object-browser.css';

// The details panel shows only once an object is open; its code loads then (once per page).
const ObjectDetails = lazyView(async () => (await import('./object-details.tsx')).ObjectDetails);
// A row's menu (Radix) loads when the first one opens, or once the page is idle.
const RowMenu = lazyView(async () => (await import('./row-menu.tsx')).RowMenu, { fallback: 'none' });
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

/**
 * Extension points for the features that come later (metadata editing, uploads, multipart inspector):
 * features never import each other, so the app's route module passes their UI in here.
 */
export interface ObjectBrowserSlots {
  /** Extra toolbar controls (upload, new folder, bulk actions) for the folder being shown. */
  toolbarExtra?: (location: BrowseLocation) => ReactNode;
  /** Actions in the details panel's Overview tab (copy/move/delete) for the open object. */
  detailsExtra?: (object: ObjectDetailsContext) => ReactNode;
  /** Actions in the details panel's Metadata tab (Edit opens the metadata editor). */
  detailsMetadataActions?: (object: ObjectDetailsContext) => ReactNode;
  /** Actions on the selected objects (delete, edit metadata), shown in the selection bar. */
  selectionActions?: (selection: ObjectSelection) => ReactNode;
  /** What a row menu's action shows (a dialog, a download) until it calls `onClose`; without it the menu only opens rows. */
  rowAction?: (action: RowAction) => ReactNode;
  /** Files dropped on the object area, for the folder being shown; called during the drop event. */
  onDropFiles?: (target: { zone: string; bucket: string; prefix: string }, transfer: DataTransfer) => void;
}

export type RowActionKind = 'download' | 'copy' | 'move' | 'editMetadata' | 'delete' | 'bulkEditFolder' | 'deleteFolder';

/** An action picked in a row's menu: on an object, or (bulkEditFolder, deleteFolder) on a folder whose prefix is `key`. */
export interface RowAction {
  kind: RowActionKind;
  zone: string;
  bucket: string;
  key: string;
  onClose: () => void;
}

const OBJECT_ACTIONS: ReadonlyArray<{ kind: RowActionKind; label: 'menu.download' | 'menu.copy' | 'menu.move' | 'menu.editMetadata' | 'menu.delete'; danger?: boolean }> = [
  { kind: 'download', label: 'menu.download' },
  { kind: 'copy', label: 'menu.copy' },
  { kind: 'move', label: 'menu.move' },
  { kind: 'editMetadata', label: 'menu.editMetadata' },
  { kind: 'delete', label: 'menu.delete', danger: true },
];

/** What the selection bar's actions act on; `onDone` takes keys that no longer exist out of the selection. */
export interface ObjectSelection {
  zone: string;
  bucket: string;
  keys: readonly string[];
  onDone: (removed: ReadonlySet<string>) => void;
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

  // The selection belongs to one listing too; keys that left the listing (deleted) drop out of it.
  // `inUse`: the selection bar (over the list's tools) shows from the first selected object until the user clears
  // the selection or unticks the last object, and a dialog opened from it (a delete's per-key results) outlives
  // the keys it removed.
  // `all`: every object of the listing, the pages loaded after the choice included ("Select all matching").
  const [selection, setSelection] = useState<{ listKey: string; keys: ReadonlySet<string>; anchor: number; inUse: boolean; all?: boolean }>({
    listKey,
    keys: new Set(),
    anchor: -1,
    inUse: false,
  });
  const actionsShown = selection.listKey === listKey && selection.inUse;
  const selectedKeys = useMemo(() => {
    if (selection.listKey !== listKey) return new Set<string>();
    return new Set(keyOrder.filter((row) => row.kind === 'object' && (selection.all === true || selection.keys.has(row.key))).map((row) => row.key));
  }, [selection, listKey, keyOrder]);
  const selectedBytes = useMemo(() => keyOrder.reduce((sum, row) => sum + (row.kind === 'object' && selectedKeys.has(row.key) ? row.size : 0), 0), [keyOrder, selectedKeys]);
  const onToggle = useCallback(
    (index: number, range: boolean) => {
      const row = rows[index];
      if (row?.kind !== 'object') return;
      const on = !selectedKeys.has(row.key);
      const anchor = selection.listKey === listKey ? selection.anchor : -1;
      const keys = range && anchor >= 0 ? objectKeysBetween(rows, anchor, index) : [row.key];
      const next = new Set(selectedKeys);
      for (const key of keys) {
        if (on) next.add(key);
        else next.delete(key);
      }
      setSelection({ listKey, keys: next, anchor: index, inUse: next.size > 0 });
    },
    [rows, selectedKeys, selection, listKey],
  );
  const onToggleAll = useCallback(
    (on: boolean) => {
      const keys = on ? new Set(keyOrder.filter((row) => row.kind === 'object').map((row) => row.key)) : new Set<string>();
      setSelection({ listKey, keys, anchor: -1, inUse: keys.size > 0 });
    },
    [keyOrder, listKey],
  );
  // The Delete key presses the selection bar's delete button, so it asks and reports exactly as a click does.
  const barRef = useRef<HTMLElement>(null);
  const onDeleteKey = useCallback(() => {
    const bar = barRef.current;
    if (selectedKeys.size === 0 || !bar) return;
    const find = () => bar.querySelector<HTMLButtonElement>('[data-action="delete-selected"]:not(:disabled)');
    const button = find();
    if (button) {
      button.click();
      return;
    }
    // The delete action loads with the selection bar's later views: a Delete pressed before it arrived is
    // carried out as soon as the button is there, not lost (the watch ends after 10 s).
    const observer = new MutationObserver(() => {
      const arrived = find();
      if (!arrived) return;
      observer.disconnect();
      arrived.click();
    });
    observer.observe(bar, { childList: true, subtree: true, attributes: true });
    setTimeout(() => observer.disconnect(), 10_000);
  }, [selectedKeys]);
  const clearSelection = useCallback(() => setSelection({ listKey, keys: new Set(), anchor: -1, inUse: false }), [listKey]);
  const loadedObjects = useMemo(() => keyOrder.reduce((n, row) => n + (row.kind === 'object' ? 1 : 0), 0), [keyOrder]);
  const allMatching = selection.listKey === listKey && selection.all === true;
  const [loadingAll, setLoadingAll] = useState<string | null>(null);
  const selectAllMatching = () => {
    setSelection({ listKey, keys: new Set(), anchor: -1, inUse: true, all: true });
    setLoadingAll(listKey);
  };

  const onSelectionDone = useCallback(
    (removed: ReadonlySet<string>) =>
      setSelection((previous) => ({ ...previous, keys: new Set([...previous.keys].filter((key) => !removed.has(key))) })),
    [],
  );

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
  const selectingAll = loadingAll === listKey && allMatching && hasNextPage && !query.isFetchNextPageError;
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
  const menuItems = (row: Row): RowMenuItem[] => {
    const pick = (kind: RowActionKind) => () => setAction({ kind, zone, bucket, key: row.key, onClose: () => setAction(null) });
    if (row.kind === 'folder') {
      return [
        { id: 'open', label: t('menu.open'), onSelect: () => onOpen(row) },
        ...(rowAction
          ? [
              { id: 'bulkEditFolder', label: t('menu.bulkEditFolder'), onSelect: pick('bulkEditFolder') },
              { id: 'deleteFolder', label: t('menu.deleteFolder'), danger: true, onSelect: pick('deleteFolder') },
            ]
          : []),
      ];
    }
    return [
      { id: 'open', label: t('menu.details'), onSelect: () => onOpen(row) },
      ...(rowAction ? OBJECT_ACTIONS.map(({ kind, label, danger }) => ({ id: kind, label: t(label), ...(danger ? { danger } : {}), onSelect: pick(kind) })) : []),
    ];
  };

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
          <section ref={barRef} className="selection-bar" aria-label={t('browser.selectionBar')} hidden={!actionsShown}>
            <output className="selection-bar__count" data-testid="selection-status">
              {tp('browser.selected', selectedKeys.size, { size: formatBytes(selectedBytes) })}
            </output>
            {allMatching || (hasNextPage && loadedObjects > 0 && selectedKeys.size === loadedObjects) ? (
              <span className="selection-bar__matching">
                {selectingAll ? (
                  <>
                    <output>{tp('select.loading', selectedKeys.size)}</output>
                    <button type="button" className="button button--small" onClick={() => setLoadingAll(null)}>
                      {t('common.cancel')}
                    </button>
                  </>
                ) : allMatching && !hasNextPage ? (
                  <output>{tp('select.allMatching', selectedKeys.size)}</output>
                ) : (
                  <>
                    <span>{tp('select.allLoaded', selectedKeys.size)}</span>
                    <button type="button" className="button button--link" onClick={selectAllMatching}>
                      {t('select.matching')}
                    </button>
                  </>
                )}
              </span>
            ) : null}
            {/* Clear first, then the actions as their code arrives: each one lands at the end, moving nothing. */}
            <span className="selection-bar__actions">
              {actionsShown ? (
                <button type="button" className="button button--ghost" onClick={clearSelection}>
                  {t('browser.clearSelection')}
                </button>
              ) : null}
              {selectionActions && actionsShown ? selectionActions({ zone, bucket, keys: [...selectedKeys], onDone: onSelectionDone }) : null}
            </span>
          </section>
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
                onToggle={onToggle}
                onToggleAll={onToggleAll}
                sort={sort}
                onSort={onSort}
                onDeleteKey={onDeleteKey}
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
                items={menuItems(menu.row)}
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

function FilterBox({ filter, onChange }: { filter: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const hintId = useId();
  const ref = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useUrlDraft(filter, onChange);
  useSlashFocus(ref);

  return (
    <search className="filter">
      <label htmlFor={id} className="visually-hidden">
        {t('browser.filter')}
      </label>
      <Search aria-hidden="true" size={16} className="filter__icon" />
      <input
        ref={ref}
        id={id}
        type="search"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(draft);
        }}
        aria-describedby={hintId}
        autoComplete="off"
        spellCheck={false}
        dir="auto"
        placeholder={t('browser.filter')}
      />
      <kbd className="filter__key" aria-hidden="true" title={t('browser.filterHint')}>
        /
      </kbd>
      <span id={hintId} className="visually-hidden">
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
