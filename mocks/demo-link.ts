/**
 * The demo's same-origin object links (src/api/demo-link.ts): `<console origin>/demo-object/<demo host>/…`
 * is answered by the emulator as the demo host URL it stands for, so a download or a preview of a demo
 * object stays in the console. What comes back is served on the console's own origin, so it is made inert:
 * only raster images, audio, video and PDF may be shown inline (with the type the emulator sent, never
 * sniffed); everything else (HTML, SVG, XML, text, JavaScript, unknown) is an attachment typed
 * `application/octet-stream`, which the browser saves and never renders. The type matters beyond documents:
 * `attachment` and a sandboxing CSP do nothing to a `<script src>` (or a worker, or a stylesheet), which
 * runs an answer of a JavaScript type whatever its disposition; with `nosniff`, an octet-stream answer can
 * never run as one. Each answer also carries a sandboxing CSP, so even a rendered document could run nothing.
 */
import { getResponse, http, type RequestHandler } from 'msw';
import { demoLinkTarget, DEMO_LINK_PATH } from '../src/api/demo-link.ts';
import { errorBody, QsError } from './errors.ts';

const INLINE_TYPES = /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|application\/pdf)$/;

/** Request headers passed on to the emulator (a media element's Range, conditional reads). */
const FORWARDED = ['range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'];

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The emulator's answer, made safe to serve on the console's origin (see the module comment). */
export function guardDemoLinkResponse(response: Response): Response {
  const headers = new Headers(response.headers);
  const type = mediaType(headers.get('content-type'));
  if (!response.ok) {
    // An error is QingStor's JSON; shown as plain text if a frame ever displays it.
    headers.set('content-type', 'text/plain; charset=utf-8');
  } else if (!INLINE_TYPES.test(type)) {
    const disposition = headers.get('content-disposition') ?? '';
    if (!/^\s*attachment\b/i.test(disposition)) headers.set('content-disposition', 'attachment');
    // Never a script, style or document type on the console's origin (see the module comment).
    headers.set('content-type', 'application/octet-stream');
  }
  headers.set('x-content-type-options', 'nosniff');
  headers.set('cross-origin-resource-policy', 'same-origin');
  headers.set('referrer-policy', 'no-referrer');
  // Chrome shows a PDF through its viewer, which a sandboxed document may not load; a PDF can only reach
  // this point with the PDF type (checked above, never sniffed), so no document of the console's origin
  // is made from it.
  headers.set('content-security-policy', type === 'application/pdf' && response.ok ? "default-src 'none'; frame-ancestors 'self'" : "sandbox; default-src 'none'; frame-ancestors 'self'");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The msw handler for demo links on `origin`, answered by `handlers` (the emulator's). */
export function demoLinkHandler(handlers: readonly RequestHandler[], origin: string): RequestHandler {
  const list = [...handlers];
  return http.get(`${origin}${DEMO_LINK_PATH}*`, async ({ request }) => {
    const target = demoLinkTarget(new URL(request.url));
    const headers = new Headers();
    for (const name of FORWARDED) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    const response = target ? await getResponse(list, new Request(target, { headers })) : undefined;
    if (!response) {
      const error = new QsError('invalid_request', 'Not a demo object link.');
      return guardDemoLinkResponse(Response.json(errorBody(error, ''), { status: error.status }));
    }
    return guardDemoLinkResponse(response);
  });
}
