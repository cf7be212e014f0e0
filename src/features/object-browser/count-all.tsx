import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { prefixCountQuery, type PrefixCount } from '../../api/objects/count-queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { frameThrottle } from '../../lib/frame-throttle.ts';

/**
 * "Count all": pages through every key under the listing's prefix (subfolders included), showing the running
 * count and size, with Cancel; the result stays until the listing changes (the component is keyed by it).
 */
export function CountAll({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<PrefixCount | null>(null);
  const [stopped, setStopped] = useState(false);
  // Pages arrive far more often than a screen can show them: the running figures render once a frame.
  const [progressUpdates] = useState(() => frameThrottle<PrefixCount | null>(setProgress));
  useEffect(() => () => progressUpdates.cancel(), [progressUpdates]);
  const options = prefixCountQuery(client, { zone, bucket, prefix }, progressUpdates.push);
  const count = useQuery({ ...options, enabled: running });
  const location = `${bucket}/${prefix}`;
  const start = () => {
    progressUpdates.cancel();
    setProgress(null);
    setStopped(false);
    setRunning(true);
    if (running) void count.refetch();
  };
  const cancel = () => {
    progressUpdates.flush();
    setRunning(false);
    setStopped(true);
    void queryClient.cancelQueries({ queryKey: options.queryKey });
  };
  const busy = running && count.isFetching;
  return (
    <>
      {busy ? (
        <>
          <output data-testid="count-all">{tp('count.progress', progress?.count ?? 0, { size: formatBytes(progress?.size ?? 0) })}</output>
          <button type="button" className="button button--small" onClick={cancel}>
            {t('common.cancel')}
          </button>
        </>
      ) : (
        <>
          {running && count.data ? <output data-testid="count-all">{tp('count.result', count.data.count, { location, size: formatBytes(count.data.size) })}</output> : null}
          {stopped && progress ? <output data-testid="count-all">{tp('count.stopped', progress.count, { size: formatBytes(progress.size) })}</output> : null}
          <button type="button" className="button button--small" onClick={start} title={t('count.hint', { location })}>
            {t('count.button')}
          </button>
        </>
      )}
      {running && count.isError ? <ErrorNotice error={count.error} onRetry={() => void count.refetch()} /> : null}
    </>
  );
}
