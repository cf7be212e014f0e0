import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ContentDecodingError } from '../../api/objects/read-start.ts';
import { objectStartQuery } from '../../api/objects/start-queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { JSON_FORMAT_LIMITS } from './json-format.ts';
import { browserObjectLink } from './object-links.ts';
import { PdfPreview } from './pdf-preview.tsx';
import { previewKind, TEXT_PREVIEW_BYTES, type PreviewTarget, type TextFormat } from './preview-kind.ts';
import { CSV_MAX_ROWS, decodeStart, textPreview, WRAP_MAX_RUN } from './text-preview.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/preview.ts';

/** Preview links live five minutes: long enough to load, short enough not to be worth copying. */
const PREVIEW_LINK_SECONDS = 300;

export function ObjectPreview({ zone, bucket, objectKey, name, head, demo }: PreviewTarget) {
  const { t } = useI18n();
  const kind = previewKind({ key: objectKey, contentType: head.contentType, size: head.size });
  if (kind.kind === 'none') {
    const message =
      kind.reason === 'tooBig' ? t('detailsPanel.preview.none.tooBig', { size: formatBytes(head.size) })
      : kind.reason === 'unknownType' ? t('detailsPanel.preview.none.unknownType', { type: visibleText(head.contentType || 'application/octet-stream') })
      : t('detailsPanel.preview.none.empty');
    return <p className="preview__none" data-testid="no-preview">{message}</p>;
  }
  if (kind.kind === 'text') {
    return <TextPreviewView zone={zone} bucket={bucket} objectKey={objectKey} head={head} format={kind.format} />;
  }
  if (kind.kind === 'pdf') return <PdfPreview zone={zone} bucket={bucket} objectKey={objectKey} name={name} head={head} demo={demo} />;
  return <MediaPreview zone={zone} bucket={bucket} objectKey={objectKey} name={name} kind={kind.kind} type={kind.type} demo={demo} />;
}

function MediaPreview({ zone, bucket, objectKey, name, kind, type, demo }: {
  zone: string;
  bucket: string;
  objectKey: string;
  name: string;
  kind: 'image' | 'audio' | 'video';
  type: string;
  demo: boolean;
}) {
  const { t, formatNumber } = useI18n();
  const client = useClient();
  const [link, setLink] = useState<{ url: string } | { error: unknown } | null>(null);
  const [failed, setFailed] = useState(false);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    let current = true;
    // The served type is forced to the one the preview was chosen for (a signed response-content-type).
    browserObjectLink(client, demo, { zone, bucket, key: objectKey, expiresIn: PREVIEW_LINK_SECONDS, responseContentType: type }).then(
      (url) => current && setLink({ url: url.href }),
      (error: unknown) => current && setLink({ error }),
    );
    return () => {
      current = false;
    };
  }, [client, demo, zone, bucket, objectKey, type]);

  if (link === null) return <Loading label={t('detailsPanel.preview.loading')} />;
  if ('error' in link) return <ErrorNotice error={link.error} />;
  const label = t('detailsPanel.preview.of', { name: visibleText(name) });
  if (failed) return <p className="notice notice--warn" data-testid="preview-failed">{t('detailsPanel.preview.failed')}</p>;
  const onError = () => setFailed(true);
  switch (kind) {
    case 'image':
      return (
        <>
          <img
            className="preview__image"
            src={link.url}
            alt={label}
            referrerPolicy="no-referrer"
            onError={onError}
            onLoad={(event) => setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
          />
          {size ? <p className="preview__note preview__dimensions">{t('detailsPanel.preview.dimensions', { width: formatNumber(size.width), height: formatNumber(size.height) })}</p> : null}
        </>
      );
    // The object is the user's own file: there is no caption track to offer.
    case 'audio':
      // oxlint-disable-next-line jsx-a11y/media-has-caption -- an arbitrary stored file has no captions
      return <audio className="preview__media" src={link.url} controls preload="metadata" aria-label={label} onError={onError} />;
    case 'video':
      // oxlint-disable-next-line jsx-a11y/media-has-caption -- an arbitrary stored file has no captions
      return <video className="preview__media" src={link.url} controls preload="metadata" aria-label={label} onError={onError} />;
  }
}

function TextPreviewView({ zone, bucket, objectKey, head, format }: Omit<PreviewTarget, 'name' | 'demo'> & { format: TextFormat }) {
  const { t, formatNumber } = useI18n();
  const client = useClient();
  const encoding = head.metadata.standard['content-encoding'] ?? '';
  const start = useQuery(
    objectStartQuery(client, { zone, bucket, key: objectKey }, { maxBytes: TEXT_PREVIEW_BYTES, etag: head.etag, contentEncoding: encoding, refused: head.refused === 'content-encoding' }),
  );
  if (start.isPending) return <Loading label={t('detailsPanel.preview.loading')} />;
  if (start.isError) {
    const error = start.error;
    if (error instanceof ContentDecodingError) {
      return (
        <p className="notice notice--warn" data-testid="preview-undecodable">
          {error.encoding === '' ? t('preview.refusedAnonymous') : t('preview.decodeFailed', { encoding: error.encoding })}
        </p>
      );
    }
    return <ErrorNotice error={error} onRetry={() => void start.refetch()} />;
  }
  const { bytes, truncated, form } = start.data;
  const preview = textPreview(decodeStart(bytes, truncated), format, truncated);
  const truncatedNote =
    !truncated ? null
    : form === 'decoded' ? t('preview.decodedTruncated', { shown: formatBytes(TEXT_PREVIEW_BYTES) })
    : t('detailsPanel.preview.truncated', { shown: formatBytes(TEXT_PREVIEW_BYTES), total: formatBytes(head.size) });
  const jsonNote =
    preview.view !== 'text' ? null
    : preview.json === 'pretty' ? t('detailsPanel.preview.prettyJson')
    : preview.json === 'flattened' ? t('preview.jsonFlattened', { depth: JSON_FORMAT_LIMITS.maxIndentDepth })
    : preview.json === 'tooLong' ? t('preview.jsonTooLong')
    : null;
  return (
    <div className="preview__text">
      {form === 'decoded' ? <p className="preview__note">{t('preview.decoded', { encoding })}</p> : null}
      {form === 'stored' ? <p className="notice notice--warn" data-testid="preview-stored">{t('preview.stored')}</p> : null}
      {truncatedNote === null ? null : <p className="preview__note">{truncatedNote}</p>}
      {format === 'source' ? <p className="preview__note">{t('detailsPanel.preview.source')}</p> : null}
      {jsonNote === null ? null : <p className="preview__note">{jsonNote}</p>}
      {preview.view === 'text' && preview.csvAsText ? <p className="preview__note">{t('preview.csvAsText', { max: formatNumber(WRAP_MAX_RUN) })}</p> : null}
      {preview.view === 'table' ? (
        <>
          {preview.moreRows ? <p className="preview__note">{t('detailsPanel.preview.csvMore', { count: formatNumber(CSV_MAX_ROWS) })}</p> : null}
          {/* A scrolling region is reachable by keyboard (it scrolls with the arrow keys). */}
          {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above */}
          <section className="preview__table-wrap" tabIndex={0} aria-label={t('detailsPanel.tab.preview')}>
            <table className="table table--compact" data-testid="preview-table">
              <tbody>
                {preview.rows.map((row, r) => (
                  // Rows have no identity of their own; their position is stable for one preview.
                  // oxlint-disable-next-line react/no-array-index-key
                  <tr key={r}>
                    {row.map((cell, c) =>
                      r === 0 ? (
                        // oxlint-disable-next-line react/no-array-index-key
                        <th key={c} scope="col" dir="auto">{cell}</th>
                      ) : (
                        // oxlint-disable-next-line react/no-array-index-key
                        <td key={c} dir="auto">{cell}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : (
        // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reachable by keyboard
        <pre className={preview.wrap ? 'preview__pre' : 'preview__pre preview__pre--nowrap'} data-testid="preview-text" tabIndex={0} dir="auto">{preview.text}</pre>
      )}
    </div>
  );
}
