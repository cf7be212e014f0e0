import type { MetadataChange } from '../../api/metadata/edit.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { CUSTOM_METADATA_PREFIX } from '../../api/protocol/headers.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

const KIND_LABELS: Record<MetadataChange['kind'], MessageKey> = {
  added: 'metadata.diff.added',
  changed: 'metadata.diff.changed',
  removed: 'metadata.diff.removed',
};

function Value({ field, value, unknown = false }: { field: string; value: string | undefined; unknown?: boolean }) {
  const { t } = useI18n();
  if (unknown) return <>{t('details.refusedValue')}</>;
  if (value === undefined) return <>{t('common.none')}</>;
  const decoded = field.startsWith(CUSTOM_METADATA_PREFIX) ? decodeMetadataValue(value) : null;
  return (
    <>
      <code>{visibleText(value)}</code>
      {decoded && decoded.encoding !== 'plain' ? (
        <>
          {' '}
          <span dir="auto">({visibleText(decoded.text)})</span>
        </>
      ) : null}
    </>
  );
}

/**
 * What a save will change (or changed), side by side: one row per header, the value before on the left and
 * after on the right; what goes away is tinted as removed, what comes as added.
 */
export function MetadataDiff({ changes, caption, beforeLabel, afterLabel, testId = 'metadata-diff' }: {
  changes: readonly MetadataChange[];
  caption: string;
  beforeLabel?: string;
  afterLabel?: string;
  testId?: string;
}) {
  const { t } = useI18n();
  if (changes.length === 0) return <p data-testid={testId}>{t('metadata.diff.none')}</p>;
  return (
    <table className="table table--compact metadata-diff metadata-diff--sides" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('metadata.diff.change')}</th>
          <th scope="col">{t('details.header')}</th>
          <th scope="col">{beforeLabel ?? t('metadata.diff.before')}</th>
          <th scope="col">{afterLabel ?? t('metadata.diff.after')}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.field} data-kind={change.kind}>
            <td>
              <span className={`diff-kind diff-kind--${change.kind}`}>{t(KIND_LABELS[change.kind])}</span>
            </td>
            <th scope="row" className="mono">
              {change.field}
            </th>
            <td className={change.kind === 'added' ? 'diff-side' : 'diff-side diff-side--old'} data-label={beforeLabel ?? t('metadata.diff.before')}>
              <Value field={change.field} value={change.before} unknown={change.beforeUnknown === true} />
            </td>
            <td className={change.kind === 'removed' ? 'diff-side' : 'diff-side diff-side--new'} data-label={afterLabel ?? t('metadata.diff.after')}>
              <Value field={change.field} value={change.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
