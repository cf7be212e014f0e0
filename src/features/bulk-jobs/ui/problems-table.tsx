import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useSyncExternalStore } from 'react';
import { ruleMessageKey } from '../../../components/metadata-form/metadata-form.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { visibleText } from '../../../lib/visible-text.ts';
import { isMetadataRule } from '../../../api/metadata/schemas.ts';
import type { ProblemRow } from '../engine/progress.ts';
import { reasonOf } from './job-text.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

/**
 * Fixed row heights in px (jobs.css): the virtualizer places rows without measuring them. On a narrow screen
 * a row is the key on its own line above its result (the key keeps the whole width).
 */
const ROW_HEIGHT = 52;
const NARROW_ROW_HEIGHT = 84;
const NARROW = '(max-width: 40rem)';
const OVERSCAN_ROWS = 8;

function useNarrow(): boolean {
  const query = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : null;
  return useSyncExternalStore(
    (listener) => {
      query?.addEventListener('change', listener);
      return () => query?.removeEventListener('change', listener);
    },
    () => query?.matches ?? false,
    () => false,
  );
}

/**
 * The objects a job skipped or that failed, however many: a scrolling box that keeps only the visible rows
 * (and a few more) in the DOM, with the table's semantics (aria-rowcount, aria-rowindex; the space of the
 * rows not rendered is two hidden spacer rows). Memoized on the rows' version: the job's counts change
 * many times a second, this table only when a problem is added.
 */
export const ProblemsTable = memo(function ProblemsTable({ rows, beyond }: { rows: readonly ProblemRow[]; beyond: number; version: number }) {
  const { t } = useI18n();
  const scrollRef = useRef<HTMLElement>(null);
  const height = useNarrow() ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  // oxlint-disable-next-line react/incompatible-library -- the virtualizer's functions change identity on every scroll
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => height,
    overscan: OVERSCAN_ROWS,
    initialRect: { width: 800, height: 8 * height },
  });
  useEffect(() => virtualizer.measure(), [height, virtualizer]);
  if (rows.length === 0) return <p className="status-line" data-testid="job-problems-none">{t('jobs.problems.none')}</p>;
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;
  return (
    <>
      {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reachable by keyboard */}
      <section className="job-problems" ref={scrollRef} tabIndex={0} aria-label={t('jobs.problems')}>
        <table className="table table--compact" data-testid="job-problems" aria-rowcount={rows.length + 1}>
          <caption>{t('jobs.problems')}</caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">{t('jobs.col.key')}</th>
              <th scope="col">{t('jobs.col.result')}</th>
              <th scope="col">{t('jobs.col.requestId')}</th>
            </tr>
          </thead>
          <tbody>
            <SpacerRow height={before} />
            {items.map((item) => {
              const row = rows[item.index];
              return row ? <ProblemLine key={row.key} row={row} index={item.index} /> : null;
            })}
            <SpacerRow height={after} />
          </tbody>
        </table>
      </section>
      {beyond > 0 ? <p className="field-hint">{t('jobs.problems.beyond', { count: beyond })}</p> : null}
    </>
  );
});

const ProblemLine = memo(function ProblemLine({ row, index }: { row: ProblemRow; index: number }) {
  const { t } = useI18n();
  const rule = row.rule && isMetadataRule(row.rule.rule) ? row.rule : undefined;
  return (
    <tr data-status={row.state} aria-rowindex={index + 2}>
      <th scope="row" dir="auto" className="mono job-problems__key" title={visibleText(row.key)}>
        {visibleText(row.key)}
      </th>
      <td>
        <div className="job-problems__result">
          <span className="bulk-status">{t(row.state === 'failed' ? 'jobs.state.failed' : 'jobs.state.skipped')}</span>{' '}
          <span role="alert" data-error-code={row.code}>
            {row.code ? <code>{row.code}</code> : null} {rule && isMetadataRule(rule.rule) ? t(ruleMessageKey(rule.rule), { bytes: rule.bytes ?? 0, limit: rule.limit ?? 0 }) : reasonOf({ t }, row)}
          </span>
        </div>
      </td>
      <td className="mono job-problems__id" data-testid="request-id">
        {row.requestId ?? ''}
      </td>
    </tr>
  );
});

function SpacerRow({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="job-problems__spacer">
      {/* oxlint-disable-next-line jsx-a11y/control-has-associated-label -- an empty spacer hidden from assistive technology */}
      <td colSpan={3} style={{ height }} />
    </tr>
  );
}
