import { useId } from 'react';
import { Loading } from '../../components/spinner.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import type { MetadataVisibility } from './visibility.ts';

export function visibilityAllowsSave(visibility: MetadataVisibility, acknowledged: boolean): boolean {
  return visibility.kind === 'complete' || ((visibility.kind === 'partial' || visibility.kind === 'unknown') && acknowledged);
}

/**
 * Warns before a REPLACE save when the browser may not see every custom key (see visibility.ts), and asks
 * for an explicit acknowledgement; nothing is hidden from the user.
 */
export function VisibilityNotice({ visibility, acknowledged, onAcknowledge }: {
  visibility: MetadataVisibility;
  acknowledged: boolean;
  onAcknowledge: (value: boolean) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  if (visibility.kind === 'complete') return null;
  if (visibility.kind === 'checking') return <Loading label={t('metadata.visibility.checking')} />;
  return (
    <div className="notice notice--warn" data-testid="visibility-warning">
      <p>{t(visibility.kind === 'partial' ? 'metadata.visibility.partial' : 'metadata.visibility.unknown')}</p>
      {visibility.kind === 'partial' ? (
        <p>
          {t('metadata.visibility.exposed')}{' '}
          <code>{visibility.exposedKeys.length > 0 ? visibility.exposedKeys.map((k) => `x-qs-meta-${k}`).join(', ') : t('common.none')}</code>
        </p>
      ) : null}
      <p>{t('metadata.visibility.fix')}</p>
      <input id={id} type="checkbox" checked={acknowledged} onChange={(e) => onAcknowledge(e.target.checked)} />{' '}
      <label htmlFor={id}>{t('metadata.visibility.ack')}</label>
    </div>
  );
}
