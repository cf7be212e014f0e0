import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ObjectHead } from '../../api/objects/operations.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { hiddenHeadersOf } from '../../api/cors/visibility.ts';
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS } from '../../api/metadata/model.ts';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { objectHeadQuery } from './data.ts';
import { getObjectUrl } from '../../api/objects/operations.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

const EXPIRY_CHOICES: ReadonlyArray<{ seconds: number; label: MessageKey }> = [
  { seconds: 300, label: 'details.expiry.5m' },
  { seconds: 3600, label: 'details.expiry.1h' },
  { seconds: 86_400, label: 'details.expiry.1d' },
  { seconds: 604_800, label: 'details.expiry.7d' },
];

export interface ObjectDetailsContext {
  zone: string;
  bucket: string;
  key: string;
  head: ObjectHead;
}

/** Below this width the details panel is a full-screen sheet (object-browser.css). */
const SHEET_MEDIA = '(max-width: 52rem)';

export function ObjectDetails({ zone, bucket, objectKey, onClose, extra }: {
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  extra?: (object: ObjectDetailsContext) => ReactNode;
}) {
  const { t, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const head = useQuery(objectHeadQuery(client, zone, bucket, objectKey));
  const titleId = useId();
  const name = objectKey.slice(objectKey.lastIndexOf('/', objectKey.length - 2) + 1);
  const data = head.data;
  const visibility = useHeaderVisibility(zone, bucket);
  const hidden = data ? hiddenHeadersOf(visibility, data) : null;
  const hiddenLabel = <span className="hidden-value">{t('metadata.visibility.hidden')}</span>;
  const asideRef = useRef<HTMLElement>(null);
  // On a narrow screen the panel is a full-screen sheet over the list: when it opens, keyboard focus moves into it, so it
  // is where the user is (and Escape closes it below).
  useEffect(() => {
    if (typeof window.matchMedia === 'function' && window.matchMedia(SHEET_MEDIA).matches) asideRef.current?.focus();
  }, []);
  // Closing the panel from inside it (Close, Escape) gives focus back to the object list, not to the page.
  useLayoutEffect(() => {
    const aside = asideRef.current;
    return () => {
      if (aside?.contains(document.activeElement)) aside.closest('.browser')?.querySelector<HTMLElement>('[role="grid"]')?.focus();
    };
  }, []);
  useEffect(() => {
    const aside = asideRef.current;
    if (!aside) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened from the panel closes itself on Escape; the panel stays.
      if (event.key === 'Escape' && !event.defaultPrevented && !(event.target instanceof Element && event.target.closest('dialog'))) onClose();
    };
    aside.addEventListener('keydown', onKeyDown);
    return () => aside.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  return (
    <aside
      ref={asideRef}
      className="details"
      aria-labelledby={titleId}
      data-testid="object-details"
      tabIndex={-1}
    >
      <div className="details__header">
        <h2 id={titleId}>{t('details.title')}</h2>
        <button type="button" className="button button--small" onClick={onClose}>
          {t('details.close')}
        </button>
      </div>
      <dl className="details__facts">
        <dt>{t('details.key')}</dt>
        <dd dir="auto" className="details__key" data-testid="details-key">
          {objectKey}
        </dd>
      </dl>
      {head.isPending ? <Loading label={t('details.loading')} /> : null}
      {head.isError ? (
        <ErrorNotice error={head.error} onRetry={() => void head.refetch()} corsHelp={<CorsHelp bucket={{ zone, name: bucket }} />} />
      ) : null}
      {data ? (
        <>
          <dl className="details__facts">
            <dt>{t('details.size')}</dt>
            <dd>
              {`${formatBytes(data.size)} (${t('details.bytes', { bytes: formatNumber(data.size) })})`}
            </dd>
            <dt>{t('details.type')}</dt>
            <dd>{data.contentType}</dd>
            <dt>{t('details.modified')}</dt>
            <dd>{data.lastModified ? formatDateTime(data.lastModified) : t('common.none')}</dd>
            <dt>{t('details.etag')}</dt>
            <dd className="mono">{data.etag ?? (hidden?.etag ? hiddenLabel : t('common.none'))}</dd>
            <dt>{t('details.storageClass')}</dt>
            <dd>{data.storageClass}</dd>
          </dl>
          {data.refused ? (
            <p className="notice notice--error" role="alert" data-testid="refused-notice">
              {t('details.refusedEncoding')}
            </p>
          ) : null}
          <h3>{t('details.standard')}</h3>
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col">{t('details.header')}</th>
                <th scope="col">{t('details.value')}</th>
              </tr>
            </thead>
            <tbody>
              {STANDARD_METADATA_HEADERS.map((header) => (
                <tr key={header}>
                  <th scope="row" className="mono">
                    {header}
                  </th>
                  <td dir="auto">
                    {data.metadata.standard[header] !== undefined
                      ? visibleText(data.metadata.standard[header])
                      : data.refused === header ? <span className="hidden-value">{t('details.refusedValue')}</span>
                      : hidden?.standard.includes(header) ? hiddenLabel : t('common.none')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>{t('details.custom')}</h3>
          <CustomMetadata custom={data.metadata.custom} othersHidden={hidden?.custom != null} />
          {hidden?.custom ? <p className="notice notice--warn" data-testid="custom-hidden">{t('metadata.visibility.customHidden')}</p> : null}
          {/* Keyed by object: a link for another object must never linger when the panel switches. */}
          <DownloadLink key={`${zone}/${bucket}/${objectKey}`} zone={zone} bucket={bucket} objectKey={objectKey} name={name} />
          {extra ? extra({ zone, bucket, key: objectKey, head: data }) : null}
        </>
      ) : null}
    </aside>
  );
}

function CustomMetadata({ custom, othersHidden }: { custom: Record<string, string>; othersHidden: boolean }) {
  const { t } = useI18n();
  const entries = Object.entries(custom).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // "No custom metadata" would be a claim the browser cannot make when the rule hides custom keys.
  if (entries.length === 0) return othersHidden ? null : <p>{t('details.noCustom')}</p>;
  return (
    <table className="table table--compact" data-testid="custom-metadata">
      <thead>
        <tr>
          <th scope="col">{t('details.header')}</th>
          <th scope="col">{t('details.stored')}</th>
          <th scope="col">{t('details.decoded')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([key, value]) => {
          const decoded = decodeMetadataValue(value);
          return (
            <tr key={key}>
              <th scope="row" className="mono">
                {CUSTOM_METADATA_PREFIX}
                {key}
              </th>
              <td className="mono">{visibleText(value)}</td>
              <td dir="auto">{decoded.encoding === 'plain' ? t('common.none') : visibleText(decoded.text)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function DownloadLink({ zone, bucket, objectKey, name }: { zone: string; bucket: string; objectKey: string; name: string }) {
  const { t, formatDateTime } = useI18n();
  const client = useClient();
  const selectId = useId();
  const [expiresIn, setExpiresIn] = useState(3600);
  const presign = useMutation({
    mutationFn: async (seconds: number) => ({
      url: await getObjectUrl(client, { zone, bucket, key: objectKey, expiresIn: seconds, downloadName: name }),
      until: new Date(client.now().getTime() + seconds * 1000),
    }),
  });
  const signed = client.connection.credentials !== undefined;

  return (
    <section className="details__download" aria-labelledby={`${selectId}-h`}>
      <h3 id={`${selectId}-h`}>{t('details.download')}</h3>
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
        <button type="button" className="button" onClick={() => presign.mutate(expiresIn)} disabled={presign.isPending}>
          {t('details.createLink')}
        </button>
      </div>
      {presign.isError ? <ErrorNotice error={presign.error} /> : null}
      {presign.data ? (
        <div className="details__link">
          <p>{signed ? t('details.linkReady', { time: formatDateTime(presign.data.until) }) : t('details.linkPublic')}</p>
          <a href={presign.data.url.href} download={name} rel="noreferrer" data-testid="download-link" dir="auto">
            {t('details.openLink', { name })}
          </a>{' '}
          <CopyButton text={presign.data.url.href} label={t('details.copyLink')} />
        </div>
      ) : null}
    </section>
  );
}
