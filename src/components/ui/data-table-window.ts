import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { TableWindow } from './data-table.tsx';

const ROW_HEIGHT = 36;

/**
 * Virtualisation for a DataTable of thousands of rows: pass the result as its `window`. Only the rows in
 * view (and a few beyond) are rendered; spacer rows keep the scrollbar true to the whole list.
 */
export function useTableWindow<Row>(rows: readonly Row[]): TableWindow<Row> {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change identity on every scroll; this hook's users are simply not memoized.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  return {
    scrollRef,
    rows: items.map((item) => rows[item.index]).filter((row): row is Row => row !== undefined),
    padTop: items[0]?.start ?? 0,
    padBottom: virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0),
  };
}
