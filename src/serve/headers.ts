/**
 * The response headers of the console's own files (index.html, scripts, styles, the workers), as
 * `npm run serve` sends them; README.md gives the same set for hosting dist/ elsewhere.
 *
 * The CSP allows only the console's own scripts and styles (no inline script, no eval; `wasm-unsafe-eval`
 * lets the MD5 code compile its WebAssembly, it does not allow JavaScript eval), and lets the page talk to
 * itself (the proxy), to the configured endpoint with every subdomain (zone hosts `pek3a.qingstor.com`,
 * virtual hosts `bucket.pek3a.qingstor.com`), and to the demo backend's never-resolving host (answered
 * inside the browser by the service worker). Object previews (images, audio, video) may load from the console
 * itself and the endpoint only. The console frames nothing (a PDF is drawn on canvases by pdf.js, whose worker is
 * a same-origin file under worker-src 'self'), so frames fall to default-src 'none'; and nobody may frame the console.
 */
import { isIP } from 'node:net';

/** The host of the in-browser demo backend (src/api/connection.ts DEMO_ENDPOINT). */
const DEMO_ORIGIN = 'https://qingstor.invalid';

/** `scheme://host[:port]` and, for a host name, `scheme://*.host[:port]`. */
export function endpointSources(endpoint: URL): string[] {
  const sources = [endpoint.origin];
  const bare = endpoint.hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0 && bare !== 'localhost') sources.push(`${endpoint.protocol}//*.${endpoint.host}`);
  return sources;
}

export function consoleCsp(endpoint: URL | undefined): string {
  const endpointOnly = endpoint ? endpointSources(endpoint) : [];
  const connect = ["'self'", ...endpointOnly, DEMO_ORIGIN, 'https://*.qingstor.invalid'];
  // Object previews: the browser's own image and media players load a pre-signed link to the endpoint (in demo
  // mode a same-origin link the service worker answers, never the demo host itself). No `blob:`, no `data:`, no
  // other host; frame-src and object-src stay 'none' (default-src).
  const previews = ["'self'", ...endpointOnly].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    `img-src ${previews}`,
    `media-src ${previews}`,
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function consoleSecurityHeaders(endpoint: URL | undefined): Record<string, string> {
  return {
    'content-security-policy': consoleCsp(endpoint),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
