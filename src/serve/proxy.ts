/**
 * The same-origin API proxy of `npm run serve`.
 *
 * Wire contract (the console's client must follow it, see PROXY_PREFIX):
 *   browser → `GET /_qs/<target-host>[:<port>]<raw-path>?<raw-query>`
 *   proxy   → `GET <raw-path>?<raw-query>` to `<endpoint scheme>://<target-host>:<endpoint port>`,
 *             `Host: <target-host>` (+ `:<port>` when the endpoint names a non-default port).
 * `<target-host>` is the host the request would have gone to directly: the endpoint host itself
 * (`qingstor.com`, service calls), a zone host (`pek3a.qingstor.com`) or a virtual host
 * (`mybucket.pek3a.qingstor.com`). Only the endpoint host and its subdomains are accepted, so this is
 * never an open proxy. The prefix `/_qs/<target-host>` is stripped and everything after it is sent byte
 * for byte, because QingStor signs the raw path the server receives (ref §1.3, §2.3): the client must
 * sign the DIRECT url (resource `/bucket/key?acl`, bucketInHost for virtual hosts) and only then
 * rewrite the URL to go through the prefix.
 *
 * Headers: every end-to-end header is forwarded unchanged (authorization, x-qs-*, content-type,
 * content-md5, date, range, if-*, ...). Dropped: hop-by-hop headers and those named in `Connection`
 * (RFC 9110 §7.6.1), `Host` (replaced), `Expect` (this hop already answered 100-continue), and what belongs
 * to the console's own origin rather than to QingStor (`Cookie`, `Origin`, `Referer`): without `Origin`
 * the upstream treats the call like any non-browser client, which is the point of the proxy. Nothing is
 * added — in particular no credentials: an unsigned request stays anonymous. Bodies stream both ways.
 *
 * API calls only: the proxy answers on the console's origin, so whatever it returns must never be able to
 * act as a page of that origin (a public object of text/html or image/svg+xml would otherwise run script
 * next to the console's session). Hence:
 * - only requests the console's own scripts make are forwarded: they carry PROXY_MARKER_HEADER (a plain
 *   navigation, `<img>`, `<iframe>`, `<object>` or form cannot set a header) and, where the browser says so,
 *   `Sec-Fetch-Dest: empty` (fetch/XHR) and `Sec-Fetch-Site: same-origin`; everything else gets 403;
 * - every answer, forwarded or not, carries PROXY_RESPONSE_HEADERS: a sandboxing CSP that allows nothing,
 *   nosniff, and a same-origin resource policy; upstream values of those headers are replaced.
 * The marker is stripped before forwarding (it is not part of any signature: only x-qs-* headers are).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { PROXY_MARKER_HEADER, PROXY_MARKER_VALUE } from '../api/proxy-marker.ts';
import { HOP_BY_HOP_HEADERS } from '../api/protocol/headers.ts';

export const PROXY_PREFIX = '/_qs/';

export { PROXY_MARKER_HEADER, PROXY_MARKER_VALUE };

/** Sent with every proxy answer: nothing in it may run, be sniffed into something else, or be embedded elsewhere. */
export const PROXY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};
const PROXY_RESPONSE_HEADER_NAMES = new Set(Object.keys(PROXY_RESPONSE_HEADERS));

/** Request headers that describe the console's origin, not the QingStor call. */
const ORIGIN_ONLY = new Set(['host', 'expect', 'cookie', 'origin', 'referer', PROXY_MARKER_HEADER]);

export interface ProxyOptions {
  /** The QingStor endpoint, e.g. `https://qingstor.com` or `http://127.0.0.1:9000`. */
  endpoint: URL;
  /**
   * Open upstream connections to this host:port instead of resolving the target host (like curl's
   * --connect-to); Host and TLS SNI still name the target. Lets `*.qingstor.local` hosts of the local
   * emulator be reached without DNS entries.
   */
  connectTo?: { host: string; port: number };
  /** Upstream socket inactivity limit in ms. */
  timeoutMs?: number;
}

export interface ProxyTarget {
  hostname: string;
  /** Host header to send upstream. */
  hostHeader: string;
  /** Raw path + query for the upstream request line. */
  pathAndQuery: string;
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

function endpointPort(endpoint: URL): number {
  return endpoint.port === '' ? defaultPort(endpoint.protocol) : Number(endpoint.port);
}

export type TargetResult = { ok: true; target: ProxyTarget } | { ok: false; status: number; code: string; message: string };

/** Parses `/_qs/<host>[:port]<rest>` (raw request-target) and checks the host against the endpoint. */
export function parseProxyTarget(rawUrl: string, endpoint: URL): TargetResult {
  if (!rawUrl.startsWith(PROXY_PREFIX)) {
    return { ok: false, status: 404, code: 'proxy_not_a_proxy_path', message: `Proxy paths start with ${PROXY_PREFIX}` };
  }
  const rest = rawUrl.slice(PROXY_PREFIX.length);
  let end = rest.length;
  for (const sep of ['/', '?']) {
    const i = rest.indexOf(sep);
    if (i >= 0 && i < end) end = i;
  }
  const authority = rest.slice(0, end).toLowerCase();
  let pathAndQuery = rest.slice(end);
  if (pathAndQuery === '' || pathAndQuery.startsWith('?')) pathAndQuery = `/${pathAndQuery}`;

  const match = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(authority);
  if (!match || !match[1]) {
    return { ok: false, status: 400, code: 'proxy_bad_target', message: 'The proxy path must name a target host: /_qs/<host>/<path>' };
  }
  const hostname = match[1];
  const port = match[2] === undefined ? undefined : Number(match[2]);
  const base = endpoint.hostname.toLowerCase();
  const bareBase = base.replace(/^\[|\]$/g, '');
  const sameHost = hostname === base;
  // IP endpoints have no subdomains; names accept themselves and every subdomain (zone and vhost hosts).
  const subdomain = isIP(bareBase) === 0 && hostname.endsWith(`.${base}`);
  const expectedPort = endpointPort(endpoint);
  if ((!sameHost && !subdomain) || (port !== undefined && port !== expectedPort)) {
    return {
      ok: false,
      status: 403,
      code: 'proxy_target_not_allowed',
      message: `This proxy only forwards to ${endpoint.host} and its subdomains.`,
    };
  }
  const hostHeader = endpoint.port === '' ? hostname : `${hostname}:${expectedPort}`;
  return { ok: true, target: { hostname, hostHeader, pathAndQuery } };
}

function forwardedRequestHeaders(rawHeaders: readonly string[], hostHeader: string): http.OutgoingHttpHeaders {
  const connectionListed = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1]!.split(',')) connectionListed.add(token.trim().toLowerCase());
    }
  }
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (HOP_BY_HOP_HEADERS.has(name) || ORIGIN_ONLY.has(name) || connectionListed.has(name)) continue;
    const value = rawHeaders[i + 1]!;
    // Repeated names are comma-joined, the value a fetch Headers object (and the signer, ref §2.2) sees.
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  headers.host = hostHeader;
  return headers;
}

function forwardedResponseHeaders(rawHeaders: readonly string[]): string[] {
  const connectionListed = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1]!.split(',')) connectionListed.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    // Upstream cookies would land on the console's origin; QingStor sets none.
    if (HOP_BY_HOP_HEADERS.has(lower) || connectionListed.has(lower) || lower === 'set-cookie' || PROXY_RESPONSE_HEADER_NAMES.has(lower)) continue;
    out.push(name, rawHeaders[i + 1]!);
  }
  for (const [name, value] of Object.entries(PROXY_RESPONSE_HEADERS)) out.push(name, value);
  return out;
}

/** A QingStor-shaped JSON error so the console's error display works for proxy failures too. */
export function writeProxyError(res: http.ServerResponse, status: number, code: string, message: string, isHead: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ code, message, request_id: '', url: '' });
  res.writeHead(status, { ...PROXY_RESPONSE_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(isHead ? undefined : body);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Why `req` is not an API call of the console (null when it is). Browsers set Sec-Fetch-* on every request
 * (older ones on none); the marker is what a script has to add on purpose.
 */
export function refusalReason(req: Pick<http.IncomingMessage, 'headers'>): string | null {
  const dest = single(req.headers['sec-fetch-dest']);
  if (dest !== undefined && dest !== 'empty') return `the proxy carries API calls only, not a ${dest} load`;
  const site = single(req.headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin') return 'the proxy only answers the console on its own origin';
  if (single(req.headers[PROXY_MARKER_HEADER]) !== PROXY_MARKER_VALUE) return 'the proxy only forwards calls made by the console';
  return null;
}

export interface Proxy {
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): void;
}

export function createProxy(options: ProxyOptions): Proxy {
  const { endpoint } = options;
  const secure = endpoint.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 64 })
    : new http.Agent({ keepAlive: true, maxSockets: 64 });
  const port = endpointPort(endpoint);
  const timeoutMs = options.timeoutMs ?? 120_000;

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const isHead = req.method === 'HEAD';
    const refused = refusalReason(req);
    if (refused !== null) {
      req.resume();
      writeProxyError(res, 403, 'proxy_not_an_api_call', `Refused: ${refused}.`, isHead);
      return;
    }
    const parsed = parseProxyTarget(req.url ?? '/', endpoint);
    if (!parsed.ok) {
      req.resume();
      writeProxyError(res, parsed.status, parsed.code, parsed.message, isHead);
      return;
    }
    const { target } = parsed;
    const requestOptions: https.RequestOptions = {
      method: req.method ?? 'GET',
      host: options.connectTo?.host ?? target.hostname.replace(/^\[|\]$/g, ''),
      port: options.connectTo?.port ?? port,
      path: target.pathAndQuery,
      headers: forwardedRequestHeaders(req.rawHeaders, target.hostHeader),
      agent,
      timeout: timeoutMs,
    };
    if (secure && isIP(target.hostname) === 0) requestOptions.servername = target.hostname;
    const upstream = (secure ? https : http).request(requestOptions);

    upstream.on('response', (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardedResponseHeaders(upstreamRes.rawHeaders));
      upstreamRes.pipe(res);
      upstreamRes.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (error) => {
      // Reported without request data: the URL may carry a pre-signed signature.
      writeProxyError(res, 502, 'proxy_upstream_error', `The endpoint could not be reached (${error.message}).`, isHead);
    });
    // The browser went away: stop the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  }

  return {
    handle,
    close: () => agent.destroy(),
  };
}
