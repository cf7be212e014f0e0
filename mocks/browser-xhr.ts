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
 * Headers of an empty-body answer become readable one task after `load` with this interceptor
 * (same section); src/api/transfer.ts reads them after a macrotask for that reason.
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

/** Starts answering XHRs to `domain` with `handlers`; returns a handle that restores the native XHR. */
export function interceptDemoXhr(handlers: readonly RequestHandler[], domain: string): DemoXhrInterception {
  const interceptor = new XMLHttpRequestInterceptor();
  const list = [...handlers];
  interceptor.on('request', async ({ request, controller }) => {
    if (!isDemoHost(new URL(request.url).hostname, domain)) return;
    const response = await getResponse(list, request);
    // Every demo-domain URL is the emulator's; a handler that does not answer is a routing gap that must
    // surface as a failed request rather than leak a request to a name that never resolves.
    controller.respondWith(response ?? Response.json({ code: 'internal_error', message: 'No emulator handler matched' }, { status: 500 }));
  });
  interceptor.apply();
  return { dispose: () => interceptor.dispose() };
}
