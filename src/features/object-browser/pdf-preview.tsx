import { useMutation, useQuery } from '@tanstack/react-query';
import Download from 'lucide-react/icons/download';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { objectLinkMutation } from '../../api/objects/link-queries.ts';
import { objectStartQuery } from '../../api/objects/start-queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { visibleText } from '../../lib/visible-text.ts';
import { startDownload } from './object-links.ts';
import { PDF_PREVIEW_BYTES, PDF_PREVIEW_PAGES, type PreviewTarget } from './preview-kind.ts';
import type { OpenedPdf, PdfOpenError } from './pdf-render.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/preview.ts';

/**
 * A PDF in the Preview tab: at most PDF_PREVIEW_BYTES of it are read (a Range GET whose body is cut there
 * whatever the server sends), pdf.js (pdf-render.ts, loaded now) draws its first PDF_PREVIEW_PAGES pages on
 * canvases, and nothing in the file runs. Larger, damaged or password-protected files say so, with Download.
 */
export function PdfPreview({ zone, bucket, objectKey, name, head, demo }: PreviewTarget) {
  const { t } = useI18n();
  const client = useClient();
  const tooBig = head.size > PDF_PREVIEW_BYTES;
  const start = useQuery({
    ...objectStartQuery(
      client,
      { zone, bucket, key: objectKey },
      { maxBytes: PDF_PREVIEW_BYTES, etag: head.etag, contentEncoding: head.metadata.standard['content-encoding'] ?? '', refused: head.refused === 'content-encoding' },
    ),
    enabled: !tooBig,
    // Up to 20 MiB: dropped as soon as the preview goes away, not kept for a second look.
    gcTime: 0,
  });
  const download = <PdfDownload zone={zone} bucket={bucket} objectKey={objectKey} name={name} demo={demo} />;
  const tooBigNote = (
    <div className="preview__pdf">
      <p className="preview__none" data-testid="no-preview">{t('preview.pdfTooBig', { size: formatBytes(head.size), max: formatBytes(PDF_PREVIEW_BYTES) })}</p>
      {download}
    </div>
  );
  if (tooBig) return tooBigNote;
  if (start.isPending) return <Loading label={t('detailsPanel.preview.loading')} />;
  if (start.isError) return <ErrorNotice error={start.error} onRetry={() => void start.refetch()} />;
  // The server holds more than the HEAD said (or ignored Range): what was read is not the whole file.
  if (start.data.truncated) return tooBigNote;
  // Keyed by what was read: another version of the file starts from "Reading the PDF…".
  return <PdfPages key={`${objectKey}\n${head.etag ?? ''}`} bytes={start.data.bytes} name={name} download={download} />;
}

type Opened = { state: 'opening' } | { state: 'failed'; error: PdfOpenError | 'load' } | { state: 'open'; pdf: OpenedPdf };

function PdfPages({ bytes, name, download }: { bytes: Uint8Array; name: string; download: ReactNode }) {
  const { t, formatNumber } = useI18n();
  const [opened, setOpened] = useState<Opened>({ state: 'opening' });
  useEffect(() => {
    let current = true;
    let pdf: OpenedPdf | undefined;
    import('./pdf-render.ts')
      .then((render) => render.openPdf(bytes))
      .then(
        (result) => {
          if ('error' in result) {
            if (current) setOpened({ state: 'failed', error: result.error });
            return;
          }
          pdf = result.pdf;
          if (current) setOpened({ state: 'open', pdf: result.pdf });
          else void result.pdf.close();
        },
        // The code did not load (offline, a new build deployed): not the file's fault.
        () => current && setOpened({ state: 'failed', error: 'load' }),
      );
    return () => {
      current = false;
      void pdf?.close();
    };
  }, [bytes]);

  if (opened.state === 'opening') return <Loading label={t('preview.pdfOpening')} />;
  if (opened.state === 'failed') {
    return (
      <div className="preview__pdf">
        <p className="notice notice--warn" data-testid="preview-failed">
          {opened.error === 'password' ? t('preview.pdfPassword') : opened.error === 'damaged' ? t('preview.pdfDamaged') : t('detailsPanel.preview.failed')}
        </p>
        {download}
      </div>
    );
  }
  const { pdf } = opened;
  const shown = Math.min(pdf.pageCount, PDF_PREVIEW_PAGES);
  const numbers = Array.from({ length: shown }, (_, i) => i + 1);
  return (
    <div className="preview__pdf">
      <p className="preview__note">{t('preview.pdfNote')}</p>
      {numbers.map((number) => (
        <PdfPage key={number} pdf={pdf} number={number} label={t('preview.pdfPageOf', { page: formatNumber(number), count: formatNumber(pdf.pageCount), name: visibleText(name) })} />
      ))}
      {pdf.pageCount > shown ? <p className="preview__note">{t('preview.pdfMore', { shown: formatNumber(shown), count: formatNumber(pdf.pageCount) })}</p> : null}
      {download}
    </div>
  );
}

function PdfPage({ pdf, number, label }: { pdf: OpenedPdf; number: number; label: string }) {
  const { t, formatNumber } = useI18n();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  useEffect(() => {
    const element = canvas.current;
    if (element === null) return;
    let current = true;
    const width = element.parentElement?.clientWidth ?? 0;
    pdf.draw(number, element, width > 0 ? width : 600).then(
      () => current && setState('drawn'),
      () => current && setState('failed'),
    );
    return () => {
      current = false;
    };
  }, [pdf, number]);
  return (
    <figure className="preview__pdf-page" data-state={state} aria-label={label}>
      <canvas ref={canvas} className="preview__pdf-canvas" aria-hidden="true" hidden={state === 'failed'} />
      {state === 'failed' ? <p className="notice notice--warn">{t('preview.pdfPageFailed', { page: formatNumber(number) })}</p> : null}
      <figcaption className="preview__note">{t('preview.pdfPage', { page: formatNumber(number), count: formatNumber(pdf.pageCount) })}</figcaption>
    </figure>
  );
}

/** Saves the file (an attachment link, as the details' Download makes), never opens the browser's viewer. */
function PdfDownload({ zone, bucket, objectKey, name, demo }: { zone: string; bucket: string; objectKey: string; name: string; demo: boolean }) {
  const { t } = useI18n();
  const client = useClient();
  const signed = client.connection.credentials !== undefined;
  const link = useMutation(objectLinkMutation(client));
  return (
    <p className="preview__pdf-actions">
      <button
        type="button"
        className="button button--small"
        disabled={link.isPending}
        onClick={() =>
          link.mutate(
            { zone, bucket, key: objectKey, expiresIn: 300, downloadName: name, origin: demo ? window.location.origin : undefined },
            { onSuccess: ({ url }) => startDownload(url, !signed) },
          )
        }
      >
        <Download aria-hidden="true" size={16} />
        {t('preview.pdfDownload')}
      </button>
    </p>
  );
}
