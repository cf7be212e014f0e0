import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { describeError } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { checkDestination, type DestinationState } from './destination.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';

/** The destination check of one form: remembered for the destination it was made for. */
export function useDestinationCheck(zone: string, bucket: string, key: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  const target = JSON.stringify([bucket, key]);
  const [result, setResult] = useState<{ target: string; state: DestinationState } | null>(null);
  const [checking, setChecking] = useState(false);
  const check = async (): Promise<DestinationState> => {
    setChecking(true);
    try {
      const state = await checkDestination(client, queryClient, { zone, bucket, key });
      setResult({ target, state });
      return state;
    } finally {
      setChecking(false);
    }
  };
  return { state: result?.target === target ? result.state : null, checking, check };
}

/** Says what already stands at the destination and asks before replacing it. */
export function DestinationNotice({ state, zone, bucket, destKey, pending, onReplace }: {
  state: DestinationState | null;
  zone: string;
  bucket: string;
  destKey: string;
  pending: boolean;
  onReplace: () => void;
}) {
  const i18n = useI18n();
  const { t, formatDateTime } = i18n;
  if (state?.kind === 'other-zone') {
    return (
      <p className="field-error" role="alert">
        {t('actions.otherZone', { bucket, bucketZone: state.bucketZone, zone })}
      </p>
    );
  }
  if (state?.kind === 'unknown') {
    return (
      <div className="notice notice--warn" role="alert" data-testid="overwrite-confirm">
        <p dir="auto">{t('picker.unknownDestination', { key: destKey, reason: describeError(state.error, i18n).explanation })}</p>
        <div className="notice__actions">
          <button type="button" className="button button--danger" onClick={onReplace} disabled={pending}>
            {t('picker.writeAnyway')}
          </button>
        </div>
      </div>
    );
  }
  if (state?.kind !== 'exists') return null;
  return (
    <div className="notice notice--warn" role="alert" data-testid="overwrite-confirm">
      <p>
        {t('actions.exists', {
          key: destKey,
          size: formatBytes(state.head.size),
          modified: state.head.lastModified ? formatDateTime(state.head.lastModified) : t('common.none'),
        })}
      </p>
      <div className="notice__actions">
        <button type="button" className="button button--danger" onClick={onReplace} disabled={pending}>
          {t('actions.replaceExisting')}
        </button>
      </div>
    </div>
  );
}

/** Reports `dirty` to the dialog's guard while the form shows, and clean once it goes. */
export function useReportDirty(dirty: boolean, onDirty: (dirty: boolean) => void) {
  useEffect(() => {
    onDirty(dirty);
  }, [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);
}
