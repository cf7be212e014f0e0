import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import type { ObjectPart } from '../../api/multipart/schemas.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { typicalSize } from './upload-detail-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/** Every row's height in px, fixed in multipart.css (notes sit beside the value, not under it). */
const ROW_HEIGHT = 36;
/** Rows rendered above and below the visible ones, so a quick scroll or PageDown never shows a blank. */
const OVERSCAN_ROWS = 12;

/**
 * The rows of one page (up to 1,000), straight from that page's response, in a scrolling box of its own
 * that keeps only the visible rows (plus overscan) in the DOM: a 1,000-part page costs the DOM of a few
 * dozen rows. The table keeps its semantics: `aria-rowcount` gives the page's size and each row its
 * `aria-rowindex`; the empty space above and below the rendered rows is two hidden spacer rows.
 * Memoized on the page's parts: the scan's progress and its result re-render the inspector, not this.
 */
export const PartsTable = memo(function PartsTable({ parts, lastPartNumber, jumpedTo }: { parts: readonly ObjectPart[]; lastPartNumber: number | undefined; jumpedTo: number | null }) {
  const { t, tp, formatDateTime, formatNumber } = useI18n();
  const scrollRef = useRef<HTMLElement>(null);
  const typical = typicalSize(parts);
  // The virtualizer's functions change identity on every scroll; this component is memoized on its props only.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: parts.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    // Before the box is measured (first render, tests without layout): a screenful of rows.
    initialRect: { width: 800, height: 20 * ROW_HEIGHT },
  });
  // The row a jump asked for: that part, or the next one present when it is missing.
  const targetIndex = jumpedTo === null ? -1 : parts.findIndex((part) => part.part_number >= jumpedTo);
  const target = targetIndex < 0 ? undefined : parts[targetIndex]?.part_number;
  // Another page starts at its top (the box would otherwise keep the last page's scroll position), unless
  // a jump is about to scroll to its row.
  const firstPart = parts[0]?.part_number;
  useEffect(() => {
    if (target === undefined) scrollRef.current?.scrollTo?.({ top: 0 });
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a new page resets the position
  }, [firstPart]);
  // Scrolled to once per jump: the box first (the row may not be rendered yet), then the page, once the row is there.
  const scrolledBox = useRef<number | undefined>(undefined);
  const scrolledPage = useRef<number | undefined>(undefined);
  const targetRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (target === undefined || targetIndex < 0) return;
    if (scrolledBox.current !== target) {
      scrolledBox.current = target;
      virtualizer.scrollToIndex(targetIndex, { align: 'center' });
    }
    if (targetRow.current && scrolledPage.current !== target) {
      scrolledPage.current = target;
      targetRow.current.scrollIntoView?.({ block: 'center' });
    }
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    // A scrolling box must be reachable by keyboard (arrows, PageDown, End scroll it once it has the focus).
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above
    <section className="table-scroll parts-scroll" ref={scrollRef} tabIndex={0} aria-label={t('multipart.partsScroll')}>
      <table className="table parts-table" aria-label={t('multipart.partsTable')} aria-rowcount={parts.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t('multipart.partNumber')}</th>
            <th scope="col">{t('multipart.size')}</th>
            <th scope="col">{t('multipart.created')}</th>
            <th scope="col">{t('multipart.etag')}</th>
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={before} />
          {items.map((item) => {
            const part = parts[item.index];
            if (!part) return null;
            const previous = item.index > 0 ? parts[item.index - 1]?.part_number : undefined;
            const missingBefore = previous === undefined ? 0 : part.part_number - previous - 1;
            // Every part but the last must have the common size; a different one is worth a look (QingStor
            // refuses Complete when a non-last part is under the minimum).
            const odd = typical !== undefined && part.size !== undefined && part.size !== typical && part.part_number !== lastPartNumber;
            return (
              <tr
                key={part.part_number}
                ref={part.part_number === target ? targetRow : undefined}
                aria-rowindex={item.index + 2}
                className={[part.part_number === target ? 'parts-table__target' : '', odd ? 'parts-table__odd' : '', missingBefore > 0 ? 'parts-table__after-gap' : ''].filter(Boolean).join(' ') || undefined}
                aria-current={part.part_number === target ? 'true' : undefined}
              >
                <td>
                  {part.part_number}
                  {missingBefore > 0 ? <span className="parts-table__note">{tp('multipart.gapBefore', missingBefore)}</span> : null}
                </td>
                <td title={part.size === undefined ? undefined : `${formatNumber(part.size)} B`}>
                  {part.size === undefined ? t('common.none') : formatBytes(part.size)}
                  {odd && part.size !== undefined && typical !== undefined ? (
                    <span className="parts-table__note">{part.size < typical ? t('multipart.sizeSmaller') : t('multipart.sizeLarger')}</span>
                  ) : null}
                </td>
                <td>{part.created ? formatDateTime(new Date(part.created), 'short') : t('common.none')}</td>
                <td>
                  <code>{part.etag ?? ''}</code>
                </td>
              </tr>
            );
          })}
          <SpacerRow height={after} />
        </tbody>
      </table>
    </section>
  );
});

/** The height of the rows not in the DOM, above or below the rendered ones (nothing when there are none). */
function SpacerRow({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="parts-table__spacer">
      {/* oxlint-disable-next-line jsx-a11y/control-has-associated-label -- an empty spacer hidden from assistive technology */}
      <td colSpan={4} style={{ height }} />
    </tr>
  );
}
