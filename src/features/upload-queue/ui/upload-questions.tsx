import { useEffect, useId, useRef } from 'react';
import { useI18n } from '../../../i18n/i18n.tsx';
import { visibleText } from '../../../lib/visible-text.ts';
import type { BatchProblem, ConflictChoice, PlannedUpload } from '../engine/index.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';

/** What the panel asks before a batch starts: keys that exist already, and files that cannot be uploaded. */
export function ConflictQuestion({ bucket, conflicts, busy, onDecide, onCancel }: {
  bucket: string;
  conflicts: readonly PlannedUpload[];
  busy: boolean;
  onDecide: (choice: ConflictChoice) => void;
  onCancel: () => void;
}) {
  const { t, tp } = useI18n();
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  // The question can appear below a long staged list: bring it into view and put the keyboard on it.
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} className="notice notice--warn" aria-labelledby={titleId}>
      <p id={titleId} role="alert">
        {tp('uploads.conflict.title', conflicts.length, { bucket })}
      </p>
      <ul className="uploads__conflicts" aria-label={t('uploads.conflict.list')}>
        {conflicts.slice(0, 10).map((upload) => (
          <li key={upload.key} dir="auto">
            {visibleText(upload.key)}
          </li>
        ))}
        {conflicts.length > 10 ? <li>{t('uploads.stagedMore', { count: conflicts.length - 10 })}</li> : null}
      </ul>
      <div className="notice__actions">
        <button type="button" className="button" disabled={busy} onClick={() => onDecide('rename')}>
          {t('uploads.conflict.rename')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => onDecide('skip')}>
          {t('uploads.conflict.skip')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => onDecide('overwrite')}>
          {t('uploads.conflict.overwrite')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          {t('uploads.conflict.cancel')}
        </button>
      </div>
    </section>
  );
}

export function Problems({ problems }: { problems: readonly BatchProblem[] }) {
  const { t } = useI18n();
  return (
    <div className="notice notice--error" role="alert">
      <p>{t('uploads.problems')}</p>
      <ul>
        {problems.map((p, i) => (
          <li key={i} dir="auto">
            {p.kind === 'key' ? t(`uploads.keyProblem.${p.reason}`, { key: p.key || p.relativePath }) : p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
