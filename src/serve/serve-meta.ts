/**
 * `npm run serve` tells the page it runs behind the same-origin proxy in the page itself: a
 * `<meta name="qsc-serve" content="{proxyBase, endpoint}">` in the index.html it sends. The page then knows
 * its mode before its first request (app/boot.ts readServeMeta), and so does boot-preload.js: without the
 * tag, a first visit is a demo tab and its backend downloads with the entry. (A request for
 * /_serve/config.json made boot wait for one round trip before the demo backend was even asked for.)
 * A meta tag, not a script: the CSP allows scripts from files only.
 */
export const SERVE_META_NAME = 'qsc-serve';

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', "'": '&#39;' };

/** index.html with the tag as the first element of its head. */
export function withServeMeta(html: string, config: { proxyBase: string; endpoint: string }): string {
  const content = JSON.stringify(config).replace(/[&"<>']/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
  const tag = `<meta name="${SERVE_META_NAME}" content="${content}" />`;
  // Without a <head> (a hand-written page), after the doctype: the parser opens the head for it there.
  const head = /<head[^>]*>/i.exec(html) ?? /<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  return `${html.slice(0, at)}\n    ${tag}${html.slice(at)}`;
}
