import type { QsClient } from '../../api/client.ts';
import { demoLinkOnOrigin } from '../../api/demo-link.ts';
import { getObjectUrl, type GetObjectUrlInput } from '../../api/objects/read.ts';

/**
 * A pre-signed link for the browser to follow by itself (a download, an image, a PDF frame). In demo mode it
 * points at the console's own origin, where the demo's service worker answers it (src/api/demo-link.ts):
 * the demo host never resolves, so a link to it would leave the console for an error page.
 */
export async function browserObjectLink(client: QsClient, demo: boolean, input: GetObjectUrlInput): Promise<URL> {
  const url = await getObjectUrl(client, input);
  return demo ? demoLinkOnOrigin(url, window.location.origin) : url;
}

/**
 * Follows a download link: its answer is an attachment (a signed `response-content-disposition`, or the demo
 * worker's), which the browser saves without leaving the page. No `download` attribute: Chrome ignores it on
 * another origin and, on the console's own origin, fetches such a link past the service worker, which is the
 * only thing that can answer a demo link; the file name comes from the Content-Disposition.
 */
export function startDownload(url: URL, newTab: boolean): void {
  const anchor = document.createElement('a');
  anchor.href = url.href;
  anchor.rel = 'noreferrer';
  // An unsigned link cannot ask for an attachment: if the object would be shown, it opens beside the console.
  if (newTab) anchor.target = '_blank';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
