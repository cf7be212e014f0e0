/* oxlint-disable jsx-a11y/prefer-tag-over-role -- a virtualized grid positions each row absolutely, which
   table layout (tr/td) does not allow; the ARIA grid roles give the same semantics to divs. */
import { useVirtualizer } from '@tanstack/react-virtual';
import Ellipsis from 'lucide-react/icons/ellipsis';
import FileIcon from 'lucide-react/icons/file';
import Folder from 'lucide-react/icons/folder';
import { useEffect, useId, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { Link } from '../../lib/router.tsx';
import { formatBytes } from '../../lib/format.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import type { Row, SortColumn, SortOrder } from './rows.ts';

const ROW_HEIGHT = 36;
/** Rows kept in the DOM beyond the visible ones; with the viewport this bounds the DOM row count. */
const OVERSCAN = 8;
/** Start fetching the next page this many rows before the end, so scrolling rarely waits. */
const PREFETCH_ROWS = 30;

export interface ObjectListProps {
  label: string;
  rows: readonly Row[];
  hasMore: boolean;
  isFetchingMore: boolean;
  onLoadMore: () => void;
  activeIndex: number;
  onActiveIndexChange: (index: number) => void;
  /** Enter / click on a row: open the folder or show the object's details. */
  onOpen: (row: Row) => void;
  onUp: () => void;
  hrefFor: (row: Row) => string;
  /** Key of the object whose details are open (highlighted as selected). */
  openKey: string | null;
  /** Changes when another listing is shown: the scroll position goes back to the top. */
  resetKey: string;
  /** Escape: close the details panel, when one is open. */
  onEscape?: (() => void) | undefined;
  /** Keys of the selected objects (the checkbox column). */
  selected: ReadonlySet<string>;
  /** Checkbox click (or Space on the active row): toggles row `index`; with Shift, the range from the last toggled row. */
  onToggle: (index: number, range: boolean) => void;
  /** The header checkbox: every loaded object on or off. */
  onToggleAll: (on: boolean) => void;
  /** `null`: the server's key order. */
  sort: SortOrder | null;
  onSort: (column: SortColumn) => void;
  /** The Delete key: delete the selection (asks first). */
  onDeleteKey: () => void;
  /** The row's "…" button, a right-click, Shift+F10 or the context-menu key: open row `index`'s menu at `anchor`. */
  onMenu: (index: number, anchor: MenuAnchor) => void;
  /** The row whose menu is open (its "…" button says so). */
  menuIndex: number | null;
}

/** Where a row menu opens (viewport coordinates): under a button, or at the pointer. */
export interface MenuAnchor {
  x: number;
  y: number;
}

const SORT_COLUMNS: ReadonlyArray<{ column: SortColumn; label: 'browser.col.name' | 'browser.col.size' | 'browser.col.type' | 'browser.col.modified'; className?: string }> = [
  { column: 'name', label: 'browser.col.name' },
  { column: 'size', label: 'browser.col.size', className: 'num' },
  { column: 'type', label: 'browser.col.type' },
  { column: 'modified', label: 'browser.col.modified' },
];

/**
 * The object list as an ARIA grid with one tab stop: the grid holds focus and points at the active row
 * with aria-activedescendant; the virtualizer keeps only the visible rows (plus overscan) in the DOM,
 * so a 100,000-key bucket costs the same DOM as a small one.
 */
export function ObjectList(props: ObjectListProps) {
  const { rows, hasMore, isFetchingMore, onLoadMore, activeIndex, onActiveIndexChange, onOpen, onUp, hrefFor, openKey, label, onEscape, resetKey } = props;
  const { selected, onToggle, onToggleAll, sort, onSort, onDeleteKey, onMenu, menuIndex } = props;
  const objectCount = rows.reduce((n, row) => n + (row.kind === 'object' ? 1 : 0), 0);
  const selectedLoaded = rows.reduce((n, row) => n + (row.kind === 'object' && selected.has(row.key) ? 1 : 0), 0);
  const allRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = selectedLoaded > 0 && selectedLoaded < objectCount;
  }, [selectedLoaded, objectCount]);
  const { t, formatDateTime } = useI18n();
  const scrollRef = useRef<HTMLDivElement>(null);
  const closingIndex = useRef<number | null>(null);
  const idPrefix = useId();
  // The virtualizer's functions change identity on every scroll; this component is simply not memoized.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // Rows below the sticky header: the first data row starts one row height down.
    paddingStart: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
  });
  // A new listing starts at the top; once its rows are there, the selected row (e.g. the folder the user
  // just came up from) is scrolled into view.
  const pendingReset = useRef(true);
  useEffect(() => {
    pendingReset.current = true;
    scrollRef.current?.scrollTo({ top: 0 });
  }, [resetKey]);
  useEffect(() => {
    if (!pendingReset.current || rows.length === 0) return;
    pendingReset.current = false;
    if (clampedActive > 0) virtualizer.scrollToIndex(clampedActive, { align: 'center' });
  });
  const clampedActive = rows.length === 0 ? -1 : Math.min(Math.max(activeIndex, 0), rows.length - 1);
  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length ? items[items.length - 1]!.index : -1;

  useEffect(() => {
    if (hasMore && !isFetchingMore && lastVisible >= rows.length - PREFETCH_ROWS) onLoadMore();
  }, [hasMore, isFetchingMore, lastVisible, rows.length, onLoadMore]);

  const moveTo = (index: number) => {
    if (rows.length === 0) return;
    const next = Math.min(Math.max(index, 0), rows.length - 1);
    onActiveIndexChange(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);

  const openMenuAtRow = (index: number) => {
    const element = document.getElementById(`${idPrefix}-row-${index}`);
    const box = (element?.querySelector('.object-list__name') ?? element)?.getBoundingClientRect();
    if (box) onMenu(index, { x: box.left + 24, y: box.bottom });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      if (clampedActive >= 0) openMenuAtRow(clampedActive);
      event.preventDefault();
      return;
    }
    switch (event.key) {
      case 'ArrowDown':
        moveTo(clampedActive + 1);
        break;
      case 'ArrowUp':
        moveTo(clampedActive - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'PageDown':
        moveTo(clampedActive + pageSize);
        break;
      case 'PageUp':
        moveTo(clampedActive - pageSize);
        break;
      case 'Enter': {
        const row = rows[clampedActive];
        if (row) onOpen(row);
        break;
      }
      case ' ': {
        if (rows[clampedActive]?.kind !== 'object') return;
        onToggle(clampedActive, event.shiftKey);
        break;
      }
      case 'Backspace':
        onUp();
        break;
      case 'Delete':
        onDeleteKey();
        break;
      case 'Escape':
        if (!onEscape) return;
        onEscape();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const activeId = clampedActive >= 0 ? `${idPrefix}-row-${clampedActive}` : undefined;

  return (
    <div
      ref={scrollRef}
      className="object-list"
      role="grid"
      aria-label={label}
      aria-rowcount={hasMore ? -1 : rows.length + 1}
      aria-colcount={6}
      aria-activedescendant={activeId}
      aria-busy={isFetchingMore}
      data-row-count={rows.length}
      data-has-more={hasMore}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onContextMenu={(event: MouseEvent<HTMLDivElement>) => {
        // A context-menu key press the keydown did not see arrives here on the grid itself: the active row's menu.
        if (event.target !== event.currentTarget || clampedActive < 0) return;
        event.preventDefault();
        openMenuAtRow(clampedActive);
      }}
    >
      <div role="rowgroup" className="object-list__head">
        <div role="row" aria-rowindex={1} className="object-list__row object-list__row--head">
          <span role="columnheader" className="object-list__check">
            <input
              ref={allRef}
              type="checkbox"
              aria-label={t('browser.selectAllLoaded', { count: objectCount })}
              checked={objectCount > 0 && selectedLoaded === objectCount}
              disabled={objectCount === 0}
              onChange={(e) => onToggleAll(e.target.checked)}
            />
          </span>
          {SORT_COLUMNS.map(({ column, label: labelKey, className }) => {
            const active = sort?.column === column;
            return (
              <span
                key={column}
                role="columnheader"
                className={className}
                aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
              >
                <button type="button" className="object-list__sort" onClick={() => onSort(column)}>
                  {t(labelKey)}
                  {active ? (
                    <span aria-hidden="true" className="object-list__sort-mark">
                      {sort.descending ? '▼' : '▲'}
                    </span>
                  ) : null}
                </button>
              </span>
            );
          })}
          <span role="columnheader">
            <span className="visually-hidden">{t('actions.title')}</span>
          </span>
        </div>
      </div>
      <div role="rowgroup" className="object-list__body" style={{ height: virtualizer.getTotalSize() - ROW_HEIGHT }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          const active = item.index === clampedActive;
          const open = row.kind === 'object' && row.key === openKey;
          const checked = row.kind === 'object' && selected.has(row.key);
          return (
            // Keyboard access is on the grid itself (one tab stop, arrows + Enter), not on each row.
            // oxlint-disable-next-line jsx-a11y/click-events-have-key-events
            <div
              key={row.kind + row.key}
              id={`${idPrefix}-row-${item.index}`}
              role="row"
              aria-rowindex={item.index + 2}
              // aria-selected marks the row the keyboard is on (or whose details are open); the checkbox in the
              // first cell says whether the object is in the selection.
              aria-selected={open || active}
              className={`object-list__row${active ? ' is-active' : ''}${open ? ' is-open' : ''}${checked ? ' is-selected' : ''}`}
              style={{ transform: `translateY(${item.start - ROW_HEIGHT}px)` }}
              data-key={row.key}
              data-kind={row.kind}
              onClick={() => onActiveIndexChange(item.index)}
              onContextMenu={(event) => {
                event.preventDefault();
                onActiveIndexChange(item.index);
                onMenu(item.index, { x: event.clientX, y: event.clientY });
              }}
            >
              <span role="gridcell" className="object-list__check">
                {row.kind === 'object' ? (
                  <input
                    type="checkbox"
                    tabIndex={-1}
                    aria-label={t('browser.selectRow', { name: visibleText(row.name) })}
                    checked={checked}
                    onChange={() => undefined}
                    onClick={(event) => {
                      event.stopPropagation();
                      onActiveIndexChange(item.index);
                      onToggle(item.index, event.shiftKey);
                    }}
                  />
                ) : null}
              </span>
              <span role="gridcell" className="object-list__name">
                {row.kind === 'folder' ? <Folder aria-hidden="true" size={16} className="icon icon--folder" /> : <FileIcon aria-hidden="true" size={16} className="icon icon--object" />}
                <Link
                  to={hrefFor(row)}
                  tabIndex={-1}
                  dir="auto"
                  onClick={(event) => {
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                    event.preventDefault();
                    onActiveIndexChange(item.index);
                    onOpen(row);
                  }}
                >
                  {/* Bidi and zero-width characters are shown as code points, never as the reordering they cause. */}
                  {visibleText(row.kind === 'folder' ? `${row.name}/` : row.name)}
                </Link>
              </span>
              <span role="gridcell" className="num">
                {row.kind === 'object' ? formatBytes(row.size) : ''}
              </span>
              <span role="gridcell" className="object-list__type">
                {row.kind === 'folder' ? t('browser.folder') : row.mimeType}
              </span>
              <span role="gridcell" className="object-list__date">
                {row.kind === 'object' && row.modified !== undefined ? formatDateTime(new Date(row.modified * 1000), 'short') : ''}
              </span>
              <span role="gridcell">
                <button
                  type="button"
                  className="icon-button object-list__more"
                  tabIndex={-1}
                  aria-label={t('menu.rowActions', { name: visibleText(row.kind === 'folder' ? `${row.name}/` : row.name) })}
                  aria-haspopup="menu"
                  aria-expanded={menuIndex === item.index}
                  // The grid keeps the focus (its keys work in the menu's absence and it gets the focus back).
                  onMouseDown={(event) => event.preventDefault()}
                  // A second click closes the open menu: the press outside the menu already closed it, so the
                  // click that follows must not open it again.
                  onPointerDown={() => {
                    closingIndex.current = menuIndex === item.index ? item.index : null;
                  }}
                  onClick={(event) => {
                    event.stopPropagation();
                    if (closingIndex.current === item.index) {
                      closingIndex.current = null;
                      return;
                    }
                    onActiveIndexChange(item.index);
                    const box = event.currentTarget.getBoundingClientRect();
                    onMenu(item.index, { x: box.left, y: box.bottom });
                  }}
                >
                  <Ellipsis aria-hidden="true" size={16} />
                </button>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
