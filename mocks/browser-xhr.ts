/**
 * Demo mode, XMLHttpRequest side. The service worker answers fetch and XHR alike, but a request answered by
 * the worker never reports upload progress to the page (mocks/README.md, "msw and browser facts"), so uploads would show
 * nothing until they finish. This module patches the page's XMLHttpRequest with msw's own interceptor
 * (@mswjs/interceptors, the version msw itself depends on) and answers requests to the demo domain from the
 * same emulator handlers, in the page.
 *
 * How honest the progress is: the interceptor fires `xhr.upload` progress events while it reads the request
 * body (a stream over the Blob the console sent) chunk by chunk, so `loaded` counts bytes that were really
 * read; their pace is that of reading a Blob in memory, not of a network. It reads them after the handler
 * answered, just before `load`. No timer invents numbers.
 *
 * Headers of an answer without a body become readable only after `load` with this interceptor (it dispatches
 * `load` before it installs its header getters; same section). A real browser has them at `load`, so the
 * console reads them there, and this module answers with an empty body stream instead of no body: the
 * interceptor then reads that stream (one await) and `load` comes after the getters are in place.
 *
 * Everything not addressed to the demo domain (or its subdomains) passes through untouched.
 */
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';
import { getResponse, type RequestHandler } from 'msw';

export interface DemoXhrInterception {
  dispose(): void;
}

function isDemoHost(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/** Statuses whose Response may not carry a body (Fetch standard "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

/**
 * `response` with a body stream, empty when it had none. A null-body status (204, 304) cannot be built with
 * a body, so its instance gets an own `body` that is an empty stream; its status, headers and (absent)
 * content stay what the handler answered.
 */
export function withBodyStream(response: Response): Response {
  if (response.body !== null) return response;
  if (NULL_BODY_STATUSES.has(response.status)) {
    Object.defineProperty(response, 'body', { value: emptyStream(), configurable: true });
    return response;
  }
  return new Response(emptyStream(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Starts answering XHRs to `domain` with `handlers`; returns a handle that restores the native XHR. */
export function interceptDemoXhr(handlers: readonly RequestHandler[], domain: string): DemoXhrInterception {
  const interceptor = new XMLHttpRequestInterceptor();
  const list = [...handlers];
  interceptor.on('request', async ({ request, controller }) => {
    if (!isDemoHost(new URL(request.url).hostname, domain)) return;
    const response = await getResponse(list, request);
    // Every demo-domain URL is the emulator's; a handler that does not answer is a routing gap that must
    // surface as a failed request rather than leak a request to a name that never resolves.
    controller.respondWith(withBodyStream(response ?? Response.json({ code: 'internal_error', message: 'No emulator handler matched' }, { status: 500 })));
  });
  interceptor.apply();
  return { dispose: () => interceptor.dispose() };
}
