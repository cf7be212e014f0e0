import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import type { ReactNode, RefObject } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/ui.ts';

export interface Column<Row> {
  id: string;
  header: ReactNode;
  renderCell: (row: Row) => ReactNode;
  sortable?: boolean;
  align?: 'start' | 'end';
  /** A CSS width for the column (`12rem`, `30%`); the rest share what is left. */
  width?: string;
  /** The row's header cell (its name): read first by screen readers for every other cell. */
  rowHeader?: boolean;
}

export interface SortState {
  column: string;
  direction: 'ascending' | 'descending';
}

export interface TableSelection {
  selected: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
}

/**
 * The rows in view of a long table and the space above and below them (useTableWindow in
 * data-table-window.ts, which brings the virtualiser: tables that never need one do not load it).
 */
export interface TableWindow<Row> {
  scrollRef: RefObject<HTMLDivElement | null>;
  rows: readonly Row[];
  padTop: number;
  padBottom: number;
}

/**
 * A table with its own header bar (title, count, actions), sortable columns (`aria-sort`, one button per
 * header), optional row selection with a select-all box, an empty state in place of the rows, and optional
 * virtualisation (`window`, from useTableWindow: only the rows in view are in the DOM, for lists of thousands).
 */
export function DataTable<Row>({ label, title, count, actions, columns, rows, rowKey, rowName, sort, onSort, selection, empty, window: shownWindow }: {
  label: string;
  title?: ReactNode;
  count?: ReactNode;
  actions?: ReactNode;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Names a row in its checkbox's label. */
  rowName?: (row: Row) => string;
  sort?: SortState;
  onSort?: (next: SortState) => void;
  selection?: TableSelection;
  empty: ReactNode;
  /** Only these rows are in the DOM (a virtualised table); without it every row is. */
  window?: TableWindow<Row>;
}) {
  const { t } = useI18n();
  const shown = shownWindow ? shownWindow.rows : rows;
  const padTop = shownWindow?.padTop ?? 0;
  const padBottom = shownWindow?.padBottom ?? 0;
  const allKeys = rows.map(rowKey);
  const selectedCount = selection ? allKeys.filter((key) => selection.selected.has(key)).length : 0;
  const span = columns.length + (selection ? 1 : 0);

  const toggle = (key: string) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selection.onChange(next);
  };

  return (
    <div className="data-table">
      {title !== undefined || count !== undefined || actions ? (
        <div className="data-table__bar">
          {title !== undefined ? <h2 className="data-table__title">{title}</h2> : null}
          {count !== undefined ? <output className="data-table__count">{count}</output> : null}
          {actions ? <div className="data-table__actions">{actions}</div> : null}
        </div>
      ) : null}
      <div ref={shownWindow?.scrollRef} className={`data-table__scroll${shownWindow ? ' data-table__scroll--virtual' : ''}`}>
        <table className="table data-table__table" aria-label={label}>
          <thead>
            <tr>
              {selection ? (
                <th scope="col" className="data-table__check">
                  <input
                    type="checkbox"
                    aria-label={t('ui.table.selectAll')}
                    checked={rows.length > 0 && selectedCount === rows.length}
                    ref={(box) => {
                      if (box) box.indeterminate = selectedCount > 0 && selectedCount < rows.length;
                    }}
                    disabled={rows.length === 0}
                    onChange={() => selection.onChange(selectedCount === rows.length ? new Set() : new Set(allKeys))}
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const sorted = sort?.column === column.id ? sort.direction : undefined;
                return (
                  <th key={column.id} data-column={column.id} scope="col" aria-sort={column.sortable ? (sorted ?? 'none') : undefined} style={column.width ? { width: column.width } : undefined} className={column.align === 'end' ? 'data-table__end' : undefined}>
                    {column.sortable && onSort ? (
                      <button
                        type="button"
                        className="data-table__sort"
                        onClick={() => onSort({ column: column.id, direction: sorted === 'ascending' ? 'descending' : 'ascending' })}
                      >
                        {column.header}
                        {sorted === 'ascending' ? <ArrowUp aria-hidden="true" size={14} /> : null}
                        {sorted === 'descending' ? <ArrowDown aria-hidden="true" size={14} /> : null}
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={span} className="data-table__empty">
                  {empty}
                </td>
              </tr>
            ) : null}
            {padTop > 0 ? <tr aria-hidden="true" style={{ height: padTop }} /> : null}
            {shown.map((row) => {
              const key = rowKey(row);
              const selected = selection?.selected.has(key) ?? false;
              return (
                <tr key={key} aria-selected={selection ? selected : undefined} className={selected ? 'is-selected' : undefined}>
                  {selection ? (
                    <td className="data-table__check">
                      <input type="checkbox" checked={selected} aria-label={t('ui.table.select', { name: rowName?.(row) ?? key })} onChange={() => toggle(key)} />
                    </td>
                  ) : null}
                  {columns.map((column) =>
                    column.rowHeader ? (
                      <th key={column.id} data-column={column.id} scope="row">
                        {column.renderCell(row)}
                      </th>
                    ) : (
                      <td key={column.id} data-column={column.id} className={column.align === 'end' ? 'data-table__end' : undefined}>
                        {column.renderCell(row)}
                      </td>
                    ),
                  )}
                </tr>
              );
            })}
            {padBottom > 0 ? <tr aria-hidden="true" style={{ height: padBottom }} /> : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}
