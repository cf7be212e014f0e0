/**
 * Demo mode, fetch side. The console's API calls to the demo domain are answered in the page, by the
 * emulator that already lives in the page, instead of travelling to the service worker and back: a request
 * answered by the worker goes page → worker → page (where msw runs the handlers) → worker → page, four
 * hops between processes and threads, each with its messages serialised. That cost about 8 ms a request
 * (bench/count-all.ts measured Count all of the 100,000-object demo bucket at 1,000 pages of 100 keys);
 * the handlers themselves take a fraction of a millisecond.
 *
 * The worker still answers what the browser fetches by itself (links, `<img>`, `<video>`, downloads: the
 * console's same-origin demo object links, mocks/demo-link.ts), and XHRs are answered in the page by
 * browser-xhr.ts. As with the worker, nothing of this goes through CORS: every header is readable, exactly
 * what demo mode promised before (ref §9.9, "a service worker bypasses CORS").
 *
 * Everything not addressed to the demo domain (or its subdomains) goes to the browser's own fetch untouched.
 */

export interface DemoFetchInterception {
  dispose(): void;
}

function isDemoHost(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function demoUrl(input: RequestInfo | URL, domain: string): boolean {
  try {
    return isDemoHost(new URL(urlOf(input), globalThis.location?.href).hostname, domain);
  } catch {
    return false;
  }
}

/** `answer`, unless the signal aborts first: then the reason, as fetch rejects. */
function untilAborted(answer: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new TypeError(String(error)));
      },
    );
  });
}

/**
 * Starts answering fetches to `domain` with `respond` (the emulator's `respond`); returns a handle that puts
 * the browser's fetch back.
 */
export function interceptDemoFetch(respond: (request: Request) => Promise<Response>, domain: string): DemoFetchInterception {
  const native = globalThis.fetch;
  const patched = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!demoUrl(input, domain)) return native.call(globalThis, input, init);
    let request: Request;
    try {
      request = new Request(input, init);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
    }
    return untilAborted(
      respond(request).then((response) => {
        // A fetched Response names its URL; the console's error details read it.
        if (response.url === '') Object.defineProperty(response, 'url', { value: request.url, configurable: true });
        return response;
      }),
      request.signal,
    );
  };
  globalThis.fetch = patched;
  return {
    dispose: () => {
      if (globalThis.fetch === patched) globalThis.fetch = native;
    },
  };
}
