import { useMutation, useQuery } from '@tanstack/react-query';
import Copy from 'lucide-react/icons/copy';
import Download from 'lucide-react/icons/download';
import LinkIcon from 'lucide-react/icons/link';
import X from 'lucide-react/icons/x';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ObjectHead } from '../../api/objects/read.ts';
import { objectLinkMutation } from '../../api/objects/link-queries.ts';
import { headObjectQuery } from '../../api/objects/queries.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { hiddenHeadersOf } from '../../api/cors/visibility.ts';
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS } from '../../api/protocol/headers.ts';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { readQueryParam } from '../../hooks/browse-location.ts';
import { useLocation } from '../../lib/router.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { ObjectPreview } from './details-preview.tsx';
import { ShareLink } from './details-share.tsx';
import { Tabs, type TabDef } from '../../components/ui/tabs.tsx';
import { startDownload } from './object-links.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

export interface ObjectDetailsContext {
  zone: string;
  bucket: string;
  key: string;
  head: ObjectHead;
}

/** Below this width the details panel is a full-screen sheet (object-browser.css). */
const SHEET_MEDIA = '(max-width: 52rem)';

type DetailsTab = 'overview' | 'metadata' | 'preview' | 'share';

export function ObjectDetails({ zone, bucket, objectKey, onClose, extra, metadataActions }: {
  zone: string;
  bucket: string;
  objectKey: string;
  onClose: () => void;
  /** Actions on the object (copy, move, delete), shown on the Overview tab. */
  extra?: (object: ObjectDetailsContext) => ReactNode;
  /** Metadata actions (Edit opens the editor), shown on the Metadata tab. */
  metadataActions?: (object: ObjectDetailsContext) => ReactNode;
}) {
  const { t, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const session = useConnectedSession();
  const demo = session.mode === 'demo';
  const head = useQuery(headObjectQuery(client, { zone, bucket, key: objectKey }));
  const titleId = useId();
  const name = objectKey.slice(objectKey.lastIndexOf('/', objectKey.length - 2) + 1);
  const data = head.data;
  const visibility = useHeaderVisibility(zone, bucket);
  const hidden = data ? hiddenHeadersOf(visibility, data) : null;
  const hiddenLabel = <span className="hidden-value">{t('metadata.visibility.hidden')}</span>;
  const asideRef = useRef<HTMLElement>(null);
  // The tab stays when another object is opened in the panel (look at one preview after another); a panel that
  // opens starts on Overview, or on Metadata when the address opens the metadata editor (`edit=1`, a reload or
  // a shared link), whose launcher lives on that tab. Panels shown for this object stay mounted.
  const location = useLocation();
  const [tabState, setTabState] = useState<{ tab: DetailsTab; key: string; shown: ReadonlySet<DetailsTab> }>(() => ({
    tab: readQueryParam(location.search, 'edit') === '1' ? 'metadata' : 'overview',
    key: objectKey,
    shown: new Set(),
  }));
  // An `edit=1` that arrives while the panel is open (the row menu's Edit metadata…) brings the Metadata tab too.
  const editing = readQueryParam(location.search, 'edit') === '1';
  const [wasEditing, setWasEditing] = useState(editing);
  if (editing !== wasEditing) {
    setWasEditing(editing);
    if (editing && tabState.tab !== 'metadata') setTabState({ tab: 'metadata', key: objectKey, shown: new Set([...tabState.shown, 'metadata']) });
  }
  const tab = tabState.tab;
  const shown = tabState.key === objectKey ? tabState.shown : new Set<DetailsTab>();
  const selectTab = (next: DetailsTab) => setTabState({ tab: next, key: objectKey, shown: new Set([...shown, tab, next]) });
  // On a narrow screen the panel is a full-screen sheet over the list: when it opens, keyboard focus moves into it, so it
  // is where the user is (and Escape closes it below); it is scrolled into view with it.
  useEffect(() => {
    if (typeof window.matchMedia === 'function' && window.matchMedia(SHEET_MEDIA).matches) {
      asideRef.current?.focus();
      asideRef.current?.scrollIntoView?.({ block: 'start' });
    }
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

  const signed = client.connection.credentials !== undefined;
  const download = useMutation(objectLinkMutation(client));
  const objectUrl = client.url({ zone, bucket, key: objectKey }).signingUrl.href;
  const context = data ? { zone, bucket, key: objectKey, head: data } : null;

  const tabs: ReadonlyArray<TabDef<DetailsTab>> = [
    { id: 'overview', label: t('detailsPanel.tab.overview') },
    { id: 'metadata', label: t('detailsPanel.tab.metadata') },
    { id: 'preview', label: t('detailsPanel.tab.preview') },
    { id: 'share', label: t('detailsPanel.tab.share') },
  ];

  const overview = (
    <>
      <dl className="details__facts">
        <dt>{t('details.key')}</dt>
        <dd dir="auto" className="details__key" data-testid="details-key">
          {visibleText(objectKey)}
        </dd>
        {data ? (
          <>
            <dt>{t('details.size')}</dt>
            <dd>{`${formatBytes(data.size)} (${t('details.bytes', { bytes: formatNumber(data.size) })})`}</dd>
            <dt>{t('details.type')}</dt>
            <dd>{visibleText(data.contentType)}</dd>
            <dt>{t('details.modified')}</dt>
            <dd>{data.lastModified ? formatDateTime(data.lastModified) : t('common.none')}</dd>
            <dt>{t('details.etag')}</dt>
            <dd className="mono">{data.etag ?? (hidden?.etag ? hiddenLabel : t('common.none'))}</dd>
            <dt>{t('details.storageClass')}</dt>
            <dd>{data.storageClass}</dd>
          </>
        ) : null}
      </dl>
      {data?.refused ? (
        <p className="notice notice--error" role="alert" data-testid="refused-notice">
          {t('details.refusedEncoding')}
        </p>
      ) : null}
      {extra && context ? <div className="details__extra">{extra(context)}</div> : null}
    </>
  );

  const metadata = data ? (
    <>
      {metadataActions && context ? <div className="details__extra">{metadataActions(context)}</div> : null}
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
    </>
  ) : null;

  return (
    <aside
      ref={asideRef}
      className="details"
      aria-label={t('details.title')}
      data-testid="object-details"
      tabIndex={-1}
    >
      <div className="details__header">
        {/* The name as text, with bidi and zero-width characters shown as code points. */}
        <h2 id={titleId} className="details__title" dir="auto" title={visibleText(objectKey)}>
          {visibleText(name)}
        </h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('details.close')} title={t('details.close')}>
          <X aria-hidden="true" size={18} />
        </button>
      </div>
      <div className="details__actions">
        <button
          type="button"
          className="button button--primary button--small"
          onClick={() =>
            download.mutate(
              { zone, bucket, key: objectKey, expiresIn: 300, downloadName: name, origin: demo ? window.location.origin : undefined },
              { onSuccess: ({ url }) => startDownload(url, !signed) },
            )
          }
          disabled={download.isPending}
          aria-label={t('detailsPanel.downloadOf', { name: visibleText(name) })}
        >
          <Download aria-hidden="true" size={16} />
          {t('detailsPanel.download')}
        </button>
        <CopyButton text={objectKey} label={t('detailsPanel.copyKey')} icon={<Copy aria-hidden="true" size={16} />} />
        <CopyButton text={objectUrl} label={t('detailsPanel.copyUrl')} title={t('detailsPanel.urlHint')} icon={<LinkIcon aria-hidden="true" size={16} />} />
      </div>
      {download.isError ? <ErrorNotice error={download.error} /> : null}
      {head.isError ? (
        <ErrorNotice error={head.error} onRetry={() => void head.refetch()} corsHelp={<CorsHelp bucket={{ zone, name: bucket }} />} />
      ) : null}
      <Tabs
        label={t('detailsPanel.sections')}
        tabs={tabs}
        selected={tab}
        onSelect={selectTab}
        shown={shown}
        render={(id) => {
          // While the headers are read, the overview says so below what it already knows (the key): nothing
          // above the tabs appears and goes, so the panel's layout holds still.
          if (id === 'overview') return head.isPending ? <>{overview}<Loading label={t('details.loading')} /></> : overview;
          if (id === 'metadata') return metadata;
          if (!data) return null;
          // Keyed by object: a link or preview for another object must never linger when the panel switches.
          if (id === 'preview') return <ObjectPreview key={`${zone}/${bucket}/${objectKey}`} zone={zone} bucket={bucket} objectKey={objectKey} name={name} head={data} demo={demo} />;
          return <ShareLink key={`${zone}/${bucket}/${objectKey}`} zone={zone} bucket={bucket} objectKey={objectKey} name={name} demo={demo} />;
        }}
      />
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
                {visibleText(key)}
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
