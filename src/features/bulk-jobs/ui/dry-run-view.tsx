import { memo } from 'react';
import type { MetadataChange } from '../../../api/metadata/edit.ts';
import { decodeMetadataValue } from '../../../api/metadata/encoding.ts';
import { CUSTOM_METADATA_PREFIX } from '../../../api/protocol/headers.ts';
import { ruleMessageKey } from '../../../components/metadata-form/metadata-form.tsx';
import { useI18n, type MessageKey } from '../../../i18n/i18n.tsx';
import { visibleText } from '../../../lib/visible-text.ts';
import type { DryRun, PreviewRow } from '../engine/dry-run.ts';
import { reasonOf } from './job-text.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/metadata.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

const PARTS = ['ready', 'unchanged', 'invalid', 'blocked', 'failed'] as const;

const LABELS: Record<PreviewRow['status'], MessageKey> = {
  ready: 'metadata.bulkRun.status.ready',
  unchanged: 'metadata.bulkRun.status.unchanged',
  invalid: 'metadata.bulkRun.status.invalid',
  blocked: 'metadata.bulkRun.status.blocked',
  failed: 'metadata.bulkRun.status.failed',
  listed: 'metadata.bulk.status.pending',
};

/** The dry run's outcome: how many objects, what happens to the first ones (each row a before → after per field). */
export function DryRunSummary({ result }: { result: DryRun }) {
  const { t } = useI18n();
  const counts = { ready: 0, unchanged: 0, invalid: 0, blocked: 0, failed: 0 };
  let listed = 0;
  for (const row of result.sample) {
    if (row.status === 'listed') listed += 1;
    else counts[row.status] += 1;
  }
  const sample = result.sample.length;
  if (listed > 0 || sample === 0) {
    return (
      <output className="status-line" data-testid="bulk-preview-summary">
        {t('jobs.dryRun.listedFirst', { sample, total: result.total })}
      </output>
    );
  }
  // "would change" always; the other outcomes only when some object has them.
  const parts = PARTS.filter((part) => part === 'ready' || counts[part] > 0)
    .map((part) => t(`metadata.bulkRun.part.${part}`, { count: counts[part] }))
    .join(t('metadata.bulkRun.partSeparator'));
  return (
    <output className="status-line" data-testid="bulk-preview-summary">
      {sample < result.total ? t('jobs.dryRun.summaryFirst', { sample, total: result.total, parts }) : t('jobs.dryRun.summary', { total: result.total, parts })}
    </output>
  );
}

/** At most DRY_RUN_SAMPLE rows: a plain table. */
export const DryRunTable = memo(function DryRunTable({ rows }: { rows: readonly PreviewRow[] }) {
  const { t } = useI18n();
  const transfer = rows.some((row) => row.status === 'listed');
  return (
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reachable by keyboard
    <section className="bulk-table-scroll" aria-label={t('metadata.bulkRun.previewResults')} tabIndex={0}>
      <table className="table table--compact bulk-preview" data-testid="bulk-preview">
        <caption>{t('metadata.bulkRun.previewResults')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('jobs.col.key')}</th>
            {transfer ? null : <th scope="col">{t('metadata.bulk.status')}</th>}
            <th scope="col">{t('metadata.bulkRun.changes')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <PreviewLine key={row.key} row={row} />
          ))}
        </tbody>
      </table>
    </section>
  );
});

function PreviewLine({ row }: { row: PreviewRow }) {
  const { t } = useI18n();
  return (
    <tr data-status={row.status}>
      <th scope="row" dir="auto" className="mono">
        {visibleText(row.key)}
      </th>
      {row.status === 'listed' ? null : (
        <td>
          <span className="bulk-status">{t(LABELS[row.status])}</span>
        </td>
      )}
      <td>
        <Detail row={row} />
      </td>
    </tr>
  );
}

function Detail({ row }: { row: PreviewRow }) {
  const { t } = useI18n();
  switch (row.status) {
    case 'ready':
      return <ChangeList changes={row.changes} />;
    case 'invalid':
      return (
        <>
          <span role="alert" data-error-code={row.code}>
            <code>{row.code}</code> — {t(ruleMessageKey(row.rule), { bytes: row.bytes ?? 0, limit: row.limit ?? 0 })}
          </span>
          <ChangeList changes={row.changes} />
        </>
      );
    case 'blocked':
      return <span role="alert">{reasonOf({ t }, { code: row.block })}</span>;
    case 'failed':
      return (
        <span role="alert" data-error-code={row.code}>
          <code>{row.code}</code> {reasonOf({ t }, row)}
        </span>
      );
    case 'listed':
      return row.target === undefined ? null : <span className="mono">{t('jobs.dryRun.target', { target: visibleText(row.target) })}</span>;
    case 'unchanged':
      return null;
  }
}

function ChangeValue({ field, value }: { field: string; value: string | undefined }) {
  const { t } = useI18n();
  if (value === undefined) return <>{t('common.none')}</>;
  const decoded = field.startsWith(CUSTOM_METADATA_PREFIX) ? decodeMetadataValue(value) : null;
  return decoded && decoded.encoding !== 'plain' ? <span dir="auto">{visibleText(decoded.text)}</span> : <code>{visibleText(value)}</code>;
}

function ChangeList({ changes }: { changes: readonly MetadataChange[] }) {
  return (
    <ul className="bulk-changes">
      {changes.map((change) => (
        <li key={change.field} data-kind={change.kind}>
          <span className="mono">{change.field}</span>: <ChangeValue field={change.field} value={change.before} /> → <ChangeValue field={change.field} value={change.after} />
        </li>
      ))}
    </ul>
  );
}
