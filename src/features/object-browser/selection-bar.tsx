import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import type { ObjectSelectionModel } from './use-object-selection.ts';

/**
 * The selection's count and actions, over the list's tools in the same place and height (hidden while nothing
 * is selected), so nothing below moves when the first object is selected.
 */
export function SelectionBar({ selection, hasNextPage, selectingAll, actions }: {
  selection: ObjectSelectionModel;
  hasNextPage: boolean;
  /** "Select all matching" is reading the remaining pages. */
  selectingAll: boolean;
  /** The selection actions the app plugs in (delete, edit metadata), while the bar shows. */
  actions: ReactNode;
}) {
  const { t, tp } = useI18n();
  const { barRef, actionsShown, selectedKeys, selectedBytes, allMatching, loadedObjects } = selection;
  return (
    <section ref={barRef} className="selection-bar" aria-label={t('browser.selectionBar')} hidden={!actionsShown}>
      <output className="selection-bar__count" data-testid="selection-status">
        {tp('browser.selected', selectedKeys.size, { size: formatBytes(selectedBytes) })}
      </output>
      {allMatching || (hasNextPage && loadedObjects > 0 && selectedKeys.size === loadedObjects) ? (
        <span className="selection-bar__matching">
          {selectingAll ? (
            <>
              <output>{tp('select.loading', selectedKeys.size)}</output>
              <button type="button" className="button button--small" onClick={selection.cancelLoadingAll}>
                {t('common.cancel')}
              </button>
            </>
          ) : allMatching && !hasNextPage ? (
            <output>{tp('select.allMatching', selectedKeys.size)}</output>
          ) : (
            <>
              <span>{tp('select.allLoaded', selectedKeys.size)}</span>
              <button type="button" className="button button--link" onClick={selection.selectAllMatching}>
                {t('select.matching')}
              </button>
            </>
          )}
        </span>
      ) : null}
      {/* Clear first, then the actions as their code arrives: each one lands at the end, moving nothing. */}
      <span className="selection-bar__actions">
        {actionsShown ? (
          <button type="button" className="button button--ghost" onClick={selection.clearSelection}>
            {t('browser.clearSelection')}
          </button>
        ) : null}
        {actions}
      </span>
    </section>
  );
}
