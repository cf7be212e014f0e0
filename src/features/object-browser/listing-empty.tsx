import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/buckets.ts';

/**
 * What an empty listing says where its rows would be: a filter that matches nothing (and the way back to the
 * whole folder), or an empty folder (and how to fill it). Loaded only when a listing comes back empty: it is
 * never part of the first rows.
 */
export function ListingEmpty({ filter, onClearFilter, canDrop }: { filter: string; onClearFilter: () => void; canDrop: boolean }) {
  const { t } = useI18n();
  if (filter) return <EmptyState title={t('browser.emptyFilter', { filter })} action={<Button onClick={onClearFilter}>{t('buckets.clearFilter')}</Button>} />;
  return <EmptyState title={t('browser.empty')} body={canDrop ? t('buckets.folderEmptyHint') : undefined} />;
}
