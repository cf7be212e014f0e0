/**
 * Draws the first pages of a PDF on canvases with pdf.js, loaded only when a PDF is previewed (this module is
 * imported dynamically by pdf-preview.tsx, so neither pdf.js nor its worker is in any chunk that loads before).
 *
 * Why not the browser's PDF viewer: it runs the document's JavaScript (`app.alert` shows a dialog), and on the
 * demo's links that is the console's own origin. Here nothing of the document runs: pdf.js parses it in a worker
 * of its own (terminated when the preview goes away), draws page content on a canvas and nothing else; no
 * annotation, form or text layer is made, and its scripting support (the viewer's sandbox) is never loaded.
 * Parsing happens off the page's thread, so a hostile file can cost the worker time, never the console's.
 */
import { getDocument, GlobalWorkerOptions, PasswordException, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker file is emitted as a same-origin asset: the CSP's worker-src 'self' allows it (src/serve/headers.ts).
// oxlint-disable-next-line import/default -- Vite's `?url` import: the default export is the asset's URL
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pageScale } from './pdf-scale.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

export type PdfOpenError = 'password' | 'damaged';

export interface OpenedPdf {
  pageCount: number;
  /** Draws page `number` (1-based) `cssWidth` CSS pixels wide on `canvas`; resolves when drawn. */
  draw(number: number, canvas: HTMLCanvasElement, cssWidth: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens `bytes` (copied: the worker takes the buffer it is given); a file that cannot be opened says why. */
export async function openPdf(bytes: Uint8Array): Promise<{ pdf: OpenedPdf } | { error: PdfOpenError }> {
  const task = getDocument({
    data: bytes.slice(),
    // Nothing is fetched: no fonts, colour profiles or decoders from elsewhere. Fonts a file does not embed are
    // taken from the system; images in formats whose decoder would have to be fetched are left out.
    useSystemFonts: true,
    stopAtErrors: false,
    enableXfa: false,
    // Images above this many pixels are skipped rather than decoded (a 1 KB file can claim gigapixels).
    maxImageSize: 64 * 1024 * 1024,
  });
  let document: PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    return { error: openError(error) };
  }
  const pdf: OpenedPdf = {
    pageCount: document.numPages,
    async draw(number, canvas, cssWidth) {
      const page = await document.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const scale = pageScale(base.width, base.height, cssWidth, window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale });
      canvas.width = Math.max(1, Math.floor(viewport.width));
      canvas.height = Math.max(1, Math.floor(viewport.height));
      canvas.style.aspectRatio = `${base.width} / ${base.height}`;
      await page.render({ canvas, viewport }).promise;
      page.cleanup();
    },
    close: () => task.destroy(),
  };
  return { pdf };
}

/** A password-protected file says so; anything else that stops parsing is a damaged (or hostile) file. */
function openError(error: unknown): PdfOpenError {
  return error instanceof PasswordException ? 'password' : 'damaged';
}
