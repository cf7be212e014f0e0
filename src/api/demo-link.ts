/**
 * Object links in demo mode. The demo backend's host (`qingstor.invalid`) never resolves: the service worker
 * answers the console's own requests to it, but a link the browser follows by itself (a download, an image,
 * a PDF frame) would leave the console for an address that does not exist. So in demo mode such a link is
 * rewritten onto the console's own origin, under DEMO_LINK_PATH, which the demo's service worker answers
 * (mocks/demo-link.ts): `https://pek3a.qingstor.invalid/b/k?sig…` → `<origin>/demo-object/pek3a.qingstor.invalid/b/k?sig…`.
 * The pre-signed query travels unchanged, so the emulator checks the same signature and expiry.
 */
import { DEMO_ENDPOINT } from './connection.ts';

export const DEMO_LINK_PATH = '/demo-object/';

const DEMO_HOST = new URL(DEMO_ENDPOINT).hostname;

function isDemoHost(host: string): boolean {
  return host === DEMO_HOST || host.endsWith(`.${DEMO_HOST}`);
}

/** The same-origin form of a demo backend URL; any other URL is returned unchanged. */
export function demoLinkOnOrigin(url: URL, origin: string): URL {
  if (url.protocol !== 'https:' || !isDemoHost(url.hostname)) return url;
  return new URL(`${DEMO_LINK_PATH}${url.hostname}${url.pathname}${url.search}`, origin);
}

/** The demo backend URL a same-origin demo link stands for; null when `url` is not one. */
export function demoLinkTarget(url: URL): URL | null {
  if (!url.pathname.startsWith(DEMO_LINK_PATH)) return null;
  const rest = url.pathname.slice(DEMO_LINK_PATH.length);
  const slash = rest.indexOf('/');
  const host = slash < 0 ? rest : rest.slice(0, slash);
  if (!/^[a-z0-9.-]+$/.test(host) || !isDemoHost(host)) return null;
  return new URL(`https://${host}${slash < 0 ? '/' : rest.slice(slash)}${url.search}`);
}
