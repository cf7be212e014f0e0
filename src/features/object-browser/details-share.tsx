import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { demoLinkOnOrigin } from '../../api/demo-link.ts';
import { objectLinkMutation } from '../../api/objects/link-queries.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';

const EXPIRY_CHOICES: ReadonlyArray<{ seconds: number; label: MessageKey }> = [
  { seconds: 300, label: 'details.expiry.5m' },
  { seconds: 3600, label: 'details.expiry.1h' },
  { seconds: 86_400, label: 'details.expiry.1d' },
  { seconds: 604_800, label: 'details.expiry.7d' },
];

/** The Share tab: a pre-signed link with a chosen lifetime, to copy or follow. */
export function ShareLink({ zone, bucket, objectKey, name, demo }: { zone: string; bucket: string; objectKey: string; name: string; demo: boolean }) {
  const { t, formatDateTime } = useI18n();
  const client = useClient();
  const selectId = useId();
  const [expiresIn, setExpiresIn] = useState(3600);
  const presign = useMutation(objectLinkMutation(client));
  const signed = client.connection.credentials !== undefined;

  return (
    <section className="details__download" aria-labelledby={`${selectId}-h`}>
      <h3 id={`${selectId}-h`}>{t('details.download')}</h3>
      <p className="preview__note">{t('detailsPanel.share.hint')}</p>
      <div className="inline-form__fields">
        {signed ? (
          <>
            <label htmlFor={selectId}>{t('details.expiry')}</label>
            <select id={selectId} value={expiresIn} onChange={(e) => setExpiresIn(Number(e.target.value))}>
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {t(choice.label)}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button type="button" className="button" onClick={() => presign.mutate({ zone, bucket, key: objectKey, expiresIn, downloadName: name })} disabled={presign.isPending}>
          {t('details.createLink')}
        </button>
      </div>
      {presign.isError ? <ErrorNotice error={presign.error} /> : null}
      {presign.data ? (
        <div className="details__link">
          <p>{signed ? t('details.linkReady', { time: formatDateTime(presign.data.until) }) : t('details.linkPublic')}</p>
          <code className="details__url" data-testid="share-url" aria-label={t('detailsPanel.share.url')}>
            {presign.data.url.href}
          </code>
          <div className="details__link-actions">
            {/* In demo mode the link is followed on the console's own origin (the demo host never resolves). The
                link asks for an attachment, so following it saves the file; no `download` attribute (see
                startDownload in object-links.ts). An unsigned link cannot ask for that: it opens in a new tab. */}
            <a href={(demo ? demoLinkOnOrigin(presign.data.url, window.location.origin) : presign.data.url).href} rel="noreferrer" target={signed ? undefined : '_blank'} data-testid="download-link" dir="auto">
              {t('details.openLink', { name: visibleText(name) })}
            </a>
            <CopyButton text={presign.data.url.href} label={t('details.copyLink')} />
          </div>
        </div>
      ) : null}
    </section>
  );
}
