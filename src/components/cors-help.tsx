import { useState } from 'react';
import type { Connection } from '../api/connection.ts';
import { useCorsFix } from '../hooks/use-cors-fix.ts';
import { useI18n } from '../i18n/i18n.tsx';
import { CopyButton } from './copy-button.tsx';
import { buildCorsRule } from '../api/cors/rule.ts';
import { Dialog } from './dialog.tsx';
import { ErrorNotice } from './error-notice.tsx';

/** Button + dialog explaining a CORS block; with a bucket it shows the exact rule and can apply it. */
export function CorsHelp({ bucket, connection }: { bucket?: { zone: string; name: string }; connection?: Connection }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <div className="notice__actions">
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {t('error.explainCors')}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('cors.title')}>
        {bucket ? <BucketCors bucket={bucket} {...(connection ? { connection } : {})} /> : <p>{t('cors.whatNoBucket')}</p>}
      </Dialog>
    </div>
  );
}

function BucketCors({ bucket, connection }: { bucket: { zone: string; name: string }; connection?: Connection }) {
  const { t } = useI18n();
  const origin = window.location.origin;
  const ruleJson = JSON.stringify(buildCorsRule(origin), null, 2);
  const fix = useCorsFix(bucket, connection);
  return (
    <div className="cors-help">
      <p>{t('cors.what', { origin, bucket: bucket.name })}</p>
      <h3>{t('cors.rule')}</h3>
      <pre aria-label={t('cors.rule')} data-testid="cors-rule">
        {ruleJson}
      </pre>
      <CopyButton text={ruleJson} label={t('cors.copyRule')} />
      <p>{t('cors.merge')}</p>
      <p className="notice notice--warn">{t('cors.applyMayFail')}</p>
      <div className="notice__actions">
        <button type="button" className="button button--primary" disabled={fix.isPending} onClick={() => fix.mutate(origin)}>
          {fix.isPending ? t('cors.applying') : t('cors.apply', { bucket: bucket.name })}
        </button>
      </div>
      {fix.isSuccess ? (
        <output className="notice notice--ok">{t('cors.applied')}</output>
      ) : null}
      {fix.isError ? <ErrorNotice error={fix.error} title={t('cors.applyFailed')} /> : null}
    </div>
  );
}
